#pragma once
// The ProtoVM's incremental state: a protobuf message held as a tree it can edit without a
// schema. A node starts as the raw bytes it was given and is decomposed into fields only when
// a program steps into it; a field that occurs several times becomes an indexed repeated field,
// or, when a program looks its elements up by a key field, a mapped one (ordered by key).
// Scalars keep their wire type, so the state serializes back byte-compatibly. Every node and
// byte counts against the VM's memory limit; going over it aborts the patch.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "libs/trace/importers/proto/protovm/vm_status.h"

namespace tw::protovm {

struct RwNode {
  enum class Kind : uint8_t { kEmpty, kScalar, kBytes, kMessage, kIndexed, kMapped };
  Kind kind = Kind::kEmpty;
  uint8_t wire_type = 0;  // kScalar: 0 varint, 1 fixed64, 5 fixed32
  uint64_t scalar = 0;
  std::string bytes;  // kBytes
  // kMessage: field id → field; kIndexed: index → element; kMapped: key → element.
  std::map<uint64_t, std::unique_ptr<RwNode>> children;
  // Set while a merge has written this field, so a second occurrence in the same merge appends.
  bool merged = false;
};

// Memory accounting of one VM: what its state holds, against its limit.
class VmMemory {
 public:
  // What a node and the map entry holding it cost beyond their bytes (about what
  // trace_processor's VM allocates for each).
  static constexpr size_t kNodeBytes = 48;
  static constexpr size_t kEntryBytes = 48;

  explicit VmMemory(size_t limit_bytes) : limit_(limit_bytes) {}
  VmStatus Charge(size_t bytes);
  void Release(size_t bytes) { used_ -= bytes < used_ ? bytes : used_; }
  size_t used() const { return used_; }

 private:
  size_t limit_;
  size_t used_ = 0;
};

// A position in the state tree, as the DST cursor holds it. A cursor that deleted its node is
// invalid: any further use aborts.
class RwCursor {
 public:
  RwCursor() = default;
  RwCursor(RwNode* root, VmMemory* memory) : node_(root), memory_(memory) {}

  bool operator==(const RwCursor& o) const { return node_ == o.node_; }
  bool valid() const { return node_ != nullptr; }
  VmStatus IsRoot(bool* root) const;
  const RwNode* node() const { return node_; }

  // Whether the message here has the field (decomposing the node into a message).
  VmStatus HasField(uint32_t field_id, bool* has);
  // Moves to the field, creating it empty if absent.
  VmStatus EnterField(uint32_t field_id);
  // Moves to element `index` of a repeated field; index == size appends an element.
  VmStatus EnterRepeatedFieldAt(uint32_t field_id, uint32_t index);
  // Moves to the element of a repeated message field whose field `key_field_id` equals `key`,
  // creating it if absent.
  VmStatus EnterRepeatedFieldByKey(uint32_t field_id, uint32_t key_field_id, uint64_t key);
  // The elements of a repeated field, as cursors (none if the field is absent).
  VmStatus RepeatedField(uint32_t field_id, std::vector<RwCursor>* elements);

  VmStatus GetScalar(uint8_t* wire_type, uint64_t* value) const;
  VmStatus SetScalar(uint8_t wire_type, uint64_t value);
  VmStatus SetBytes(std::string_view bytes);
  // Merges a serialized message into the message here, proto-merge style: a field replaces
  // its value, a field repeated in the source replaces the whole repeated field.
  // `skip_submessages`: fields already decomposed into messages keep theirs (merged bottom-up
  // by earlier instructions). `del_if_src_empty`: an empty length-delimited source field
  // deletes the field.
  VmStatus Merge(std::string_view message, bool skip_submessages, bool del_if_src_empty);
  // Deletes the node here (the root becomes empty); the cursor becomes invalid.
  VmStatus Delete();

 private:
  RwCursor(RwNode* node, VmMemory* memory, std::map<uint64_t, std::unique_ptr<RwNode>>* parent,
           uint64_t key)
      : node_(node), memory_(memory), parent_(parent), key_(key) {}
  VmStatus CheckValid() const;
  VmStatus ToMessage(RwNode* node);
  VmStatus ToIndexed(RwNode* node);
  VmStatus ToMapped(RwNode* node, uint32_t key_field_id);
  // The field of the message here, created empty if absent.
  VmStatus FindOrCreateField(uint32_t field_id, RwNode** out);
  // Moves to element `key` of a repeated field node, created empty if absent.
  VmStatus EnterElement(RwNode* repeated, uint64_t key);
  VmStatus NewChild(std::map<uint64_t, std::unique_ptr<RwNode>>* map, uint64_t key,
                    std::unique_ptr<RwNode> child, RwNode** out);
  VmStatus NodeFromField(uint8_t wire_type, uint64_t value, std::string_view bytes,
                         std::unique_ptr<RwNode>* out);
  // Releases the memory of what a node holds (its bytes, its fields and elements).
  void ReleaseContents(RwNode* node);

  RwNode* node_ = nullptr;
  VmMemory* memory_ = nullptr;
  std::map<uint64_t, std::unique_ptr<RwNode>>* parent_ = nullptr;  // null at the root
  uint64_t key_ = 0;
};

// Appends the serialized message a (root) node holds: its raw bytes, or its fields in field id
// order with repeated fields in element order. An empty root is an empty message.
void SerializeMessageBody(const RwNode& node, std::string* out);

}  // namespace tw::protovm
