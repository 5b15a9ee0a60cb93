#include "libs/llm/sse_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tw::llm {
namespace {

struct Collected {
  std::vector<SseEvent> events;
  SseParser parser{[this](const SseEvent& e) {
    events.push_back(e);
    return true;
  }};
};

// A stream with everything the parser must handle: comments, named events, multi-line data,
// ids, CRLF and lone CR line ends, an empty data line, a field without a colon.
const std::string kStream =
    ": keep-alive comment\r\n"
    "event: message_start\r\n"
    "data: {\"a\":1}\r\n"
    "\r\n"
    "data: line one\n"
    "data: line two\n"
    "id: 7\n"
    "\n"
    "event: ping\r"
    "data:no-space\r"
    "\r"
    "data\n"
    "\n"
    "data: [DONE]\n\n";

void ExpectKStreamEvents(const std::vector<SseEvent>& events) {
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].event, "message_start");
  EXPECT_EQ(events[0].data, "{\"a\":1}");
  EXPECT_EQ(events[1].event, "");
  EXPECT_EQ(events[1].data, "line one\nline two");
  EXPECT_EQ(events[1].id, "7");
  EXPECT_EQ(events[2].event, "ping");
  EXPECT_EQ(events[2].data, "no-space");
  // "data" without a colon is a data field with an empty value.
  EXPECT_EQ(events[3].data, "");
}

TEST(SseParserTest, ParsesAWholeStream) {
  Collected c;
  ASSERT_TRUE(c.parser.Feed(kStream.substr(0, kStream.size() - 14)));
  ExpectKStreamEvents(c.events);
  EXPECT_FALSE(c.parser.HasPartialEvent());
  ASSERT_TRUE(c.parser.Feed(kStream.substr(kStream.size() - 14)));
  ASSERT_EQ(c.events.size(), 5u);
  EXPECT_EQ(c.events[4].data, "[DONE]");
}

TEST(SseParserTest, EverySingleSplitPointGivesTheSameEvents) {
  for (size_t split = 0; split <= kStream.size(); ++split) {
    Collected c;
    c.parser.Feed(kStream.substr(0, split));
    c.parser.Feed(kStream.substr(split));
    SCOPED_TRACE("split at " + std::to_string(split));
    ASSERT_EQ(c.events.size(), 5u);
    ExpectKStreamEvents({c.events.begin(), c.events.begin() + 4});
    EXPECT_EQ(c.events[4].data, "[DONE]");
    EXPECT_FALSE(c.parser.HasPartialEvent());
  }
}

TEST(SseParserTest, EveryPairOfSplitPointsGivesTheSameEvents) {
  for (size_t a = 0; a <= kStream.size(); ++a) {
    for (size_t b = a; b <= kStream.size(); ++b) {
      Collected c;
      c.parser.Feed(kStream.substr(0, a));
      c.parser.Feed(kStream.substr(a, b - a));
      c.parser.Feed(kStream.substr(b));
      ASSERT_EQ(c.events.size(), 5u) << "splits " << a << "," << b;
      EXPECT_EQ(c.events[1].data, "line one\nline two") << "splits " << a << "," << b;
      EXPECT_EQ(c.events[2].data, "no-space") << "splits " << a << "," << b;
    }
  }
}

TEST(SseParserTest, ByteAtATime) {
  Collected c;
  for (char ch : kStream) c.parser.Feed(std::string(1, ch));
  ASSERT_EQ(c.events.size(), 5u);
  ExpectKStreamEvents({c.events.begin(), c.events.begin() + 4});
}

TEST(SseParserTest, StreamEndingEarlyLeavesAPartialEvent) {
  Collected c;
  c.parser.Feed("data: {\"complete\":true}\n\ndata: {\"cut off");
  ASSERT_EQ(c.events.size(), 1u);
  EXPECT_TRUE(c.parser.HasPartialEvent());

  Collected d;  // a full line but no blank line to dispatch it
  d.parser.Feed("event: content_block_delta\ndata: {}\n");
  EXPECT_TRUE(d.events.empty());
  EXPECT_TRUE(d.parser.HasPartialEvent());

  Collected e;  // only comments: nothing pending
  e.parser.Feed(": ping\n\n: ping\n");
  EXPECT_TRUE(e.events.empty());
  EXPECT_FALSE(e.parser.HasPartialEvent());
}

TEST(SseParserTest, EventWithoutDataIsNotDispatched) {
  Collected c;
  c.parser.Feed("event: lonely\n\ndata: x\n\n");
  ASSERT_EQ(c.events.size(), 1u);
  EXPECT_EQ(c.events[0].event, "");  // the name does not leak into the next event
  EXPECT_EQ(c.events[0].data, "x");
}

TEST(SseParserTest, HandlerCanStopParsing) {
  int seen = 0;
  SseParser parser([&](const SseEvent&) { return ++seen < 2; });
  EXPECT_FALSE(parser.Feed("data: 1\n\ndata: 2\n\ndata: 3\n\n"));
  EXPECT_EQ(seen, 2);
  EXPECT_FALSE(parser.Feed("data: 4\n\n"));
  EXPECT_EQ(seen, 2);
}

TEST(SseParserTest, LargeDataAcrossManyPieces) {
  std::string payload(100'000, 'x');
  std::string stream = "data: " + payload + "\n\n";
  Collected c;
  for (size_t i = 0; i < stream.size(); i += 1000) c.parser.Feed(stream.substr(i, 1000));
  ASSERT_EQ(c.events.size(), 1u);
  EXPECT_EQ(c.events[0].data, payload);
}

}  // namespace
}  // namespace tw::llm
