#include "libs/trace/reader/gzip_chunk_source.h"

#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"

namespace tw {
namespace {

// 15 = the largest window; +32 = let zlib detect a gzip or zlib header by itself.
constexpr int kWindowBitsAutoDetect = 15 + 32;

}  // namespace

GzipChunkSource::GzipChunkSource(std::unique_ptr<ChunkSource> compressed, size_t input_buffer_bytes)
    : compressed_(std::move(compressed)), in_(input_buffer_bytes > 0 ? input_buffer_bytes : 1) {
  if (inflateInit2(&zs_, kWindowBitsAutoDetect) == Z_OK) {
    zs_ready_ = true;
  } else {
    error_ = absl::ResourceExhaustedError(
        absl::StrCat("gzip: cannot initialise zlib: ", zs_.msg ? zs_.msg : "out of memory"));
  }
}

GzipChunkSource::~GzipChunkSource() {
  if (zs_ready_) inflateEnd(&zs_);
}

absl::Status GzipChunkSource::Refill() {
  if (zs_.avail_in > 0 || input_eof_) return absl::OkStatus();
  absl::StatusOr<size_t> n = compressed_->Read(in_.data(), in_.size());
  if (!n.ok()) return n.status();
  if (*n == 0) {
    input_eof_ = true;
  } else {
    compressed_in_ += static_cast<int64_t>(*n);
  }
  zs_.next_in = in_.data();
  zs_.avail_in = static_cast<uInt>(*n);
  return absl::OkStatus();
}

absl::StatusOr<bool> GzipChunkSource::StartNextMember() {
  for (;;) {
    while (zs_.avail_in > 0 && *zs_.next_in == 0) {
      ++zs_.next_in;
      --zs_.avail_in;
    }
    if (zs_.avail_in > 0) break;
    if (absl::Status s = Refill(); !s.ok()) return s;
    if (zs_.avail_in == 0 && input_eof_) return false;
  }
  // Another member follows. If it is not gzip, inflate() reports "incorrect header check".
  if (inflateReset(&zs_) != Z_OK) {
    return absl::InternalError("gzip: inflateReset failed");
  }
  member_done_ = false;
  return true;
}

absl::StatusOr<size_t> GzipChunkSource::Read(uint8_t* buf, size_t capacity) {
  if (!error_.ok()) return error_;
  if (done_ || capacity == 0) return size_t{0};

  // zlib counts in uInt; clamp so huge requests cannot overflow avail_out.
  if (capacity > std::numeric_limits<uInt>::max()) capacity = std::numeric_limits<uInt>::max();

  size_t produced = 0;
  while (produced < capacity) {
    if (member_done_) {
      absl::StatusOr<bool> more = StartNextMember();
      if (!more.ok()) {
        error_ = more.status();
        break;
      }
      if (!*more) {
        done_ = true;
        break;
      }
    }
    if (absl::Status s = Refill(); !s.ok()) {
      error_ = s;
      break;
    }
    zs_.next_out = buf + produced;
    zs_.avail_out = static_cast<uInt>(capacity - produced);
    const int ret = inflate(&zs_, Z_NO_FLUSH);
    const size_t out = (capacity - produced) - zs_.avail_out;
    produced += out;
    decompressed_out_ += static_cast<int64_t>(out);

    if (ret == Z_STREAM_END) {
      ++members_;
      member_done_ = true;
      continue;
    }
    if (ret == Z_OK) continue;
    if (ret == Z_BUF_ERROR) {
      // No progress was possible. With output space left that means zlib needs input: more is
      // on the way unless the compressed stream has ended, which means it was cut short.
      if (zs_.avail_in == 0 && input_eof_) {
        error_ = absl::InvalidArgumentError(
            absl::StrCat("gzip stream truncated after ", compressed_in_, " bytes (",
                         decompressed_out_, " bytes decompressed)"));
        break;
      }
      continue;
    }
    if (ret == Z_MEM_ERROR) {
      error_ = absl::ResourceExhaustedError("gzip: zlib ran out of memory");
      break;
    }
    // Z_DATA_ERROR, Z_NEED_DICT, Z_STREAM_ERROR.
    const int64_t offset = compressed_in_ - static_cast<int64_t>(zs_.avail_in);
    error_ = absl::InvalidArgumentError(absl::StrCat(
        "gzip data corrupt near compressed byte ", offset, ": ",
        zs_.msg ? zs_.msg : (ret == Z_NEED_DICT ? "needs a preset dictionary" : "inflate failed")));
    break;
  }
  // Hand over what was decoded before any error; the error waits for the next call.
  if (produced > 0) return produced;
  if (!error_.ok()) return error_;
  return size_t{0};
}

}  // namespace tw
