#include "libs/trace/importers/proto/packet_splitter.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "libs/trace/importers/proto/proto_decoder.h"

namespace tw::proto {
namespace {

constexpr size_t kMaxVarintBytes = 10;
// Grow the buffer when less than this is free after compaction, so a large packet is read in
// big steps instead of a trickle of small reads.
constexpr size_t kMinFreeBytes = 64 << 10;

}  // namespace

PacketSplitter::PacketSplitter(ChunkSource* src, size_t max_packet_bytes)
    : src_(src), max_packet_bytes_(max_packet_bytes) {}

absl::Status PacketSplitter::Fill() {
  // Slide the unconsumed tail to the front. Done only when more bytes are needed, so each byte
  // moves at most once per fill and returned packets stay valid until the next Next().
  if (begin_ > 0) {
    std::memmove(buf_.get(), buf_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (capacity_ - end_ < kMinFreeBytes) {
    // At most double what is already held (plus a chunk): growth follows the bytes that have
    // actually arrived, never a length the stream merely declares.
    const size_t new_capacity = std::max(capacity_ * 2, end_ + kReadChunkBytes);
    std::unique_ptr<uint8_t[]> bigger(new uint8_t[new_capacity]);
    if (end_ > 0) std::memcpy(bigger.get(), buf_.get(), end_);
    buf_ = std::move(bigger);
    capacity_ = new_capacity;
  }
  absl::StatusOr<size_t> n =
      src_->Read(buf_.get() + end_, std::min(capacity_ - end_, kReadChunkBytes));
  if (!n.ok()) return n.status();
  if (*n == 0) eof_ = true;
  end_ += *n;
  return absl::OkStatus();
}

PacketSplitter::Parse PacketSplitter::Stop(bool corrupt, std::string message) {
  done_ = true;
  (corrupt ? corrupt_ : truncated_) = true;
  error_message_ = std::move(message);
  return Parse::kStop;
}

PacketSplitter::Parse PacketSplitter::ParseField(std::string_view* packet) {
  const uint8_t* const start = buf_.get() + begin_;
  const uint8_t* const end = buf_.get() + end_;
  const uint8_t* p = start;

  if (p == end) {
    if (!eof_) return Parse::kNeedMore;
    done_ = true;  // clean end: the stream stopped between fields
    return Parse::kStop;
  }
  // A varint that fails to parse with 10 bytes in view is malformed; with fewer, the rest may
  // still be on its way (or the stream was cut).
  auto need_more_or_stop = [&](const uint8_t* at, std::string_view what) -> Parse {
    if (static_cast<size_t>(end - at) >= kMaxVarintBytes) {
      return Stop(true, absl::StrCat("malformed ", std::string(what), " at byte ",
                                     consumed_ + (at - start), " (varint longer than 10 bytes)"));
    }
    if (!eof_) return Parse::kNeedMore;
    return Stop(false, absl::StrCat("trace ends inside a field header at byte ", consumed_, " (",
                                    end - start, " bytes left)"));
  };

  uint64_t key;
  if (!ReadVarint(&p, end, &key)) return need_more_or_stop(start, "field key");
  const uint64_t id = key >> 3;
  const uint32_t type = static_cast<uint32_t>(key & 7);
  if (id == 0 || id > 0x1fffffff) {
    return Stop(true, absl::StrCat("invalid field number ", id, " at byte ", consumed_));
  }

  size_t body = 0;  // bytes after the header that belong to this field (if buffered)
  uint64_t len = 0;
  switch (type) {
    case kVarint: {
      const uint8_t* v_start = p;
      uint64_t v;
      if (!ReadVarint(&p, end, &v)) return need_more_or_stop(v_start, "varint field");
      break;
    }
    case kFixed64:
      body = 8;
      break;
    case kFixed32:
      body = 4;
      break;
    case kLengthDelimited: {
      const uint8_t* len_start = p;
      if (!ReadVarint(&p, end, &len)) return need_more_or_stop(len_start, "field length");
      if (len > max_packet_bytes_) {
        return Stop(true, absl::StrCat("field ", id, " at byte ", consumed_, " declares ", len,
                                       " bytes, over the limit of ", max_packet_bytes_));
      }
      if (id == 1) body = static_cast<size_t>(len);
      break;
    }
    default:
      // Groups (3, 4) are deprecated and never used by Perfetto; 6 and 7 do not exist.
      return Stop(true, absl::StrCat("unsupported wire type ", type, " for field ", id, " at byte ",
                                     consumed_));
  }

  const size_t header = static_cast<size_t>(p - start);
  if (body > static_cast<size_t>(end - p)) {
    if (!eof_) return Parse::kNeedMore;
    return Stop(false,
                absl::StrCat("trace ends inside field ", id, " at byte ", consumed_, ": it needs ",
                             header + body, " bytes, ", end - start, " remain"));
  }

  begin_ += header + body;
  consumed_ += static_cast<int64_t>(header + body);
  if (type == kLengthDelimited && id == 1) {
    *packet = std::string_view(reinterpret_cast<const char*>(p), body);
    ++packets_;
    return Parse::kPacket;
  }
  // Anything else at top level is not a packet. A length-delimited payload is not buffered: it
  // is discarded as it streams past.
  if (type == kLengthDelimited) skip_remaining_ = len;
  ++skipped_fields_;
  return Parse::kSkipped;
}

absl::StatusOr<bool> PacketSplitter::Next(std::string_view* packet) {
  if (!io_error_.ok()) return io_error_;
  for (;;) {
    if (skip_remaining_ > 0) {
      const uint64_t n = std::min<uint64_t>(skip_remaining_, end_ - begin_);
      begin_ += static_cast<size_t>(n);
      consumed_ += static_cast<int64_t>(n);
      skip_remaining_ -= n;
      if (skip_remaining_ > 0) {
        if (eof_) {
          skip_remaining_ = 0;
          Stop(false, absl::StrCat("trace ends inside a skipped field at byte ", consumed_));
          return false;
        }
        if (absl::Status s = Fill(); !s.ok()) return io_error_ = s;
        continue;
      }
    }
    if (done_) return false;
    switch (ParseField(packet)) {
      case Parse::kPacket:
        return true;
      case Parse::kSkipped:
        continue;
      case Parse::kStop:
        return false;
      case Parse::kNeedMore:
        if (absl::Status s = Fill(); !s.ok()) return io_error_ = s;
        continue;
    }
  }
}

}  // namespace tw::proto
