#include "libs/trace/importers/proto/protovm/ro_cursor.h"

namespace tw::protovm {

VmStatus RoCursor::Message(std::string_view* out) const {
  if (!is_field_) {
    *out = bytes_;
    return VmStatus::Ok();
  }
  if (field_.type != proto::kLengthDelimited) {
    return VmStatus::Abort("a scalar field used as a message");
  }
  *out = field_.as_string();
  return VmStatus::Ok();
}

VmStatus RoCursor::EnterField(uint32_t field_id) {
  std::string_view message;
  VmStatus s = Message(&message);
  if (!s.ok()) return s;
  proto::Decoder d(message);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == field_id) {
      *this = RoCursor(f);
      return VmStatus::Ok();
    }
  }
  return VmStatus::Error();
}

VmStatus RoCursor::EnterRepeatedFieldAt(uint32_t field_id, uint32_t index) {
  std::string_view message;
  VmStatus s = Message(&message);
  if (!s.ok()) return s;
  proto::Decoder d(message);
  proto::Field f;
  uint32_t seen = 0;
  while (d.Next(&f)) {
    if (f.id != field_id) continue;
    if (seen++ == index) {
      // An indexed element is a message.
      if (f.type != proto::kLengthDelimited) return VmStatus::Abort("a scalar used as a message");
      *this = RoCursor(f.as_string());
      return VmStatus::Ok();
    }
  }
  return VmStatus::Error();
}

VmStatus RoCursor::RepeatedField(uint32_t field_id, std::vector<RoCursor>* occurrences) const {
  occurrences->clear();
  std::string_view message;
  VmStatus s = Message(&message);
  if (!s.ok()) return s;
  proto::Decoder d(message);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == field_id) occurrences->push_back(RoCursor(f));
  }
  return VmStatus::Ok();
}

bool RoCursor::IsScalar() const {
  return is_field_ && (field_.type == proto::kVarint || field_.type == proto::kFixed32 ||
                       field_.type == proto::kFixed64);
}

bool RoCursor::IsBytes() const { return !is_field_ || field_.type == proto::kLengthDelimited; }

VmStatus RoCursor::GetScalar(uint8_t* wire_type, uint64_t* value) const {
  if (!IsScalar()) return VmStatus::Abort("a length-delimited field read as a scalar");
  *wire_type = field_.type;
  *value = field_.int_value;
  return VmStatus::Ok();
}

VmStatus RoCursor::GetBytes(std::string_view* bytes) const {
  if (!IsBytes()) return VmStatus::Abort("a scalar field read as bytes");
  return Message(bytes);
}

}  // namespace tw::protovm
