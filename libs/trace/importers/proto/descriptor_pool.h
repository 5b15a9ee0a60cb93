#pragma once
// Message and enum definitions read from a serialized FileDescriptorSet (protoc's
// --descriptor_set_out), so a message can be turned into args by reflection: field names,
// types and enum value names come from the project's own .proto subsets (schema/), compiled at
// build time and embedded — and from the FileDescriptorSets a trace carries (ExtensionDescriptor
// packets), merged over them. Read with the importer's own wire decoder; no libprotobuf.
// Extension fields (`extend` blocks) become fields of the message they extend.
// A pool is a value: copying one (see trace_descriptor_pool.h) keeps its message indices.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace tw {

struct ProtoFieldDef {
  // FieldDescriptorProto.Type values.
  enum Type : uint8_t {
    kDouble = 1, kFloat = 2, kInt64 = 3, kUint64 = 4, kInt32 = 5, kFixed64 = 6, kFixed32 = 7,
    kBool = 8, kString = 9, kGroup = 10, kMessage = 11, kBytes = 12, kUint32 = 13, kEnum = 14,
    kSfixed32 = 15, kSfixed64 = 16, kSint32 = 17, kSint64 = 18,
  };
  uint32_t number = 0;
  std::string name;
  Type type = kInt32;
  bool repeated = false;
  std::string type_name;  // fully qualified, with a leading '.', for messages and enums
  std::optional<std::string> default_value;
  int32_t message_index = -1;  // resolved type_name, into DescriptorPool::messages()
  int32_t enum_index = -1;     // resolved type_name, into DescriptorPool::enums()
  bool is_extension = false;   // declared in an `extend` block (named by its own name)
};

struct ProtoMessageDef {
  std::string full_name;  // with a leading '.'
  std::vector<ProtoFieldDef> fields;
  absl::flat_hash_map<uint32_t, uint32_t> by_number;  // field number → index in fields

  const ProtoFieldDef* Field(uint32_t number) const {
    auto it = by_number.find(number);
    return it == by_number.end() ? nullptr : &fields[it->second];
  }
};

struct ProtoEnumDef {
  std::string full_name;
  absl::flat_hash_map<int32_t, std::string> names;  // value → name (first name wins)
};

class DescriptorPool {
 public:
  // Adds every message, enum and extension of a serialized FileDescriptorSet, merging into
  // what the pool holds, as trace_processor merges a trace's descriptors into its pool: a
  // message defined again keeps its fields and gains the ones with new numbers (a number
  // already taken keeps its first definition, so a trace cannot retype a known field); an enum
  // defined again gains its values, a value named again takes the later name. Existing
  // message and enum indices never change. False if the set is malformed (what was read
  // before the damage is kept).
  bool AddFileDescriptorSet(std::string_view bytes);

  // Types named in package `from` (".perfetto.protos") are read as this pool's types of
  // package `to`: the embedded subsets move every type into a package of their own, while the
  // descriptors a trace carries (and type names in its data) use the original package.
  void AliasPackage(std::string from, std::string to);
  // `full_name` with an aliased package replaced.
  std::string Canonical(std::string_view full_name) const;

  // The message named `full_name` (".package.Message", aliases applied), or nullptr.
  const ProtoMessageDef* FindMessage(std::string_view full_name) const;
  // Its index in messages(), which stays valid as files are added and in copies of the pool.
  std::optional<uint32_t> FindMessageIndex(std::string_view full_name) const;
  // The name of `value` in the enum `enum_full_name` (aliases applied), if both are known.
  std::optional<std::string_view> EnumValueName(std::string_view enum_full_name,
                                                int32_t value) const;
  const std::vector<ProtoMessageDef>& messages() const { return messages_; }
  const std::vector<ProtoEnumDef>& enums() const { return enums_; }

 private:
  ProtoFieldDef ReadField(std::string_view bytes, const std::string& package,
                          std::string* extendee) const;
  void AddMessage(std::string_view bytes, const std::string& scope, const std::string& package);
  void AddEnum(std::string_view bytes, const std::string& scope);
  void AddExtension(std::string_view bytes, const std::string& package);
  void Resolve();

  std::string alias_from_;  // with a leading '.'; empty: no alias
  std::string alias_to_;

  std::vector<ProtoMessageDef> messages_;
  std::vector<ProtoEnumDef> enums_;
  absl::flat_hash_map<std::string, uint32_t> message_by_name_;
  absl::flat_hash_map<std::string, uint32_t> enum_by_name_;
  // Extensions (extendee's full name, field) whose message is not in the pool yet.
  std::vector<std::pair<std::string, ProtoFieldDef>> pending_extensions_;
};

}  // namespace tw
