#include "libs/trace/importers/proto/protovm/rw_proto.h"

#include <utility>

#include "libs/trace/importers/proto/proto_decoder.h"
#include "libs/trace/importers/proto/proto_writer.h"

namespace tw::protovm {
namespace {

using Kind = RwNode::Kind;
using Children = std::map<uint64_t, std::unique_ptr<RwNode>>;

// The first occurrence of `field_id` in a serialized message, as a scalar.
VmStatus ReadScalarFromBytes(std::string_view bytes, uint32_t field_id, uint64_t* out) {
  proto::Decoder d(bytes);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id != field_id) continue;
    if (f.type == proto::kLengthDelimited) {
      return VmStatus::Abort("map key field is length-delimited");
    }
    *out = f.int_value;
    return VmStatus::Ok();
  }
  return VmStatus::Abort("map key field is missing");
}

// The scalar value of field `field_id` of a message node (raw or decomposed).
VmStatus ReadKey(const RwNode& node, uint32_t field_id, uint64_t* out) {
  if (node.kind == Kind::kBytes) return ReadScalarFromBytes(node.bytes, field_id, out);
  if (node.kind == Kind::kMessage) {
    auto it = node.children.find(field_id);
    if (it == node.children.end()) return VmStatus::Abort("map key field is missing");
    if (it->second->kind != Kind::kScalar) return VmStatus::Abort("map key field is not a scalar");
    *out = it->second->scalar;
    return VmStatus::Ok();
  }
  return VmStatus::Abort("map element is not a message");
}

void AppendField(uint32_t field_id, const RwNode& node, proto::Writer* out) {
  switch (node.kind) {
    case Kind::kEmpty: return;
    case Kind::kBytes: out->Bytes(field_id, node.bytes); return;
    case Kind::kScalar:
      if (node.wire_type == proto::kFixed32) {
        out->Fixed32(field_id, static_cast<uint32_t>(node.scalar));
      } else if (node.wire_type == proto::kFixed64) {
        out->Fixed64(field_id, node.scalar);
      } else {
        out->Varint(field_id, node.scalar);
      }
      return;
    case Kind::kMessage: {
      proto::Writer nested;
      for (const auto& [id, child] : node.children) {
        AppendField(static_cast<uint32_t>(id), *child, &nested);
      }
      out->Message(field_id, nested);
      return;
    }
    case Kind::kIndexed:
    case Kind::kMapped:
      // Each element is one occurrence of the field, in index (or key) order.
      for (const auto& [key, element] : node.children) AppendField(field_id, *element, out);
      return;
  }
}

}  // namespace

VmStatus VmMemory::Charge(size_t bytes) {
  if (used_ + bytes > limit_) return VmStatus::Abort("memory limit exceeded");
  used_ += bytes;
  return VmStatus::Ok();
}

VmStatus RwCursor::CheckValid() const {
  return node_ ? VmStatus::Ok() : VmStatus::Abort("use of a deleted cursor");
}

VmStatus RwCursor::IsRoot(bool* root) const {
  VmStatus s = CheckValid();
  if (s.ok()) *root = parent_ == nullptr;
  return s;
}

void RwCursor::ReleaseContents(RwNode* node) {
  memory_->Release(node->bytes.size());
  for (auto& [key, child] : node->children) {
    ReleaseContents(child.get());
    memory_->Release(VmMemory::kNodeBytes + VmMemory::kEntryBytes);
  }
  node->bytes.clear();
  node->children.clear();
}

VmStatus RwCursor::NodeFromField(uint8_t wire_type, uint64_t value, std::string_view bytes,
                                 std::unique_ptr<RwNode>* out) {
  const bool length_delimited = wire_type == proto::kLengthDelimited;
  VmStatus s = memory_->Charge(VmMemory::kNodeBytes + (length_delimited ? bytes.size() : 0));
  if (!s.ok()) return s;
  auto node = std::make_unique<RwNode>();
  if (length_delimited) {
    node->kind = Kind::kBytes;
    node->bytes = std::string(bytes);
  } else {
    node->kind = Kind::kScalar;
    node->wire_type = wire_type;
    node->scalar = value;
  }
  *out = std::move(node);
  return VmStatus::Ok();
}

VmStatus RwCursor::NewChild(Children* map, uint64_t key, std::unique_ptr<RwNode> child,
                            RwNode** out) {
  if (map->count(key)) return VmStatus::Abort("duplicate key in a repeated field");
  VmStatus s = memory_->Charge(VmMemory::kEntryBytes);
  if (!s.ok()) return s;
  RwNode* raw = child.get();
  map->emplace(key, std::move(child));
  if (out) *out = raw;
  return VmStatus::Ok();
}

VmStatus RwCursor::ToMessage(RwNode* node) {
  if (node->kind == Kind::kMessage) return VmStatus::Ok();
  if (node->kind == Kind::kEmpty) {
    node->kind = Kind::kMessage;
    return VmStatus::Ok();
  }
  if (node->kind != Kind::kBytes) return VmStatus::Abort("not a message");
  // Decompose the raw bytes into fields; a field seen again becomes a repeated field. Bytes
  // that stop parsing end the message there (as a lenient decoder reads them).
  RwNode message;
  message.kind = Kind::kMessage;
  proto::Decoder d(node->bytes);
  proto::Field f;
  while (d.Next(&f)) {
    std::unique_ptr<RwNode> child;
    VmStatus s = NodeFromField(static_cast<uint8_t>(f.type), f.int_value,
                               f.type == proto::kLengthDelimited ? f.as_string() : "", &child);
    if (s.ok()) {
      auto it = message.children.find(f.id);
      if (it == message.children.end()) {
        s = NewChild(&message.children, f.id, std::move(child), nullptr);
      } else {
        s = ToIndexed(it->second.get());
        if (s.ok()) {
          Children& elements = it->second->children;
          s = NewChild(&elements, elements.size(), std::move(child), nullptr);
        }
      }
    }
    if (!s.ok()) {
      ReleaseContents(&message);
      return s;
    }
  }
  memory_->Release(node->bytes.size());
  node->bytes.clear();
  node->kind = Kind::kMessage;
  node->children = std::move(message.children);
  return VmStatus::Ok();
}

VmStatus RwCursor::ToIndexed(RwNode* node) {
  if (node->kind == Kind::kIndexed) return VmStatus::Ok();
  if (node->kind == Kind::kMapped) return VmStatus::Abort("a mapped field used by index");
  if (node->kind == Kind::kEmpty) {
    node->kind = Kind::kIndexed;
    return VmStatus::Ok();
  }
  // The single value becomes element 0.
  VmStatus s = memory_->Charge(VmMemory::kNodeBytes);
  if (!s.ok()) return s;
  auto first = std::make_unique<RwNode>(std::move(*node));
  first->merged = false;
  const bool merged = node->merged;
  *node = RwNode{};
  node->kind = Kind::kIndexed;
  node->merged = merged;
  s = NewChild(&node->children, 0, std::move(first), nullptr);
  if (!s.ok()) memory_->Release(VmMemory::kNodeBytes);
  return s;
}

VmStatus RwCursor::ToMapped(RwNode* node, uint32_t key_field_id) {
  if (node->kind == Kind::kMapped) return VmStatus::Ok();
  if (node->kind == Kind::kEmpty) {
    node->kind = Kind::kMapped;
    return VmStatus::Ok();
  }
  if (node->kind == Kind::kBytes || node->kind == Kind::kMessage) {
    // The single message becomes the element of its key.
    uint64_t key = 0;
    VmStatus s = ReadKey(*node, key_field_id, &key);
    if (!s.ok()) return s;
    s = memory_->Charge(VmMemory::kNodeBytes);
    if (!s.ok()) return s;
    auto only = std::make_unique<RwNode>(std::move(*node));
    *node = RwNode{};
    node->kind = Kind::kMapped;
    s = NewChild(&node->children, key, std::move(only), nullptr);
    if (!s.ok()) memory_->Release(VmMemory::kNodeBytes);
    return s;
  }
  if (node->kind == Kind::kIndexed) {
    // Re-key every element by its key field; nothing changes unless all of them have one.
    std::vector<uint64_t> keys;
    for (const auto& [index, element] : node->children) {
      uint64_t key = 0;
      VmStatus s = ReadKey(*element, key_field_id, &key);
      if (!s.ok()) return s;
      keys.push_back(key);
    }
    Children by_key;
    size_t i = 0;
    for (auto& [index, element] : node->children) {
      if (!by_key.emplace(keys[i++], std::move(element)).second) {
        return VmStatus::Abort("duplicate key in a repeated field");
      }
    }
    node->children = std::move(by_key);
    node->kind = Kind::kMapped;
    return VmStatus::Ok();
  }
  return VmStatus::Abort("a scalar used as a repeated message field");
}

VmStatus RwCursor::FindOrCreateField(uint32_t field_id, RwNode** out) {
  VmStatus s = CheckValid();
  if (s.ok()) s = ToMessage(node_);
  if (!s.ok()) return s;
  auto it = node_->children.find(field_id);
  if (it != node_->children.end()) {
    *out = it->second.get();
    return VmStatus::Ok();
  }
  s = memory_->Charge(VmMemory::kNodeBytes);
  if (!s.ok()) return s;
  s = NewChild(&node_->children, field_id, std::make_unique<RwNode>(), out);
  if (!s.ok()) memory_->Release(VmMemory::kNodeBytes);
  return s;
}

VmStatus RwCursor::HasField(uint32_t field_id, bool* has) {
  VmStatus s = CheckValid();
  if (s.ok()) s = ToMessage(node_);
  if (s.ok()) *has = node_->children.count(field_id) > 0;
  return s;
}

VmStatus RwCursor::EnterField(uint32_t field_id) {
  RwNode* child = nullptr;
  VmStatus s = FindOrCreateField(field_id, &child);
  if (!s.ok()) return s;
  if (child->kind == Kind::kIndexed || child->kind == Kind::kMapped) {
    return VmStatus::Abort("a repeated field entered as a single field");
  }
  *this = RwCursor(child, memory_, &node_->children, field_id);
  return VmStatus::Ok();
}

VmStatus RwCursor::EnterElement(RwNode* repeated, uint64_t key) {
  auto it = repeated->children.find(key);
  RwNode* element = nullptr;
  if (it != repeated->children.end()) {
    element = it->second.get();
  } else {
    VmStatus s = memory_->Charge(VmMemory::kNodeBytes);
    if (!s.ok()) return s;
    s = NewChild(&repeated->children, key, std::make_unique<RwNode>(), &element);
    if (!s.ok()) {
      memory_->Release(VmMemory::kNodeBytes);
      return s;
    }
  }
  *this = RwCursor(element, memory_, &repeated->children, key);
  return VmStatus::Ok();
}

VmStatus RwCursor::EnterRepeatedFieldAt(uint32_t field_id, uint32_t index) {
  RwNode* repeated = nullptr;
  VmStatus s = FindOrCreateField(field_id, &repeated);
  if (s.ok()) s = ToIndexed(repeated);
  if (!s.ok()) return s;
  // Only appending is supported: an index past the end would leave a hole.
  if (!repeated->children.count(index) && index > repeated->children.size()) {
    return VmStatus::Abort("index past the end of a repeated field");
  }
  return EnterElement(repeated, index);
}

VmStatus RwCursor::EnterRepeatedFieldByKey(uint32_t field_id, uint32_t key_field_id,
                                           uint64_t key) {
  RwNode* repeated = nullptr;
  VmStatus s = FindOrCreateField(field_id, &repeated);
  if (s.ok()) s = ToMapped(repeated, key_field_id);
  if (!s.ok()) return s;
  return EnterElement(repeated, key);
}

VmStatus RwCursor::RepeatedField(uint32_t field_id, std::vector<RwCursor>* elements) {
  elements->clear();
  VmStatus s = CheckValid();
  if (s.ok()) s = ToMessage(node_);
  if (!s.ok()) return s;
  auto it = node_->children.find(field_id);
  if (it == node_->children.end()) return VmStatus::Ok();
  RwNode* repeated = it->second.get();
  s = ToIndexed(repeated);
  if (!s.ok()) return s;
  for (auto& [index, element] : repeated->children) {
    elements->push_back(RwCursor(element.get(), memory_, &repeated->children, index));
  }
  return VmStatus::Ok();
}

VmStatus RwCursor::GetScalar(uint8_t* wire_type, uint64_t* value) const {
  VmStatus s = CheckValid();
  if (!s.ok()) return s;
  if (node_->kind != Kind::kScalar) return VmStatus::Abort("not a scalar");
  *wire_type = node_->wire_type;
  *value = node_->scalar;
  return VmStatus::Ok();
}

VmStatus RwCursor::SetScalar(uint8_t wire_type, uint64_t value) {
  VmStatus s = CheckValid();
  if (!s.ok()) return s;
  if (node_->kind != Kind::kEmpty && node_->kind != Kind::kScalar) {
    return VmStatus::Abort("a scalar set on a field that holds other data");
  }
  node_->kind = Kind::kScalar;
  node_->wire_type = wire_type;
  node_->scalar = value;
  return VmStatus::Ok();
}

VmStatus RwCursor::SetBytes(std::string_view bytes) {
  VmStatus s = CheckValid();
  if (!s.ok()) return s;
  if (node_->kind != Kind::kEmpty && node_->kind != Kind::kBytes &&
      node_->kind != Kind::kMessage) {
    return VmStatus::Abort("bytes set on a field that holds other data");
  }
  s = memory_->Charge(bytes.size());
  if (!s.ok()) return s;
  ReleaseContents(node_);
  node_->kind = Kind::kBytes;
  node_->bytes = std::string(bytes);
  return VmStatus::Ok();
}

VmStatus RwCursor::Merge(std::string_view message, bool skip_submessages,
                         bool del_if_src_empty) {
  VmStatus s = CheckValid();
  if (!s.ok()) return s;
  if (node_->kind != Kind::kEmpty && node_->kind != Kind::kBytes &&
      node_->kind != Kind::kMessage) {
    return VmStatus::Abort("merge into a field that is not a message");
  }
  if (message.empty()) return VmStatus::Ok();
  s = ToMessage(node_);
  if (!s.ok()) return s;
  Children& fields = node_->children;
  proto::Decoder d(message);
  proto::Field f;
  while (d.Next(&f)) {
    auto it = fields.find(f.id);
    const bool length_delimited = f.type == proto::kLengthDelimited;
    if (it != fields.end() && del_if_src_empty && length_delimited && f.size == 0) {
      // An empty submessage in the patch removes the field from the state.
      ReleaseContents(it->second.get());
      memory_->Release(VmMemory::kNodeBytes + VmMemory::kEntryBytes);
      fields.erase(it);
      continue;
    }
    if (it != fields.end() && skip_submessages && it->second->kind == Kind::kMessage) {
      continue;  // merged field by field by earlier instructions
    }
    std::unique_ptr<RwNode> value;
    s = NodeFromField(static_cast<uint8_t>(f.type), f.int_value,
                      length_delimited ? f.as_string() : "", &value);
    if (!s.ok()) break;
    if (it == fields.end()) {
      RwNode* added = nullptr;
      s = NewChild(&fields, f.id, std::move(value), &added);
      if (!s.ok()) break;
      added->merged = true;
      continue;
    }
    RwNode* field = it->second.get();
    if (field->kind == Kind::kMapped) {
      s = VmStatus::Abort("merge into a mapped repeated field");
      break;
    }
    // A field the patch repeats becomes (or stays) a repeated field, whose elements the
    // patch's occurrences replace.
    if (field->merged) {
      s = ToIndexed(field);
      if (!s.ok()) break;
    }
    if (field->kind == Kind::kIndexed) {
      if (!field->merged) {
        ReleaseContents(field);
        field->merged = true;
      }
      s = NewChild(&field->children, field->children.size(), std::move(value), nullptr);
      if (!s.ok()) break;
      continue;
    }
    // A single field: the patch's value replaces it.
    ReleaseContents(field);
    memory_->Release(VmMemory::kNodeBytes);
    value->merged = true;
    *field = std::move(*value);
  }
  for (auto& [id, field] : fields) field->merged = false;
  return s;
}

VmStatus RwCursor::Delete() {
  VmStatus s = CheckValid();
  if (!s.ok()) return s;
  if (!parent_) {
    ReleaseContents(node_);
    *node_ = RwNode{};
    return VmStatus::Ok();
  }
  auto it = parent_->find(key_);
  if (it != parent_->end()) {
    ReleaseContents(it->second.get());
    memory_->Release(VmMemory::kNodeBytes + VmMemory::kEntryBytes);
    parent_->erase(it);
  }
  node_ = nullptr;
  parent_ = nullptr;
  return VmStatus::Ok();
}

void SerializeMessageBody(const RwNode& node, std::string* out) {
  if (node.kind == Kind::kBytes) {
    out->append(node.bytes);
    return;
  }
  if (node.kind != Kind::kMessage) return;
  proto::Writer w;
  for (const auto& [id, child] : node.children) AppendField(static_cast<uint32_t>(id), *child, &w);
  out->append(w.data());
}

}  // namespace tw::protovm
