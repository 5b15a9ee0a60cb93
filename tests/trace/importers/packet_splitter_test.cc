#include "libs/trace/importers/proto/packet_splitter.h"

#include <filesystem>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/trace/importers/proto/proto_decoder.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/reader/open_trace.h"
#include "tests/trace/reader/test_sources.h"

namespace tw::proto {
namespace {

using ::tw::testing::DribbleSource;
using ::tw::testing::FailingSource;
using ::tw::testing::OwnedMemorySource;
using ::tw::testing::TestBytes;

std::string Packet(int i, size_t payload) {
  Writer p;
  p.Varint(8, 1000 + i);  // timestamp
  p.Varint(10, 7);        // trusted_packet_sequence_id
  p.Bytes(2, TestBytes(payload, i));
  return p.Take();
}

std::string TraceOf(const std::vector<std::string>& packets) {
  Writer trace;
  for (const std::string& p : packets) trace.Bytes(1, p);
  return trace.Take();
}

struct Split {
  std::vector<std::string> packets;
  bool truncated = false;
  bool corrupt = false;
  std::string message;
  int64_t consumed = 0;
  int64_t skipped = 0;
  size_t buffer = 0;
  absl::Status status;
};

Split SplitAll(ChunkSource* src, size_t max_packet = PacketSplitter::kDefaultMaxPacketBytes) {
  PacketSplitter splitter(src, max_packet);
  Split out;
  std::string_view packet;
  for (;;) {
    absl::StatusOr<bool> more = splitter.Next(&packet);
    if (!more.ok()) {
      out.status = more.status();
      break;
    }
    if (!*more) break;
    out.packets.emplace_back(packet);
  }
  // Once finished, it stays finished.
  if (out.status.ok()) {
    EXPECT_FALSE(*splitter.Next(&packet));
  }
  EXPECT_EQ(splitter.packets(), static_cast<int64_t>(out.packets.size()));
  out.truncated = splitter.truncated();
  out.corrupt = splitter.corrupt();
  out.message = splitter.error_message();
  out.consumed = splitter.bytes_consumed();
  out.skipped = splitter.skipped_fields();
  out.buffer = splitter.buffer_bytes();
  return out;
}

Split SplitBytes(const std::string& bytes,
                 size_t max_packet = PacketSplitter::kDefaultMaxPacketBytes) {
  MemoryChunkSource src(bytes);
  return SplitAll(&src, max_packet);
}

TEST(PacketSplitter, SplitsPackets) {
  const std::vector<std::string> packets = {Packet(1, 10), Packet(2, 300), Packet(3, 0)};
  const std::string trace = TraceOf(packets);
  Split s = SplitBytes(trace);
  EXPECT_EQ(s.packets, packets);
  EXPECT_FALSE(s.truncated);
  EXPECT_FALSE(s.corrupt);
  EXPECT_TRUE(s.message.empty());
  EXPECT_EQ(s.consumed, static_cast<int64_t>(trace.size()));
  EXPECT_EQ(s.skipped, 0);
  // Every packet is a whole, decodable TracePacket.
  for (const std::string& p : s.packets) {
    Decoder d(p);
    Field f;
    int fields = 0;
    while (d.Next(&f)) ++fields;
    EXPECT_FALSE(d.error());
    EXPECT_EQ(fields, 3);
  }
}

TEST(PacketSplitter, EmptyStreamIsACleanEnd) {
  Split s = SplitBytes("");
  EXPECT_TRUE(s.packets.empty());
  EXPECT_FALSE(s.truncated);
  EXPECT_FALSE(s.corrupt);
  EXPECT_EQ(s.consumed, 0);
}

TEST(PacketSplitter, ZeroLengthPacketsAreReturned) {
  const std::vector<std::string> packets = {"", Packet(1, 5), "", ""};
  Split s = SplitBytes(TraceOf(packets));
  EXPECT_EQ(s.packets, packets);
  EXPECT_FALSE(s.truncated || s.corrupt);
}

TEST(PacketSplitter, PacketsSpanningTinyReads) {
  std::vector<std::string> packets;
  for (int i = 0; i < 300; ++i) packets.push_back(i % 17 == 0 ? "" : Packet(i, (i * 37) % 400));
  packets.push_back(Packet(999, 70000));  // needs a multi-byte length and many reads
  const std::string trace = TraceOf(packets);
  for (uint32_t seed : {1u, 2u, 3u}) {
    DribbleSource src(trace, seed);
    Split s = SplitAll(&src);
    EXPECT_EQ(s.packets, packets) << "seed " << seed;
    EXPECT_EQ(s.consumed, static_cast<int64_t>(trace.size()));
    EXPECT_FALSE(s.truncated || s.corrupt) << s.message;
  }
}

TEST(PacketSplitter, PacketsLargerThanTheReadChunk) {
  const std::vector<std::string> packets = {
      Packet(1, 100), Packet(2, 3 * PacketSplitter::kReadChunkBytes + 17), Packet(3, 100),
      Packet(4, PacketSplitter::kReadChunkBytes - 5), Packet(5, PacketSplitter::kReadChunkBytes)};
  const std::string trace = TraceOf(packets);
  Split s = SplitBytes(trace);
  EXPECT_EQ(s.packets, packets);
  EXPECT_FALSE(s.truncated || s.corrupt) << s.message;
  // Bounded by the biggest packet, with at most 2x growth slack plus a chunk.
  EXPECT_LE(s.buffer, 2 * packets[1].size() + 2 * PacketSplitter::kReadChunkBytes);
}

TEST(PacketSplitter, ManyChunksOfSmallPacketsKeepTheBufferSmall) {
  std::vector<std::string> packets;
  for (int i = 0; i < 40000; ++i) packets.push_back(Packet(i, 80));  // ~4 MB
  const std::string trace = TraceOf(packets);
  Split s = SplitBytes(trace);
  EXPECT_EQ(s.packets.size(), packets.size());
  EXPECT_EQ(s.packets, packets);
  EXPECT_LE(s.buffer, 2 * PacketSplitter::kReadChunkBytes);
}

TEST(PacketSplitter, OtherTopLevelFieldsAreSkippedAndCounted) {
  Writer w;
  w.Bytes(1, "a");
  w.Varint(2, 12345);              // varint
  w.Fixed64(3, 1);                 // fixed64
  w.Fixed32(4, 1);                 // fixed32
  w.Bytes(5, TestBytes(3 << 20));  // a big non-packet field, streamed past
  w.Varint(1, 9);                  // field 1 but not length-delimited
  w.Bytes(1, "b");
  const std::string trace = w.Take();
  for (bool dribble : {false, true}) {
    std::unique_ptr<ChunkSource> src;
    if (dribble) {
      src = std::make_unique<DribbleSource>(trace);
    } else {
      src = std::make_unique<OwnedMemorySource>(trace);
    }
    Split s = SplitAll(src.get());
    EXPECT_EQ(s.packets, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(s.skipped, 5);
    EXPECT_EQ(s.consumed, static_cast<int64_t>(trace.size()));
    EXPECT_FALSE(s.truncated || s.corrupt) << s.message;
    // The skipped 3 MiB field was never buffered whole.
    EXPECT_LE(s.buffer, 2 * PacketSplitter::kReadChunkBytes);
  }
}

TEST(PacketSplitter, TruncatedInsidePacketBody) {
  const std::vector<std::string> packets = {Packet(1, 10), Packet(2, 20), Packet(3, 500)};
  const std::string trace = TraceOf(packets);
  const std::string two = TraceOf({packets[0], packets[1]});
  const std::string cut = trace.substr(0, trace.size() - 100);
  Split s = SplitBytes(cut);
  EXPECT_EQ(s.packets, (std::vector<std::string>{packets[0], packets[1]}));
  EXPECT_TRUE(s.truncated);
  EXPECT_FALSE(s.corrupt);
  EXPECT_EQ(s.consumed, static_cast<int64_t>(two.size()));
  EXPECT_NE(s.message.find("trace ends inside field 1"), std::string::npos) << s.message;
}

TEST(PacketSplitter, TruncatedInsideAVarint) {
  const std::string ok = TraceOf({Packet(1, 10)});
  // Key of packet 2, then the first byte of a two-byte length (0xac 0x02 = 300).
  Split s = SplitBytes(ok + "\x0a\xac");
  EXPECT_EQ(s.packets.size(), 1u);
  EXPECT_TRUE(s.truncated);
  EXPECT_FALSE(s.corrupt);
  EXPECT_NE(s.message.find("header"), std::string::npos) << s.message;

  s = SplitBytes(ok + "\x80");  // the first byte of a multi-byte key
  EXPECT_EQ(s.packets.size(), 1u);
  EXPECT_TRUE(s.truncated);
}

TEST(PacketSplitter, DeclaredLengthLargerThanTheFileAllocatesOnlyWhatArrives) {
  Writer w;
  w.Bytes(1, "first");
  w.RawVarint((1 << 3) | 2);
  w.RawVarint(200u << 20);                         // 200 MiB, within the default limit...
  std::string trace = w.Take() + TestBytes(1000);  // ...but only 1000 bytes follow
  Split s = SplitBytes(trace);
  EXPECT_EQ(s.packets, (std::vector<std::string>{"first"}));
  EXPECT_TRUE(s.truncated);
  EXPECT_FALSE(s.corrupt);
  EXPECT_LE(s.buffer, 2 * PacketSplitter::kReadChunkBytes);

  DribbleSource slow(trace);
  s = SplitAll(&slow);
  EXPECT_TRUE(s.truncated);
  EXPECT_LE(s.buffer, 2 * PacketSplitter::kReadChunkBytes);
}

TEST(PacketSplitter, LengthOverTheLimitIsCorrupt) {
  const std::string trace = TraceOf({Packet(1, 100), Packet(2, 2000)});
  Split s = SplitBytes(trace, /*max_packet=*/1000);
  EXPECT_EQ(s.packets.size(), 1u);
  EXPECT_TRUE(s.corrupt);
  EXPECT_FALSE(s.truncated);
  EXPECT_NE(s.message.find("over the limit of 1000"), std::string::npos) << s.message;

  Writer w;
  w.RawVarint((1 << 3) | 2);
  w.RawVarint(~0ull);  // 2^64 - 1
  s = SplitBytes(w.Take());
  EXPECT_TRUE(s.corrupt);
  EXPECT_LE(s.buffer, 2 * PacketSplitter::kReadChunkBytes);
}

TEST(PacketSplitter, OverflowingVarintsAreCorrupt) {
  const std::string ok = TraceOf({Packet(1, 10)});
  Split s = SplitBytes(ok + std::string(11, '\xff'));  // key
  EXPECT_EQ(s.packets.size(), 1u);
  EXPECT_TRUE(s.corrupt);
  EXPECT_NE(s.message.find("malformed field key"), std::string::npos) << s.message;
  EXPECT_EQ(s.consumed, static_cast<int64_t>(ok.size()));

  s = SplitBytes(ok + "\x0a" + std::string(10, '\xff') + "\x01");  // length
  EXPECT_TRUE(s.corrupt);
  EXPECT_NE(s.message.find("malformed field length"), std::string::npos) << s.message;

  s = SplitBytes(ok + "\x10" + std::string(12, '\x80'));  // a skipped varint field's value
  EXPECT_TRUE(s.corrupt);

  // Found the same way when the bytes arrive one at a time.
  DribbleSource slow(ok + std::string(40, '\xff'));
  s = SplitAll(&slow);
  EXPECT_TRUE(s.corrupt);
}

TEST(PacketSplitter, BadKeysAreCorrupt) {
  const std::string ok = TraceOf({Packet(1, 10)});
  for (const std::string& bad : {std::string("\x02\x00", 2),  // field 0
                                 std::string("\x0b"),         // start group
                                 std::string("\x0c"),         // end group
                                 std::string("\x0e"),         // wire type 6
                                 std::string("\x0f")}) {      // wire type 7
    Split s = SplitBytes(ok + bad + ok);
    EXPECT_EQ(s.packets.size(), 1u);
    EXPECT_TRUE(s.corrupt);
    EXPECT_EQ(s.consumed, static_cast<int64_t>(ok.size()));
  }
}

TEST(PacketSplitter, GarbageNeverCrashesOrHangs) {
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int round = 0; round < 300; ++round) {
    std::string bytes = TraceOf({Packet(round, round % 50)});
    const size_t n = 1 + (round * 131) % 5000;
    for (size_t i = 0; i < n; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      bytes.push_back(static_cast<char>(x));
    }
    DribbleSource src(bytes, round);
    Split s = SplitAll(&src, 1 << 20);
    EXPECT_GE(s.packets.size(), 1u);
    EXPECT_LE(s.consumed, static_cast<int64_t>(bytes.size()));
    EXPECT_LE(s.buffer, 4u << 20);
    // It ended somehow: cleanly only if the garbage happened to parse to the very end.
    if (!s.truncated && !s.corrupt) {
      EXPECT_EQ(s.consumed, static_cast<int64_t>(bytes.size()));
    }
  }
}

TEST(PacketSplitter, IoErrorsAreReturnedAndSticky) {
  const std::string ok = TraceOf({Packet(1, 10), Packet(2, 10)});
  const std::string third = TraceOf({Packet(3, 10)});
  FailingSource src(ok + third.substr(0, 5), absl::DataLossError("disk on fire"));
  PacketSplitter splitter(&src);
  std::string_view packet;
  EXPECT_TRUE(*splitter.Next(&packet));
  EXPECT_TRUE(*splitter.Next(&packet));
  absl::StatusOr<bool> r = splitter.Next(&packet);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(splitter.Next(&packet).status().code(), absl::StatusCode::kDataLoss);
  EXPECT_FALSE(splitter.truncated() || splitter.corrupt());
}

TEST(PacketSplitter, GzipTruncationSurfacesAsStatusAfterThePackets) {
  std::vector<std::string> packets;
  for (int i = 0; i < 20000; ++i) packets.push_back(Packet(i, 30));
  const std::string trace = TraceOf(packets);
  const std::string gz = tw::testing::Gzip(trace);
  const std::string cut = gz.substr(0, gz.size() / 2);
  auto opened = OpenTraceBytes(cut);
  ASSERT_TRUE(opened.ok()) << opened.status();
  Split s = SplitAll(opened->source.get());
  EXPECT_EQ(s.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.status.message().find("gzip stream truncated"), absl::string_view::npos);
  EXPECT_GT(s.packets.size(), packets.size() / 4);
  for (size_t i = 0; i < s.packets.size(); ++i) ASSERT_EQ(s.packets[i], packets[i]);
}

// ---- real traces -----------------------------------------------------------------------------

TEST(PacketSplitter, RealPerfettoTraces) {
  const std::filesystem::path dir = std::filesystem::path(TW_SHARED_DIR) / "traces" / "perfetto";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no shared traces at " << dir;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    auto opened = OpenTraceFile(entry.path().string());
    ASSERT_TRUE(opened.ok()) << entry.path() << ": " << opened.status();
    ASSERT_EQ(opened->format, TraceFormat::kPerfettoProto) << entry.path();
    PacketSplitter splitter(opened->source.get());
    std::string_view packet;
    int64_t packets = 0, bad = 0;
    for (;;) {
      absl::StatusOr<bool> more = splitter.Next(&packet);
      ASSERT_TRUE(more.ok()) << entry.path() << ": " << more.status();
      if (!*more) break;
      ++packets;
      Decoder d(packet);
      Field f;
      while (d.Next(&f)) {
      }
      bad += d.error();
    }
    EXPECT_FALSE(splitter.truncated()) << entry.path() << ": " << splitter.error_message();
    EXPECT_FALSE(splitter.corrupt()) << entry.path() << ": " << splitter.error_message();
    EXPECT_GT(packets, 0) << entry.path();
    EXPECT_EQ(bad, 0) << entry.path();
    if (!opened->gzip) {
      EXPECT_EQ(splitter.bytes_consumed(), opened->file_bytes) << entry.path();
    }
    ++files;
  }
  EXPECT_GE(files, 5);
}

}  // namespace
}  // namespace tw::proto
