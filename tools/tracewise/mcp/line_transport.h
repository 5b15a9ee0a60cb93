#pragma once
// The stdio framing of MCP: newline-delimited messages. `LineReader` splits a byte stream into
// lines with a size cap (an oversized line is reported and skipped, never buffered whole);
// `LineWriter` writes whole lines atomically with respect to each other, from any thread, so
// responses and progress notifications of concurrent requests never interleave.

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

namespace tw::mcp {

class LineReader {
 public:
  enum class Status { kLine, kTooLong, kEof };

  // Reads from `fd` (not owned).
  LineReader(int fd, size_t max_line_bytes);

  // The next line without its "\n" (and without a "\r" before it). kTooLong: a line passed
  // the cap; it has been skipped up to its newline and `line` is empty. kEof: the stream ended
  // (a last line without a newline is still returned first) or a read failed.
  Status Next(std::string* line);

 private:
  bool Fill();  // reads more bytes; false at end of stream

  int fd_;
  size_t max_line_bytes_;
  std::string buffer_;
  size_t start_ = 0;  // first unconsumed byte of buffer_
  bool eof_ = false;
};

class LineWriter {
 public:
  explicit LineWriter(int fd) : fd_(fd) {}
  // Writes `line` + "\n". False once the other end has gone (EPIPE or another error); every
  // later call then returns false at once.
  bool Write(std::string_view line);

 private:
  int fd_;
  std::mutex mu_;
  bool broken_ = false;
};

}  // namespace tw::mcp
