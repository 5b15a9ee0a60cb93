#include "libs/trace/importers/proto/descriptor_pool.h"

#include "libs/trace/importers/proto/proto_decoder.h"

namespace tw {
namespace {

// descriptor.proto field numbers (wire-format facts).
namespace file_set { constexpr uint32_t kFile = 1; }
namespace file {
constexpr uint32_t kPackage = 2, kMessageType = 4, kEnumType = 5, kExtension = 7;
}
namespace message {
constexpr uint32_t kName = 1, kField = 2, kNestedType = 3, kEnumType = 4, kExtension = 6;
}
namespace field {
constexpr uint32_t kName = 1, kExtendee = 2, kNumber = 3, kLabel = 4, kType = 5, kTypeName = 6,
                   kDefaultValue = 7;
constexpr uint64_t kLabelRepeated = 3;
}  // namespace field
namespace enum_type { constexpr uint32_t kName = 1, kValue = 2; }
namespace enum_value { constexpr uint32_t kName = 1, kNumber = 2; }

// A FieldDescriptorProto; `extendee` is set for an extension.
ProtoFieldDef ReadField(std::string_view bytes, std::string* extendee) {
  ProtoFieldDef fd;
  proto::Decoder xd(bytes);
  proto::Field x;
  while (xd.Next(&x)) {
    switch (x.id) {
      case field::kName: fd.name = std::string(x.as_string()); break;
      case field::kExtendee:
        if (extendee) *extendee = std::string(x.as_string());
        break;
      case field::kNumber: fd.number = x.as_uint32(); break;
      case field::kLabel: fd.repeated = x.as_uint64() == field::kLabelRepeated; break;
      case field::kType: fd.type = static_cast<ProtoFieldDef::Type>(x.as_uint32()); break;
      case field::kTypeName: fd.type_name = std::string(x.as_string()); break;
      case field::kDefaultValue: fd.default_value = std::string(x.as_string()); break;
      default: break;
    }
  }
  return fd;
}

}  // namespace

bool DescriptorPool::AddFileDescriptorSet(std::string_view bytes) {
  proto::Decoder d(bytes);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id != file_set::kFile || f.type != proto::kLengthDelimited) continue;
    std::string package;
    {
      proto::Decoder fd(f);
      proto::Field x;
      while (fd.Next(&x)) {
        if (x.id == file::kPackage) package = std::string(x.as_string());
      }
    }
    const std::string scope = package.empty() ? "" : "." + package;
    proto::Decoder fd(f);
    proto::Field x;
    while (fd.Next(&x)) {
      if (x.type != proto::kLengthDelimited) continue;
      if (x.id == file::kMessageType) AddMessage(x.as_string(), scope);
      if (x.id == file::kEnumType) AddEnum(x.as_string(), scope);
      if (x.id == file::kExtension) AddExtension(x.as_string());
    }
    if (fd.error()) return false;
  }
  if (d.error()) return false;
  Resolve();
  return true;
}

void DescriptorPool::AddMessage(std::string_view bytes, const std::string& scope) {
  ProtoMessageDef def;
  std::vector<std::string_view> nested_messages, nested_enums;
  proto::Decoder d(bytes);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case message::kName: def.full_name = scope + "." + std::string(f.as_string()); break;
      case message::kNestedType: nested_messages.push_back(f.as_string()); break;
      case message::kEnumType: nested_enums.push_back(f.as_string()); break;
      case message::kField: {
        ProtoFieldDef fd = ReadField(f.as_string(), nullptr);
        def.by_number.emplace(fd.number, static_cast<uint32_t>(def.fields.size()));
        def.fields.push_back(std::move(fd));
        break;
      }
      case message::kExtension: AddExtension(f.as_string()); break;
      default: break;
    }
  }
  const std::string name = def.full_name;
  message_by_name_[name] = static_cast<uint32_t>(messages_.size());
  messages_.push_back(std::move(def));
  for (std::string_view m : nested_messages) AddMessage(m, name);
  for (std::string_view e : nested_enums) AddEnum(e, name);
}

void DescriptorPool::AddEnum(std::string_view bytes, const std::string& scope) {
  ProtoEnumDef def;
  proto::Decoder d(bytes);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == enum_type::kName) def.full_name = scope + "." + std::string(f.as_string());
    if (f.id == enum_type::kValue && f.type == proto::kLengthDelimited) {
      std::string name;
      int32_t number = 0;
      proto::Decoder vd(f);
      proto::Field v;
      while (vd.Next(&v)) {
        if (v.id == enum_value::kName) name = std::string(v.as_string());
        if (v.id == enum_value::kNumber) number = v.as_int32();
      }
      def.names.emplace(number, std::move(name));  // aliases: the first name is kept
    }
  }
  enum_by_name_[def.full_name] = static_cast<uint32_t>(enums_.size());
  enums_.push_back(std::move(def));
}

void DescriptorPool::AddExtension(std::string_view bytes) {
  std::string extendee;
  ProtoFieldDef fd = ReadField(bytes, &extendee);
  fd.is_extension = true;
  pending_extensions_.emplace_back(std::move(extendee), std::move(fd));
}

void DescriptorPool::Resolve() {
  // Extensions join their message (declared in any file added so far) as ordinary fields; one
  // whose message is not known yet waits for a later file. A number already taken keeps its
  // first definition, as a descriptor pool must.
  std::vector<std::pair<std::string, ProtoFieldDef>> waiting;
  for (auto& [extendee, fd] : pending_extensions_) {
    auto it = message_by_name_.find(extendee);
    if (it == message_by_name_.end()) {
      waiting.emplace_back(std::move(extendee), std::move(fd));
      continue;
    }
    ProtoMessageDef& m = messages_[it->second];
    if (m.by_number.contains(fd.number)) continue;
    m.by_number.emplace(fd.number, static_cast<uint32_t>(m.fields.size()));
    m.fields.push_back(std::move(fd));
  }
  pending_extensions_ = std::move(waiting);
  for (ProtoMessageDef& m : messages_) {
    for (ProtoFieldDef& f : m.fields) {
      if (f.type == ProtoFieldDef::kMessage || f.type == ProtoFieldDef::kGroup) {
        auto it = message_by_name_.find(f.type_name);
        f.message_index = it == message_by_name_.end() ? -1 : static_cast<int32_t>(it->second);
      } else if (f.type == ProtoFieldDef::kEnum) {
        auto it = enum_by_name_.find(f.type_name);
        f.enum_index = it == enum_by_name_.end() ? -1 : static_cast<int32_t>(it->second);
      }
    }
  }
}

const ProtoMessageDef* DescriptorPool::FindMessage(std::string_view full_name) const {
  auto it = message_by_name_.find(std::string(full_name));
  return it == message_by_name_.end() ? nullptr : &messages_[it->second];
}

}  // namespace tw
