#pragma once
// The ProtoVM's SRC cursor: a read-only position in the patch packet. It holds either a whole
// serialized message (the packet, or an element a path indexed) or one field of a message (with
// its wire type, so scalars keep theirs). Entering a field finds its first occurrence.

#include <cstdint>
#include <string_view>
#include <vector>

#include "libs/trace/importers/proto/proto_decoder.h"
#include "libs/trace/importers/proto/protovm/vm_status.h"

namespace tw::protovm {

class RoCursor {
 public:
  RoCursor() = default;
  explicit RoCursor(std::string_view message) : bytes_(message) {}

  // Moves to the first occurrence of `field_id`; kError if the message has none.
  VmStatus EnterField(uint32_t field_id);
  // Moves to occurrence `index` of `field_id` (a message); kError if there are fewer.
  VmStatus EnterRepeatedFieldAt(uint32_t field_id, uint32_t index);
  // Every occurrence of `field_id`.
  VmStatus RepeatedField(uint32_t field_id, std::vector<RoCursor>* occurrences) const;

  bool IsScalar() const;
  bool IsBytes() const;
  VmStatus GetScalar(uint8_t* wire_type, uint64_t* value) const;
  VmStatus GetBytes(std::string_view* bytes) const;

 private:
  explicit RoCursor(const proto::Field& field) : is_field_(true), field_(field) {}
  // The bytes of the message here (a whole message, or a length-delimited field).
  VmStatus Message(std::string_view* out) const;

  bool is_field_ = false;
  std::string_view bytes_;  // !is_field_
  proto::Field field_;      // is_field_
};

}  // namespace tw::protovm
