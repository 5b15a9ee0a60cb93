// libFuzzer target for the untrusted-bytes path of Perfetto import: format detection, gzip
// unwrapping and packet splitting, then a full field walk of every packet (and one level of
// nested messages) with the zero-copy decoder. Reads go through a source that hands out a few
// bytes at a time, so chunk-boundary handling is exercised on every input.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include "libs/trace/importers/proto/packet_splitter.h"
#include "libs/trace/importers/proto/proto_decoder.h"
#include "libs/trace/reader/open_trace.h"

namespace {

// Forwards reads in slices of 1..16 bytes, sized by a byte taken from the input itself.
class SlicingSource : public tw::ChunkSource {
 public:
  SlicingSource(std::unique_ptr<tw::ChunkSource> inner, uint8_t pattern)
      : inner_(std::move(inner)), pattern_(pattern) {}
  absl::StatusOr<size_t> Read(uint8_t* buf, size_t capacity) override {
    pattern_ = static_cast<uint8_t>(pattern_ * 33 + 7);
    const size_t slice = (pattern_ & 1) ? capacity : 1 + (pattern_ >> 4);
    return inner_->Read(buf, capacity < slice ? capacity : slice);
  }

 private:
  std::unique_ptr<tw::ChunkSource> inner_;
  uint8_t pattern_;
};

// Walks the fields of a message; recurses into length-delimited fields that parse as messages,
// to a small depth, the way importers descend into nested protos.
void Walk(const uint8_t* data, size_t size, int depth) {
  tw::proto::Decoder d(data, size);
  tw::proto::Field f;
  while (d.Next(&f)) {
    if (f.type == tw::proto::kLengthDelimited) {
      // Touch the payload so ASan checks every byte the decoder claims is in bounds.
      volatile uint8_t sink = 0;
      for (size_t i = 0; i < f.size; ++i) sink = sink ^ f.data[i];
      (void)sink;
      if (depth < 3) Walk(f.data, f.size, depth + 1);
    } else {
      (void)f.as_int64();
      (void)f.as_double();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<tw::OpenedTrace> opened = tw::OpenTraceBytes(bytes);
  if (!opened.ok()) return 0;
  const uint8_t pattern = size > 0 ? data[size - 1] : 0;
  SlicingSource src(std::move(opened->source), pattern);
  // A small cap keeps each run fast; limits are the same code path at any size.
  tw::proto::PacketSplitter splitter(&src, /*max_packet_bytes=*/4 << 20);
  std::string_view packet;
  for (;;) {
    absl::StatusOr<bool> more = splitter.Next(&packet);
    if (!more.ok() || !*more) break;
    Walk(reinterpret_cast<const uint8_t*>(packet.data()), packet.size(), 0);
  }
  // Invariants that must hold however the split ended.
  if (splitter.bytes_consumed() < 0) __builtin_trap();
  if (splitter.buffer_bytes() > (16u << 20)) __builtin_trap();
  return 0;
}
