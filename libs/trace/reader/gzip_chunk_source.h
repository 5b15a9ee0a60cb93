#pragma once
// Streaming inflate of a gzip (or zlib) stream read from another ChunkSource. Memory is bounded:
// one fixed input buffer plus zlib's 32 KiB window, whatever the file size. Concatenated gzip
// members (what `cat a.gz b.gz` or pigz produce) decode as one stream; zero padding after the
// last member is ignored, as gzip(1) does.
//
// Errors are reported after the data: on a truncated or corrupt stream, Read() first returns
// every byte that could still be decoded, then INVALID_ARGUMENT on the next call (and on every
// call after that). The caller decides whether a partial trace is useful.

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/trace/reader/chunk_source.h"

namespace tw {

class GzipChunkSource : public ChunkSource {
 public:
  static constexpr size_t kDefaultInputBufferBytes = 256 << 10;

  explicit GzipChunkSource(std::unique_ptr<ChunkSource> compressed,
                           size_t input_buffer_bytes = kDefaultInputBufferBytes);
  ~GzipChunkSource() override;
  GzipChunkSource(const GzipChunkSource&) = delete;
  GzipChunkSource& operator=(const GzipChunkSource&) = delete;

  absl::StatusOr<size_t> Read(uint8_t* buf, size_t capacity) override;

  int64_t compressed_bytes_read() const { return compressed_in_; }
  int64_t decompressed_bytes() const { return decompressed_out_; }
  int members() const { return members_; }

 private:
  // Tops up the input buffer when zlib has consumed it. Sets input_eof_ at the end.
  absl::Status Refill();
  // After a member ends: skips zero padding and starts the next member if there is one.
  // Returns false when the stream ended cleanly.
  absl::StatusOr<bool> StartNextMember();

  std::unique_ptr<ChunkSource> compressed_;
  std::vector<uint8_t> in_;
  z_stream zs_{};
  bool zs_ready_ = false;
  bool input_eof_ = false;
  bool member_done_ = false;
  bool done_ = false;
  absl::Status error_;  // sticky once set
  int64_t compressed_in_ = 0;
  int64_t decompressed_out_ = 0;
  int members_ = 0;
};

}  // namespace tw
