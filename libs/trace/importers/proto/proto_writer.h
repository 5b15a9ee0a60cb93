#pragma once
// A minimal protobuf wire-format writer: used by tracegen, the benchmark trace generator and
// tests to produce real Perfetto traces byte for byte, without generated code.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace tw::proto {

class Writer {
 public:
  void Varint(uint32_t field, uint64_t v) {
    Key(field, 0);
    RawVarint(v);
  }
  void Int(uint32_t field, int64_t v) { Varint(field, static_cast<uint64_t>(v)); }
  void Sint(uint32_t field, int64_t v) {
    Varint(field, (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }
  void Bool(uint32_t field, bool v) { Varint(field, v ? 1 : 0); }
  void Fixed64(uint32_t field, uint64_t v) {
    Key(field, 1);
    buf_.append(reinterpret_cast<const char*>(&v), 8);
  }
  void Double(uint32_t field, double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    Fixed64(field, bits);
  }
  void Fixed32(uint32_t field, uint32_t v) {
    Key(field, 5);
    buf_.append(reinterpret_cast<const char*>(&v), 4);
  }
  void Bytes(uint32_t field, std::string_view bytes) {
    Key(field, 2);
    RawVarint(bytes.size());
    buf_.append(bytes.data(), bytes.size());
  }
  void String(uint32_t field, std::string_view s) { Bytes(field, s); }
  void Message(uint32_t field, const Writer& nested) { Bytes(field, nested.buf_); }
  // A packed repeated varint field from any range of integers.
  template <typename Range>
  void Packed(uint32_t field, const Range& values) {
    Writer tmp;
    for (auto v : values) tmp.RawVarint(static_cast<uint64_t>(v));
    Bytes(field, tmp.buf_);
  }

  void RawVarint(uint64_t v) {
    while (v >= 0x80) {
      buf_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    buf_.push_back(static_cast<char>(v));
  }

  const std::string& data() const { return buf_; }
  std::string Take() { return std::move(buf_); }
  size_t size() const { return buf_.size(); }
  void Clear() { buf_.clear(); }

 private:
  void Key(uint32_t field, uint32_t wire_type) {
    RawVarint((static_cast<uint64_t>(field) << 3) | wire_type);
  }
  std::string buf_;
};

}  // namespace tw::proto
