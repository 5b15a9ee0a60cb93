// The real loader (tw::LoadTraceBytes) must hand the importer's descriptors to the
// track-event tracker and forward first_packet_on_sequence (see test_pipeline.h for the two
// hooks). Fails until trace_loader.cc / proto_importer.cc do so.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/track_event/test_packets.h"

namespace tw::testing {
namespace {

TEST(TrackEventLoaderWiring, DescriptorsReachTheTracker) {
  const std::string trace = Trace({
      Packet(1, 0).FirstOnSequence().Descriptor(NamedTrack(1, "described")),
      Packet(1, 10).Event(Event(kInstant, "e", 1)),
  });
  auto loaded = LoadTraceBytes(trace);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  auto result = (*loaded)->Query(
      "SELECT t.name, extract_arg(t.source_arg_set_id, 'has_first_packet_on_sequence') "
      "FROM slice s JOIN track t ON s.track_id = t.id");
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->rows.size(), 1u);
  EXPECT_EQ(FormatCsvValue(result->rows[0][0]), "\"described\"");
  EXPECT_EQ(FormatCsvValue(result->rows[0][1]), "1");
}

}  // namespace
}  // namespace tw::testing
