#include "libs/trace/importers/systrace/zlib_stream_source.h"

#include <limits>

#include "absl/strings/str_cat.h"

namespace tw {
namespace {

constexpr size_t kInputBytes = 64 << 10;
// 15 = the largest window; +32 = accept a zlib or a gzip header.
constexpr int kWindowBitsAutoDetect = 15 + 32;

}  // namespace

ZlibStreamSource::ZlibStreamSource(std::unique_ptr<ChunkSource> compressed)
    : compressed_(std::move(compressed)), in_(kInputBytes) {
  if (inflateInit2(&zs_, kWindowBitsAutoDetect) == Z_OK) {
    ready_ = true;
  } else {
    error_ = absl::ResourceExhaustedError("zlib: cannot initialise the inflater");
  }
}

ZlibStreamSource::~ZlibStreamSource() {
  if (ready_) inflateEnd(&zs_);
}

absl::StatusOr<size_t> ZlibStreamSource::Read(uint8_t* buf, size_t capacity) {
  if (!error_.ok()) return error_;
  if (done_ || capacity == 0) return size_t{0};
  if (capacity > std::numeric_limits<uInt>::max()) capacity = std::numeric_limits<uInt>::max();
  size_t produced = 0;
  while (produced < capacity && !done_) {
    if (zs_.avail_in == 0 && !input_eof_) {
      absl::StatusOr<size_t> n = compressed_->Read(in_.data(), in_.size());
      if (!n.ok()) {
        error_ = n.status();
        break;
      }
      if (*n == 0) input_eof_ = true;
      compressed_in_ += static_cast<int64_t>(*n);
      zs_.next_in = in_.data();
      zs_.avail_in = static_cast<uInt>(*n);
    }
    zs_.next_out = buf + produced;
    zs_.avail_out = static_cast<uInt>(capacity - produced);
    const int ret = inflate(&zs_, Z_NO_FLUSH);
    produced += (capacity - produced) - zs_.avail_out;
    if (ret == Z_STREAM_END) {
      done_ = true;  // trailing bytes, if any, are not part of the trace
    } else if (ret == Z_OK) {
      continue;
    } else if (ret == Z_BUF_ERROR && !(zs_.avail_in == 0 && input_eof_)) {
      continue;  // needs more input, which is coming
    } else if (ret == Z_BUF_ERROR) {
      error_ = absl::InvalidArgumentError(
          absl::StrCat("zlib stream truncated after ", compressed_in_, " compressed bytes"));
    } else {
      error_ = absl::InvalidArgumentError(
          absl::StrCat("zlib data corrupt near compressed byte ",
                       compressed_in_ - static_cast<int64_t>(zs_.avail_in), ": ",
                       zs_.msg ? zs_.msg : "inflate failed"));
    }
    if (!error_.ok()) break;
  }
  if (produced > 0) return produced;
  if (!error_.ok()) return error_;
  return size_t{0};
}

}  // namespace tw
