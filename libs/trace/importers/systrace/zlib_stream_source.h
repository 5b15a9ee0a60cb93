#pragma once
// Inflates the one zlib stream `atrace -z` writes after its "TRACE:" line. Unlike the reader's
// GzipChunkSource (which treats whatever follows a stream as another gzip member), anything
// after the end of the stream is ignored: atrace output can carry trailing bytes, and the
// tools that read it (catapult's systrace) ignore them too. A stream that ends early is an
// error, reported after the bytes that could be decoded.

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/trace/reader/chunk_source.h"

namespace tw {

class ZlibStreamSource : public ChunkSource {
 public:
  explicit ZlibStreamSource(std::unique_ptr<ChunkSource> compressed);
  ~ZlibStreamSource() override;
  ZlibStreamSource(const ZlibStreamSource&) = delete;
  ZlibStreamSource& operator=(const ZlibStreamSource&) = delete;

  absl::StatusOr<size_t> Read(uint8_t* buf, size_t capacity) override;

 private:
  std::unique_ptr<ChunkSource> compressed_;
  std::vector<uint8_t> in_;
  z_stream zs_{};
  bool ready_ = false;
  bool input_eof_ = false;
  bool done_ = false;
  absl::Status error_;  // sticky
  int64_t compressed_in_ = 0;
};

}  // namespace tw
