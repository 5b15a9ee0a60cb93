#pragma once
// Test-only ChunkSources and helpers shared by the reader and importer tests: a source that
// dribbles a few bytes per read (to push every parser across chunk boundaries), one that fails
// mid-stream, a gzip compressor, and a drain-everything helper.

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/trace/reader/chunk_source.h"

namespace tw::testing {

// Returns 1..7 bytes per Read, in a fixed pseudo-random pattern so failures reproduce.
class DribbleSource : public ChunkSource {
 public:
  explicit DribbleSource(std::string data, uint32_t seed = 1)
      : data_(std::move(data)), state_(seed | 1) {}
  absl::StatusOr<size_t> Read(uint8_t* buf, size_t capacity) override {
    state_ = state_ * 1103515245u + 12345u;
    size_t n = 1 + (state_ >> 16) % 7;
    n = std::min({n, capacity, data_.size() - pos_});
    std::memcpy(buf, data_.data() + pos_, n);
    pos_ += n;
    ++reads_;
    return n;
  }
  int reads() const { return reads_; }

 private:
  std::string data_;
  size_t pos_ = 0;
  uint32_t state_;
  int reads_ = 0;
};

// A MemoryChunkSource that owns its bytes, so a test can hand a source over and forget it.
class OwnedMemorySource : public ChunkSource {
 public:
  explicit OwnedMemorySource(std::string data) : data_(std::move(data)), src_(data_) {}
  OwnedMemorySource(const OwnedMemorySource&) = delete;
  OwnedMemorySource& operator=(const OwnedMemorySource&) = delete;
  absl::StatusOr<size_t> Read(uint8_t* buf, size_t capacity) override {
    return src_.Read(buf, capacity);
  }

 private:
  std::string data_;
  MemoryChunkSource src_;
};

// Serves `data`, then fails every Read with `error` instead of reporting the end.
class FailingSource : public ChunkSource {
 public:
  FailingSource(std::string data, absl::Status error)
      : data_(std::move(data)), error_(std::move(error)) {}
  absl::StatusOr<size_t> Read(uint8_t* buf, size_t capacity) override {
    if (pos_ == data_.size()) return error_;
    const size_t n = std::min(capacity, data_.size() - pos_);
    std::memcpy(buf, data_.data() + pos_, n);
    pos_ += n;
    return n;
  }

 private:
  std::string data_;
  size_t pos_ = 0;
  absl::Status error_;
};

// Compresses with zlib's deflate. windowBits 15 + 16 = 31 writes a gzip header and trailer;
// 15 writes a zlib stream.
inline std::string Compress(std::string_view data, int window_bits = 31, int level = 6) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  std::string out(deflateBound(&zs, data.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int ret = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return ret == Z_STREAM_END ? out : std::string();
}
inline std::string Gzip(std::string_view data, int level = 6) { return Compress(data, 31, level); }

// Reads `src` to the end (or the first error) with reads of at most `capacity` bytes. The
// bytes read before an error are kept in *out.
inline absl::Status ReadAll(ChunkSource* src, std::string* out, size_t capacity = 4096) {
  std::string buf(capacity, '\0');
  for (;;) {
    absl::StatusOr<size_t> n = src->Read(reinterpret_cast<uint8_t*>(buf.data()), capacity);
    if (!n.ok()) return n.status();
    if (*n == 0) return absl::OkStatus();
    out->append(buf.data(), *n);
  }
}

// Deterministic filler: compressible but not trivially so.
inline std::string TestBytes(size_t n, uint32_t seed = 7) {
  std::string s(n, '\0');
  uint32_t x = seed;
  for (size_t i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    s[i] = static_cast<char>("abcdefghij \n0123"[(x >> 24) & 15]);
  }
  return s;
}

// Deterministic high-entropy bytes: deflate cannot shrink them.
inline std::string RandomBytes(size_t n, uint64_t seed = 42) {
  std::string s(n, '\0');
  uint64_t x = seed;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    s[i] = static_cast<char>(x >> 56);
  }
  return s;
}

}  // namespace tw::testing
