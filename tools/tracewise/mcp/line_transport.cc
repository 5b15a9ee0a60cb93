#include "tools/tracewise/mcp/line_transport.h"

#include <errno.h>
#include <unistd.h>

namespace tw::mcp {
namespace {
constexpr size_t kReadChunk = 64 * 1024;
}

LineReader::LineReader(int fd, size_t max_line_bytes) : fd_(fd), max_line_bytes_(max_line_bytes) {}

bool LineReader::Fill() {
  if (eof_) return false;
  // Drop what has been consumed before growing the buffer.
  if (start_ > 0) {
    buffer_.erase(0, start_);
    start_ = 0;
  }
  char chunk[kReadChunk];
  for (;;) {
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    eof_ = true;
    return false;
  }
}

LineReader::Status LineReader::Next(std::string* line) {
  line->clear();
  bool skipping = false;  // inside a line that passed the cap; its bytes are dropped
  size_t checked = 0;     // bytes after start_ known to hold no newline
  for (;;) {
    const size_t newline = buffer_.find('\n', start_ + checked);
    if (newline != std::string::npos) {
      const size_t begin = start_;
      start_ = newline + 1;
      if (skipping) return Status::kTooLong;
      size_t end = newline;
      if (end > begin && buffer_[end - 1] == '\r') --end;
      if (end - begin > max_line_bytes_) return Status::kTooLong;
      line->assign(buffer_, begin, end - begin);
      return Status::kLine;
    }
    checked = buffer_.size() - start_;
    if (checked > max_line_bytes_) {
      skipping = true;
      buffer_.clear();
      start_ = 0;
      checked = 0;
    }
    if (!Fill()) {  // Fill() moves the unconsumed bytes to the front: `checked` stays valid
      if (skipping) return Status::kTooLong;
      if (buffer_.size() > start_) {
        line->assign(buffer_, start_, buffer_.size() - start_);
        if (!line->empty() && line->back() == '\r') line->pop_back();
        start_ = buffer_.size();
        return Status::kLine;
      }
      return Status::kEof;
    }
  }
}

bool LineWriter::Write(std::string_view line) {
  std::lock_guard<std::mutex> lock(mu_);
  if (broken_) return false;
  std::string data;
  data.reserve(line.size() + 1);
  data.append(line);
  data.push_back('\n');
  size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd_, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      broken_ = true;
      return false;
    }
    written += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace tw::mcp
