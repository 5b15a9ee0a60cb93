#pragma once
// Splits a Perfetto `Trace` (a protobuf message that is just `repeated TracePacket packet = 1`)
// into its packets while streaming it from a ChunkSource, so a multi-gigabyte trace is never
// held, or parsed, as one message. Each packet is handed out as a view into a sliding buffer;
// a packet that straddles two reads is assembled contiguously there.
//
// Memory is bounded by the largest packet (capped by max_packet_bytes) plus one read chunk, and
// the buffer grows only as bytes actually arrive: a corrupt length of 200 MiB in a 1 KiB file
// costs 1 KiB, not 200 MiB.
//
// Damage is data, not an error: a malformed key or length, or a length over the cap, ends the
// split (Next() returns false) with corrupt() set; a stream that ends inside a field ends it
// with truncated() set. Both leave error_message() saying what and where. Only I/O errors from
// the source are returned as a Status.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/trace/reader/chunk_source.h"

namespace tw::proto {

class PacketSplitter {
 public:
  static constexpr size_t kDefaultMaxPacketBytes = 256 << 20;
  static constexpr size_t kReadChunkBytes = 1 << 20;

  // `src` is not owned and must outlive the splitter.
  explicit PacketSplitter(ChunkSource* src, size_t max_packet_bytes = kDefaultMaxPacketBytes);
  PacketSplitter(const PacketSplitter&) = delete;
  PacketSplitter& operator=(const PacketSplitter&) = delete;

  // Returns true with *packet set to the next TracePacket's bytes (valid until the next call;
  // possibly empty), false at the end (clean, truncated or corrupt), or the source's I/O error
  // (which is then returned by every later call).
  absl::StatusOr<bool> Next(std::string_view* packet);

  // Stream bytes fully accounted for: returned packets and skipped fields, with their headers.
  int64_t bytes_consumed() const { return consumed_; }
  int64_t packets() const { return packets_; }
  // Top-level fields other than `packet = 1` (or field 1 with a non-length wire type), skipped.
  int64_t skipped_fields() const { return skipped_fields_; }
  bool truncated() const { return truncated_; }  // the stream ended mid-field
  bool corrupt() const { return corrupt_; }      // a malformed field stopped the split
  const std::string& error_message() const { return error_message_; }
  // Bytes currently allocated for the sliding buffer (for memory accounting and tests).
  size_t buffer_bytes() const { return capacity_; }

 private:
  enum class Parse { kPacket, kSkipped, kNeedMore, kStop };
  // Parses one top-level field at the front of the buffer.
  Parse ParseField(std::string_view* packet);
  // Reads more bytes into the buffer (one source Read). Sets eof_ at the end of the stream.
  absl::Status Fill();
  Parse Stop(bool corrupt, std::string message);

  ChunkSource* src_;
  const size_t max_packet_bytes_;

  std::unique_ptr<uint8_t[]> buf_;
  size_t capacity_ = 0;
  size_t begin_ = 0;             // first unconsumed byte
  size_t end_ = 0;               // one past the last byte read
  uint64_t skip_remaining_ = 0;  // of a skipped length-delimited field, discarded as it arrives

  bool eof_ = false;
  bool done_ = false;
  absl::Status io_error_;
  int64_t consumed_ = 0;
  int64_t packets_ = 0;
  int64_t skipped_fields_ = 0;
  bool truncated_ = false;
  bool corrupt_ = false;
  std::string error_message_;
};

}  // namespace tw::proto
