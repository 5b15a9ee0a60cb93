#include "libs/trace/importers/common/atrace_parser.h"

#include <gtest/gtest.h>

namespace tw {
namespace {

TEST(AtraceParserTest, ParsesEveryMarkerForm) {
  AtraceMarker m;
  ASSERT_EQ(ParseAtraceMarker("B|123|Choreographer#doFrame 42\n", &m), AtraceParseResult::kSuccess);
  EXPECT_EQ(m.phase, 'B');
  EXPECT_EQ(m.tgid, 123u);
  EXPECT_EQ(m.name, "Choreographer#doFrame 42");

  ASSERT_EQ(ParseAtraceMarker("E|123", &m), AtraceParseResult::kSuccess);
  ASSERT_EQ(ParseAtraceMarker("E", &m), AtraceParseResult::kSuccess);
  EXPECT_FALSE(m.has_tgid);

  ASSERT_EQ(ParseAtraceMarker("C|9|mem|-5", &m), AtraceParseResult::kSuccess);
  EXPECT_EQ(m.value, -5);
  ASSERT_EQ(ParseAtraceMarker("S|9|launch|77", &m), AtraceParseResult::kSuccess);
  EXPECT_EQ(m.value, 77);
  ASSERT_EQ(ParseAtraceMarker("G|9|track|name|3", &m), AtraceParseResult::kSuccess);
  EXPECT_EQ(m.track_name, "track");
  EXPECT_EQ(m.name, "name");
  ASSERT_EQ(ParseAtraceMarker("H|9|track|3", &m), AtraceParseResult::kSuccess);
  EXPECT_EQ(m.value, 3);
  ASSERT_EQ(ParseAtraceMarker("N|9|track|instant", &m), AtraceParseResult::kSuccess);
  ASSERT_EQ(ParseAtraceMarker("I|9|instant", &m), AtraceParseResult::kSuccess);
  ASSERT_EQ(ParseAtraceMarker("B|9|", &m), AtraceParseResult::kSuccess);
  EXPECT_EQ(m.name, "[empty slice name]");
}

TEST(AtraceParserTest, RejectsMalformedMarkers) {
  AtraceMarker m;
  EXPECT_EQ(ParseAtraceMarker("", &m), AtraceParseResult::kFailure);
  EXPECT_EQ(ParseAtraceMarker("B|abc|x", &m), AtraceParseResult::kFailure);
  EXPECT_EQ(ParseAtraceMarker("C|1|name|notanumber", &m), AtraceParseResult::kFailure);
  EXPECT_EQ(ParseAtraceMarker("S|1|name", &m), AtraceParseResult::kFailure);
  EXPECT_EQ(ParseAtraceMarker("trace_event_clock_sync: parent_ts=1", &m),
            AtraceParseResult::kUnsupported);
}

}  // namespace
}  // namespace tw
