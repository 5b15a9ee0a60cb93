#pragma once
// Splits a ChunkSource into text lines with bounded memory: one read buffer plus at most one
// line. Systrace files are line-oriented but not always friendly: an HTML report can hold a
// multi-megabyte line of JavaScript or JSON, and garbage may have no newline at all. A line
// longer than the limit is not kept whole; the reader hands back its head and its tail (enough
// to find an HTML tag at either end) and marks it overlong.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/trace/reader/chunk_source.h"

namespace tw {

struct TextLine {
  // Without its '\n' (and without a '\r' before it). For an overlong line: its first bytes.
  std::string_view text;
  bool overlong = false;
  std::string_view tail;  // overlong lines only: the last bytes of the line
};

class LineReader {
 public:
  static constexpr size_t kDefaultMaxLineBytes = 1 << 20;
  static constexpr size_t kOverlongTailBytes = 256;

  // `source` is borrowed and must outlive the reader.
  explicit LineReader(ChunkSource* source, size_t max_line_bytes = kDefaultMaxLineBytes);

  // The next line; false at the end. A last line without a '\n' is still a line. Views stay
  // valid until the next call. A read error is returned once every line before it was handed
  // out; the reader then stays at the end.
  absl::StatusOr<bool> Next(TextLine* line);

  // Up to `n` of the bytes that follow the last line returned, without consuming them (fewer
  // only at the end of the stream).
  absl::StatusOr<std::string_view> Peek(size_t n);

  // Everything not yet returned as a line, as a stream: the buffered bytes, then the rest of
  // the source. Used when a compressed payload follows a text header. The reader must not be
  // used afterwards; the stream borrows the source too.
  std::unique_ptr<ChunkSource> TakeRemainder();

  // Bytes taken from the source so far, and of those the ones handed out as lines.
  int64_t bytes_read() const { return bytes_read_; }
  int64_t bytes_consumed() const {
    return bytes_read_ - static_cast<int64_t>(buf_.size() - start_);
  }

 private:
  // Appends one chunk from the source to the buffer. Returns false at the end of the stream.
  absl::StatusOr<bool> Fill();
  void Compact();

  ChunkSource* source_;
  size_t max_line_bytes_;
  std::string buf_;
  size_t start_ = 0;    // first byte not yet returned
  size_t scanned_ = 0;  // bytes after start_ already known to hold no '\n'
  bool eof_ = false;
  bool done_ = false;
  absl::Status error_;  // from the source; reported after the lines before it
  int64_t bytes_read_ = 0;
  std::string overlong_head_;
  std::string overlong_tail_;
};

}  // namespace tw
