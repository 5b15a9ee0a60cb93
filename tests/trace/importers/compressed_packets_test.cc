// TracePacket.compressed_packets: a zlib-deflated Trace whose packets are imported as if they
// stood in the file; a damaged blob is counted in stats and loses nothing else.

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

#include "libs/trace/importers/proto/inflate_bytes.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

std::string Deflate(const std::string& in) {
  uLongf size = compressBound(static_cast<uLong>(in.size()));
  std::string out(size, '\0');
  EXPECT_EQ(compress(reinterpret_cast<Bytef*>(out.data()), &size,
                     reinterpret_cast<const Bytef*>(in.data()), static_cast<uLong>(in.size())),
            Z_OK);
  out.resize(size);
  return out;
}

// A packet with one instant named `name` on a track of its own (uuid 1, sequence 1).
proto::Writer InstantPacket(int64_t ts, std::string_view name, bool with_descriptor) {
  proto::Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(ts));
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, 1);
  if (with_descriptor) {
    proto::Writer track;
    track.Varint(pf::track_descriptor::kUuid, 1);
    track.String(pf::track_descriptor::kName, "track");
    packet.Message(pf::trace_packet::kTrackDescriptor, track);
    return packet;
  }
  proto::Writer event;
  event.Varint(pf::track_event::kType, pf::track_event_type::kInstant);
  event.Varint(pf::track_event::kTrackUuid, 1);
  event.String(pf::track_event::kName, name);
  packet.Message(pf::trace_packet::kTrackEvent, event);
  return packet;
}

TEST(CompressedPackets, InnerPacketsAreImported) {
  proto::Writer inner;
  inner.Message(pf::trace::kPacket, InstantPacket(20, "inside", false));
  inner.Message(pf::trace::kPacket, InstantPacket(30, "inside too", false));
  proto::Writer compressed;
  compressed.Bytes(pf::trace_packet::kCompressedPackets, Deflate(inner.Take()));
  proto::Writer trace;
  trace.Message(pf::trace::kPacket, InstantPacket(0, "", true));
  trace.Message(pf::trace::kPacket, compressed);
  trace.Message(pf::trace::kPacket, InstantPacket(40, "outside", false));
  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), "SELECT ts, name FROM slice ORDER BY ts"),
            (Table{{"20", "inside"}, {"30", "inside too"}, {"40", "outside"}}));
}

TEST(CompressedPackets, DamagedBlobIsCountedAndTheRestLoads) {
  proto::Writer compressed;
  compressed.Bytes(pf::trace_packet::kCompressedPackets, "definitely not zlib");
  proto::Writer trace;
  trace.Message(pf::trace::kPacket, InstantPacket(0, "", true));
  trace.Message(pf::trace::kPacket, compressed);
  trace.Message(pf::trace::kPacket, InstantPacket(40, "outside", false));
  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), "SELECT name FROM slice"), (Table{{"outside"}}));
  EXPECT_EQ(Rows((*t)->db(), "SELECT value FROM stats WHERE name = 'compressed_packets_unsupported'"),
            (Table{{"1"}}));
}

TEST(InflateBytes, RefusesTruncatedAndOversizedInput) {
  const std::string text(100000, 'x');
  const std::string z = Deflate(text);
  EXPECT_EQ(InflateBytes(z, Compression::kZlib), text);
  EXPECT_EQ(InflateBytes(z.substr(0, z.size() / 2), Compression::kZlib), std::nullopt);
  EXPECT_EQ(InflateBytes(z, Compression::kZlib, /*max_bytes=*/1000), std::nullopt);
  EXPECT_EQ(InflateBytes(z, Compression::kGzip), std::nullopt);  // a zlib header is not gzip
}

}  // namespace
}  // namespace tw
