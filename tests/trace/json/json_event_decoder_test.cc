// One trace event object to JsonEventData: field coercions as trace_processor does them.

#include "libs/trace/importers/json/json_event_decoder.h"

#include <gtest/gtest.h>

namespace tw {
namespace {

class JsonEventDecoderTest : public ::testing::Test {
 protected:
  JsonEventStatus Decode(std::string_view text) {
    decoded_ = DecodedJsonEvent();
    return DecodeJsonEvent(text, &storage_, &decoded_);
  }
  const JsonEventData& d() const { return decoded_.data; }
  std::string_view Str(StringId id) const { return storage_.Str(id); }

  TraceStorage storage_;
  DecodedJsonEvent decoded_;
};

TEST_F(JsonEventDecoderTest, CompleteEventWithThreadTime) {
  ASSERT_EQ(Decode(R"({"ph":"X","name":"n","cat":"c","ts":1.5,"dur":"2","pid":7,"tid":8,
                       "tts":3,"tdur":0.25,"args":{"k":1}})"),
            JsonEventStatus::kEvent);
  EXPECT_EQ(decoded_.ts, 1500);
  EXPECT_EQ(d().phase, 'X');
  EXPECT_EQ(Str(d().name), "n");
  EXPECT_EQ(Str(d().category), "c");
  EXPECT_EQ(d().dur, 2000);  // a number inside a string is read too
  EXPECT_EQ(d().thread_ts, 3000);
  EXPECT_EQ(d().thread_dur, 250);
  EXPECT_EQ(d().pid, 7u);
  EXPECT_EQ(d().tid, 8u);
  ASSERT_EQ(d().args.size(), 1u);
  EXPECT_EQ(Str(d().args[0].key), "args.k");
}

TEST_F(JsonEventDecoderTest, MissingTidIsThePidAndOutOfRangeIdsAreZero) {
  ASSERT_EQ(Decode(R"({"ph":"i","ts":0,"pid":12})"), JsonEventStatus::kEvent);
  EXPECT_EQ(d().tid, 12u);
  EXPECT_TRUE(d().pid_exists);
  EXPECT_FALSE(d().tid_exists);
  ASSERT_EQ(Decode(R"({"ph":"i","ts":0,"pid":-1,"tid":4294967296})"), JsonEventStatus::kEvent);
  EXPECT_EQ(d().pid, 0u);
  EXPECT_EQ(d().tid, 0u);
  ASSERT_EQ(Decode(R"({"ph":"i","ts":0,"pid":3.9,"tid":5.0})"), JsonEventStatus::kEvent);
  EXPECT_EQ(d().pid, 3u);
  EXPECT_EQ(d().tid, 5u);
}

TEST_F(JsonEventDecoderTest, StringPidAndTidNameTheirProcessAndThread) {
  ASSERT_EQ(Decode(R"({"ph":"B","ts":1,"pid":"browser","tid":"main"})"), JsonEventStatus::kEvent);
  EXPECT_EQ(Str(d().pid_name), "browser");
  EXPECT_EQ(Str(d().tid_name), "main");
  EXPECT_EQ(d().pid, d().pid_name);  // the interned string stands in for the number
  EXPECT_EQ(d().tid, d().tid_name);
}

TEST_F(JsonEventDecoderTest, FlowIdsAreHexStringsOrIntegers) {
  ASSERT_EQ(Decode(R"({"ph":"s","ts":1,"id":"0x402","cat":"c","name":"n"})"), JsonEventStatus::kEvent);
  EXPECT_EQ(d().flow_v1_id, 0x402u);
  ASSERT_EQ(Decode(R"({"ph":"f","ts":1,"id":"ff","bp":"e"})"), JsonEventStatus::kEvent);
  EXPECT_EQ(d().flow_v1_id, 0xffu);
  EXPECT_TRUE(d().bind_enclosing_slice);
  ASSERT_EQ(Decode(R"({"ph":"X","ts":1,"dur":1,"bind_id":1026,"flow_in":true,"flow_out":1})"),
            JsonEventStatus::kEvent);
  EXPECT_EQ(d().bind_id, 1026u);
  EXPECT_TRUE(d().flow_in);
  EXPECT_FALSE(d().flow_out);  // only booleans count
  ASSERT_EQ(Decode(R"({"ph":"s","ts":1,"id":"not hex"})"), JsonEventStatus::kEvent);
  EXPECT_EQ(d().flow_v1_id, std::nullopt);
}

TEST_F(JsonEventDecoderTest, AsyncIdsJoinTheCategory) {
  ASSERT_EQ(Decode(R"({"ph":"b","ts":1,"pid":1,"cat":"a","id":5})"), JsonEventStatus::kEvent);
  const std::optional<int64_t> a5 = d().async_cookie;
  ASSERT_EQ(Decode(R"({"ph":"b","ts":1,"pid":1,"cat":"b","id":5})"), JsonEventStatus::kEvent);
  const std::optional<int64_t> b5 = d().async_cookie;
  ASSERT_EQ(Decode(R"({"ph":"b","ts":1,"pid":1,"cat":"a","id2":{"global":5}})"), JsonEventStatus::kEvent);
  const std::optional<int64_t> a5_global = d().async_cookie;
  EXPECT_FALSE(d().async_process_scoped);
  ASSERT_EQ(Decode(R"({"ph":"b","ts":1,"pid":1,"cat":"a","id2":{"local":"0x5"}})"), JsonEventStatus::kEvent);
  EXPECT_TRUE(d().async_process_scoped);
  ASSERT_TRUE(a5 && b5);
  EXPECT_NE(*a5, *b5);
  EXPECT_EQ(a5, a5_global);
  ASSERT_EQ(Decode(R"({"ph":"b","ts":1,"pid":1})"), JsonEventStatus::kEvent);
  EXPECT_EQ(d().async_cookie, std::nullopt);
}

TEST_F(JsonEventDecoderTest, CountersTakeEveryNumericArg) {
  ASSERT_EQ(Decode(R"({"ph":"C","ts":1,"name":"mem","id":"7","args":{"a":1,"b":"2.5","c":"x","d":[1]}})"),
            JsonEventStatus::kEvent);
  ASSERT_EQ(d().counters.size(), 2u);
  EXPECT_EQ(Str(d().counters[0].first), "mem id: 7 a");
  EXPECT_EQ(d().counters[0].second, 1.0);
  EXPECT_EQ(Str(d().counters[1].first), "mem id: 7 b");
  EXPECT_EQ(d().counters[1].second, 2.5);
  EXPECT_EQ(decoded_.parser_failures, 2);  // "x" and [1]
}

TEST_F(JsonEventDecoderTest, MetadataNeedsNoTimestamp) {
  ASSERT_EQ(Decode(R"({"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"T"}})"),
            JsonEventStatus::kEvent);
  EXPECT_EQ(decoded_.ts, 0);
  EXPECT_EQ(Str(d().metadata_value), "T");
  ASSERT_EQ(Decode(R"({"ph":"M","name":"process_sort_index","pid":1,"args":{"sort_index":-3.7}})"),
            JsonEventStatus::kEvent);
  EXPECT_EQ(d().sort_index, -3);
}

TEST_F(JsonEventDecoderTest, WhatCannotBeAnEvent) {
  EXPECT_EQ(Decode("{}"), JsonEventStatus::kEmpty);
  EXPECT_EQ(Decode(R"({"name":"x","ts":1})"), JsonEventStatus::kFailed);   // no phase
  EXPECT_EQ(Decode(R"({"ph":"B","name":"x"})"), JsonEventStatus::kFailed);  // no ts
  EXPECT_EQ(Decode(R"({"ph":"B","ts":"soon"})"), JsonEventStatus::kFailed);
  EXPECT_EQ(Decode(R"({"ph":"X","ts":1,"dur":true})"), JsonEventStatus::kFailed);
  EXPECT_EQ(Decode(R"({"ph":"X","ts":1,)"), JsonEventStatus::kFailed);
  EXPECT_EQ(Decode("[1,2]"), JsonEventStatus::kFailed);
  EXPECT_EQ(Decode("42"), JsonEventStatus::kFailed);
  EXPECT_EQ(Decode(R"({"ph":"P","ts":1,"id":"0x1","args":{}})"), JsonEventStatus::kV8Sample);
  ASSERT_EQ(Decode(R"({"ts":1,"name":"x"})"), JsonEventStatus::kFailed);
  EXPECT_FALSE(decoded_.error.empty());
}

TEST_F(JsonEventDecoderTest, MalformedId2IsCountedButTheEventKept) {
  ASSERT_EQ(Decode(R"({"ph":"n","ts":1,"pid":1,"id2":{"local":}})"), JsonEventStatus::kEvent);
  EXPECT_EQ(decoded_.tokenizer_failures, 1);
  EXPECT_EQ(d().async_cookie, std::nullopt);
  ASSERT_EQ(Decode(R"({"ph":"i","ts":1,"pid":1,"id2":{}})"), JsonEventStatus::kEvent);
  EXPECT_EQ(decoded_.tokenizer_failures, 0);
}

}  // namespace
}  // namespace tw
