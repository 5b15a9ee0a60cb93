#pragma once
// A zero-copy protobuf wire-format decoder. It walks the fields of one message in place and
// never allocates, so the importer can decode packets straight out of the read buffer. Malformed
// input (overflowing varints, lengths past the end, unknown wire types) stops the walk and sets
// error(), it never reads out of bounds.

#include <cstdint>
#include <cstring>
#include <string_view>

namespace tw::proto {

enum WireType : uint8_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

// Parses one base-128 varint from [*p, end). Returns false (leaving *p unspecified) on
// truncation or on more than 10 bytes.
inline bool ReadVarint(const uint8_t** p, const uint8_t* end, uint64_t* out) {
  uint64_t result = 0;
  const uint8_t* cur = *p;
  for (int shift = 0; shift < 64; shift += 7) {
    if (cur >= end) return false;
    const uint8_t byte = *cur++;
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) {
      *p = cur;
      *out = result;
      return true;
    }
  }
  return false;
}

inline int64_t ZigZagDecode(uint64_t v) {
  return static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));
}

struct Field {
  uint32_t id = 0;
  uint8_t type = 0;
  uint64_t int_value = 0;      // varint / fixed payload
  const uint8_t* data = nullptr;  // length-delimited payload
  size_t size = 0;

  int64_t as_int64() const { return static_cast<int64_t>(int_value); }
  int32_t as_int32() const { return static_cast<int32_t>(int_value); }
  uint32_t as_uint32() const { return static_cast<uint32_t>(int_value); }
  uint64_t as_uint64() const { return int_value; }
  bool as_bool() const { return int_value != 0; }
  int64_t as_sint64() const { return ZigZagDecode(int_value); }
  int32_t as_sint32() const { return static_cast<int32_t>(ZigZagDecode(int_value)); }
  double as_double() const {
    double d;
    std::memcpy(&d, &int_value, sizeof(d));
    return d;
  }
  float as_float() const {
    const uint32_t bits = static_cast<uint32_t>(int_value);
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
  }
  std::string_view as_string() const {
    return std::string_view(reinterpret_cast<const char*>(data), size);
  }
};

class Decoder {
 public:
  Decoder(const uint8_t* data, size_t size) : cur_(data), end_(data + size) {}
  explicit Decoder(std::string_view s)
      : Decoder(reinterpret_cast<const uint8_t*>(s.data()), s.size()) {}
  Decoder(const Field& f) : Decoder(f.data, f.size) {}  // NOLINT: decode a nested message

  // Advances to the next field. Returns false at the end of the message or on malformed input
  // (then error() is true).
  bool Next(Field* f) {
    if (cur_ >= end_) return false;
    uint64_t key;
    if (!ReadVarint(&cur_, end_, &key)) return Fail();
    const uint64_t id = key >> 3;
    if (id == 0 || id > 0x1fffffff) return Fail();
    f->id = static_cast<uint32_t>(id);
    f->type = static_cast<uint8_t>(key & 7);
    f->data = nullptr;
    f->size = 0;
    switch (f->type) {
      case kVarint:
        if (!ReadVarint(&cur_, end_, &f->int_value)) return Fail();
        return true;
      case kFixed64:
        if (end_ - cur_ < 8) return Fail();
        std::memcpy(&f->int_value, cur_, 8);
        cur_ += 8;
        return true;
      case kFixed32: {
        if (end_ - cur_ < 4) return Fail();
        uint32_t v;
        std::memcpy(&v, cur_, 4);
        f->int_value = v;
        cur_ += 4;
        return true;
      }
      case kLengthDelimited: {
        uint64_t len;
        if (!ReadVarint(&cur_, end_, &len)) return Fail();
        if (len > static_cast<uint64_t>(end_ - cur_)) return Fail();
        f->data = cur_;
        f->size = static_cast<size_t>(len);
        f->int_value = 0;
        cur_ += len;
        return true;
      }
      default:
        return Fail();
    }
  }

  bool error() const { return error_; }

 private:
  bool Fail() {
    error_ = true;
    cur_ = end_;
    return false;
  }

  const uint8_t* cur_;
  const uint8_t* end_;
  bool error_ = false;
};

// Iterates a packed repeated varint field (`[packed = true]`).
class PackedVarints {
 public:
  explicit PackedVarints(const Field& f) : cur_(f.data), end_(f.data + f.size) {}
  bool Next(uint64_t* v) {
    if (cur_ >= end_) return false;
    if (!ReadVarint(&cur_, end_, v)) {
      error_ = true;
      cur_ = end_;
      return false;
    }
    return true;
  }
  bool error() const { return error_; }

 private:
  const uint8_t* cur_;
  const uint8_t* end_;
  bool error_ = false;
};

}  // namespace tw::proto
