#include "libs/trace/importers/systrace/line_reader.h"

#include <algorithm>
#include <cstring>

namespace tw {
namespace {

constexpr size_t kReadChunkBytes = 64 << 10;
// What is kept of the start of an overlong line: enough to recognise what it is.
constexpr size_t kOverlongHeadBytes = 4 << 10;

// Serves bytes the line reader had buffered, then continues with the (borrowed) source.
class RemainderSource : public ChunkSource {
 public:
  RemainderSource(std::string pending, ChunkSource* inner)
      : pending_(std::move(pending)), inner_(inner) {}
  absl::StatusOr<size_t> Read(uint8_t* buf, size_t capacity) override {
    if (pos_ < pending_.size()) {
      const size_t n = std::min(capacity, pending_.size() - pos_);
      std::memcpy(buf, pending_.data() + pos_, n);
      pos_ += n;
      return n;
    }
    if (!inner_) return size_t{0};
    return inner_->Read(buf, capacity);
  }

 private:
  std::string pending_;
  size_t pos_ = 0;
  ChunkSource* inner_;
};

std::string_view StripCr(std::string_view s) {
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

void AppendTail(std::string* tail, std::string_view more) {
  if (more.size() >= LineReader::kOverlongTailBytes) {
    tail->assign(more.substr(more.size() - LineReader::kOverlongTailBytes));
    return;
  }
  tail->append(more);
  if (tail->size() > LineReader::kOverlongTailBytes) {
    tail->erase(0, tail->size() - LineReader::kOverlongTailBytes);
  }
}

}  // namespace

LineReader::LineReader(ChunkSource* source, size_t max_line_bytes)
    : source_(source), max_line_bytes_(std::max<size_t>(max_line_bytes, 1)) {}

absl::StatusOr<bool> LineReader::Fill() {
  if (eof_) return false;
  const size_t old = buf_.size();
  buf_.resize(old + kReadChunkBytes);
  absl::StatusOr<size_t> n =
      source_->Read(reinterpret_cast<uint8_t*>(buf_.data() + old), kReadChunkBytes);
  if (!n.ok()) {
    buf_.resize(old);
    eof_ = true;
    return n.status();
  }
  buf_.resize(old + *n);
  bytes_read_ += static_cast<int64_t>(*n);
  if (*n == 0) eof_ = true;
  return *n > 0;
}

void LineReader::Compact() {
  if (start_ == 0) return;
  buf_.erase(0, start_);
  start_ = 0;
}

absl::StatusOr<bool> LineReader::Next(TextLine* line) {
  if (done_) return false;
  bool overlong = false;
  auto finish_overlong = [&]() {
    line->text = overlong_head_;
    line->tail = overlong_tail_;
    line->overlong = true;
  };
  for (;;) {
    const size_t avail = buf_.size() - start_;
    const char* base = buf_.data() + start_;
    const void* nl = std::memchr(base + scanned_, '\n', avail - scanned_);
    if (nl) {
      const size_t len = static_cast<size_t>(static_cast<const char*>(nl) - base);
      const std::string_view text = StripCr(std::string_view(base, len));
      start_ += len + 1;
      scanned_ = 0;
      if (!overlong && len <= max_line_bytes_) {
        *line = TextLine{text, false, {}};
        return true;
      }
      if (!overlong) {
        overlong_head_.assign(text.substr(0, kOverlongHeadBytes));
        overlong_tail_.clear();
      }
      AppendTail(&overlong_tail_, text);
      finish_overlong();
      return true;
    }
    scanned_ = avail;
    if (overlong || avail > max_line_bytes_) {
      // Too long to keep: remember its ends and drop the middle as it streams past.
      const std::string_view part(base, avail);
      if (!overlong) {
        overlong = true;
        overlong_head_.assign(part.substr(0, kOverlongHeadBytes));
        overlong_tail_.clear();
      }
      AppendTail(&overlong_tail_, part);
      start_ = buf_.size();
      scanned_ = 0;
    }
    if (eof_) {
      done_ = true;
      if (!error_.ok()) return error_;  // a cut-off last line is not a line
      if (overlong) {
        finish_overlong();
        return true;
      }
      if (buf_.size() == start_) return false;
      line->text = StripCr(std::string_view(buf_.data() + start_, buf_.size() - start_));
      line->overlong = false;
      line->tail = {};
      start_ = buf_.size();
      return true;
    }
    Compact();
    absl::StatusOr<bool> filled = Fill();
    if (!filled.ok()) error_ = filled.status();
  }
}

absl::StatusOr<std::string_view> LineReader::Peek(size_t n) {
  while (buf_.size() - start_ < n && !eof_) {
    Compact();
    absl::StatusOr<bool> filled = Fill();
    if (!filled.ok()) {
      error_ = filled.status();
      return error_;
    }
  }
  const size_t avail = buf_.size() - start_;
  return std::string_view(buf_.data() + start_, std::min(n, avail));
}

std::unique_ptr<ChunkSource> LineReader::TakeRemainder() {
  std::string pending = buf_.substr(start_);
  buf_.clear();
  start_ = scanned_ = 0;
  done_ = true;
  return std::make_unique<RemainderSource>(std::move(pending), eof_ ? nullptr : source_);
}

}  // namespace tw
