// Chrome JSON traces loaded end to end (format detection, importer, sorter, tracker): one test
// per concept of the trace-event format, checked through the tables trace_processor would fill.

#include <gtest/gtest.h>

#include <string>

#include "tests/trace/json/json_test_util.h"

namespace tw {
namespace {

using json_test::Int;
using json_test::Load;
using json_test::Rows;
using json_test::Stat;

TEST(JsonImporterTest, BeginEndAndCompleteEventsNestPerThread) {
  auto t = Load(R"({"traceEvents":[
    {"ph":"B","name":"outer","cat":"c","ts":10,"pid":1,"tid":2,"tts":100},
    {"ph":"X","name":"inner","ts":11,"dur":2.5,"pid":1,"tid":2,"tts":101,"tdur":1},
    {"ph":"E","ts":20,"pid":1,"tid":2,"tts":105},
    {"ph":"B","name":"other thread","ts":12,"pid":1,"tid":3},
    {"ph":"B","ts":30,"pid":1,"tid":2}
  ]})");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT s.ts, s.dur, s.name, s.category, s.depth, s.thread_ts, s.thread_dur, "
                     "th.tid FROM slice s JOIN thread_track tt ON s.track_id = tt.id "
                     "JOIN thread th USING (utid) ORDER BY s.ts"),
            "10000,10000,outer,c,0,100000,5000,2\n"
            "11000,2500,inner,[NULL],1,101000,1000,2\n"
            "12000,-1,other thread,[NULL],0,[NULL],[NULL],3\n"
            "30000,-1,[No name],[NULL],0,[NULL],[NULL],2\n");
  // Every thread belongs to its pid's process (whose main thread, tid == pid, exists too).
  EXPECT_EQ(Rows(*t, "SELECT tid, p.pid FROM thread JOIN process p USING (upid) WHERE tid != 0 "
                     "ORDER BY tid"),
            "1,1\n2,1\n3,1\n");
}

TEST(JsonImporterTest, FractionalMicrosecondsBecomeExactNanoseconds) {
  auto t = Load(R"([{"ph":"X","name":"a","ts":1597071955492308.123,"dur":0.001,"pid":1,"tid":1}])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT ts, dur FROM slice"), "1597071955492308123,1\n");
}

TEST(JsonImporterTest, DisplayTimeUnitNeverRescales) {
  auto t = Load(R"({"displayTimeUnit":"ns","traceEvents":[
    {"ph":"X","name":"a","ts":5,"dur":2,"pid":1,"tid":1}]})");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT ts, dur FROM slice"), "5000,2000\n");
  EXPECT_EQ(Stat(*t, "json_display_time_unit"), 1);
}

TEST(JsonImporterTest, ArgsAreFlattenedUnderArgs) {
  auto t = Load(R"([{"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1,
                     "args":{"url":"x","n":3,"nested":{"list":[1.5,true]}}}])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT key, flat_key, display_value FROM args JOIN slice USING (arg_set_id) "
                     "ORDER BY key"),
            "args.n,args.n,3\n"
            "args.nested.list[0],args.nested.list,1.5\n"
            "args.nested.list[1],args.nested.list,true\n"
            "args.url,args.url,x\n");
}

TEST(JsonImporterTest, InstantsGoToTheTrackOfTheirScope) {
  auto t = Load(R"([
    {"ph":"i","name":"thread","ts":1,"pid":1,"tid":2,"s":"t"},
    {"ph":"I","name":"default","ts":2,"pid":1,"tid":2},
    {"ph":"i","name":"process","ts":3,"pid":1,"tid":2,"s":"p"},
    {"ph":"i","name":"global","ts":4,"pid":1,"tid":2,"s":"g"},
    {"ph":"i","name":"no tid","ts":5,"pid":1}
  ])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT s.name, s.dur, (SELECT COUNT(*) FROM thread_track tt WHERE tt.id = "
                     "s.track_id), (SELECT COUNT(*) FROM process_track pt WHERE pt.id = "
                     "s.track_id) FROM slice s ORDER BY s.ts"),
            "thread,0,1,0\n"
            "default,0,1,0\n"
            "process,0,0,1\n"
            "global,0,0,0\n");
  // A thread-scoped instant needs a thread.
  EXPECT_EQ(Stat(*t, "json_parser_failure"), 1);
}

TEST(JsonImporterTest, CountersArePerProcessAndPerField) {
  auto t = Load(R"([
    {"ph":"C","name":"mem","ts":0,"pid":5,"tid":6,"args":{"heap":10,"stack":"2.5"}},
    {"ph":"C","name":"mem","ts":1,"pid":5,"tid":6,"args":{"heap":11}},
    {"ph":"C","name":"q","id":"3","ts":2,"pid":5,"args":{"len":7}},
    {"ph":"C","name":"empty","ts":3,"pid":5}
  ])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT t.name, p.pid, c.ts, c.value FROM counter c "
                     "JOIN process_counter_track t ON c.track_id = t.id "
                     "JOIN process p USING (upid) ORDER BY t.name, c.ts"),
            "mem heap,5,0,10.000000\n"
            "mem heap,5,1000,11.000000\n"
            "mem stack,5,0,2.500000\n"
            "q id: 3 len,5,2000,7.000000\n");
  EXPECT_EQ(Stat(*t, "json_parser_failure"), 1);  // the counter without args
}

TEST(JsonImporterTest, MetadataEventsNameProcessesAndThreads) {
  auto t = Load(R"([
    {"ph":"M","name":"process_name","pid":1,"args":{"name":"Browser"}},
    {"ph":"M","name":"thread_name","pid":1,"tid":7,"args":{"name":"CrBrowserMain"}},
    {"ph":"M","name":"thread_sort_index","pid":1,"tid":7,"args":{"sort_index":-1}},
    {"ph":"M","name":"process_labels","pid":1,"args":{"labels":"x"}},
    {"ph":"X","name":"work","ts":5,"dur":1,"pid":1,"tid":7}
  ])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT p.pid, p.name, th.tid, th.name FROM thread th "
                     "JOIN process p USING (upid) WHERE th.tid != 0 ORDER BY th.tid"),
            "1,Browser,1,[NULL]\n1,Browser,7,CrBrowserMain\n");
}

TEST(JsonImporterTest, SortIndexesBecomeHintArgs) {
  auto t = Load(R"([
    {"ph":"M","name":"process_sort_index","pid":1,"args":{"sort_index":-5}},
    {"ph":"M","name":"thread_sort_index","pid":1,"tid":7,"args":{"sort_index":2.9}},
    {"ph":"M","name":"thread_sort_index","pid":1,"tid":8,"args":{"sort_index":"x"}},
    {"ph":"X","name":"work","ts":5,"dur":1,"pid":1,"tid":7}
  ])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT pid, EXTRACT_ARG(arg_set_id, 'process_sort_index_hint') FROM process "
                     "WHERE pid = 1"),
            "1,-5\n");
  EXPECT_EQ(Rows(*t, "SELECT tid, EXTRACT_ARG(arg_set_id, 'thread_sort_index_hint') FROM thread "
                     "WHERE tid IN (7, 8) ORDER BY tid"),
            "7,2\n8,[NULL]\n");
  EXPECT_EQ(Stat(*t, "json_parser_failure"), 1);  // the string sort index
}

TEST(JsonImporterTest, StringPidsAndTidsNameWhatTheyIdentify) {
  auto t = Load(R"([{"ph":"X","name":"w","ts":1,"dur":1,"pid":"renderer","tid":"compositor"}])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT p.name, th.name FROM slice JOIN thread_track tt ON "
                     "slice.track_id = tt.id JOIN thread th USING (utid) JOIN process p USING "
                     "(upid)"),
            "renderer,compositor\n");
}

TEST(JsonImporterTest, NestableAsyncSlicesShareATrackPerIdAndCategory) {
  auto t = Load(R"([
    {"ph":"b","name":"load","cat":"net","id":"0x1","ts":1,"pid":1,"tid":1,"args":{"u":"a"}},
    {"ph":"n","name":"mark","cat":"net","id":"0x1","ts":2,"pid":1,"tid":1},
    {"ph":"b","name":"parse","cat":"net","id":"0x1","ts":3,"pid":1,"tid":1},
    {"ph":"e","name":"parse","cat":"net","id":"0x1","ts":4,"pid":1,"tid":1},
    {"ph":"e","name":"load","cat":"net","id":"0x1","ts":6,"pid":1,"tid":1},
    {"ph":"b","name":"load","cat":"other","id":"0x1","ts":2,"pid":1,"tid":1},
    {"ph":"e","name":"load","cat":"other","id":"0x1","ts":5,"pid":1,"tid":1},
    {"ph":"b","name":"noid","ts":2,"pid":1,"tid":1}
  ])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT name, ts, dur, depth FROM slice ORDER BY category, ts"),
            "load,1000,5000,0\n"
            "mark,2000,0,1\n"
            "parse,3000,1000,1\n"
            "load,2000,3000,0\n");
  EXPECT_EQ(Int(*t, "SELECT COUNT(DISTINCT track_id) FROM slice"), 2);
  // "id" is a global id (trace_processor's legacy global async tracks), not a thread's.
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM thread_track WHERE id IN (SELECT track_id FROM slice)"),
            0);
  EXPECT_EQ(Stat(*t, "json_parser_failure"), 1);  // 'b' without an id
}

TEST(JsonImporterTest, FlowV1BindsToEnclosingOrNextSlice) {
  auto t = Load(R"([
    {"ph":"X","name":"send","cat":"ipc","ts":10,"dur":10,"pid":1,"tid":1},
    {"ph":"s","name":"msg","cat":"ipc","id":7,"ts":11,"pid":1,"tid":1},
    {"ph":"X","name":"relay","cat":"ipc","ts":30,"dur":10,"pid":2,"tid":2},
    {"ph":"t","name":"msg","cat":"ipc","id":7,"ts":31,"pid":2,"tid":2},
    {"ph":"X","name":"recv","cat":"ipc","ts":50,"dur":10,"pid":3,"tid":3},
    {"ph":"f","name":"msg","cat":"ipc","id":7,"ts":52,"pid":3,"tid":3,"bp":"e"},
    {"ph":"s","name":"msg","cat":"ipc","id":"0x8","ts":12,"pid":1,"tid":1},
    {"ph":"f","name":"msg","cat":"ipc","id":"0x8","ts":60,"pid":4,"tid":4},
    {"ph":"X","name":"next","cat":"ipc","ts":61,"dur":1,"pid":4,"tid":4},
    {"ph":"s","name":"msg","cat":"ipc","id":"zz","ts":13,"pid":1,"tid":1}
  ])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT o.name, i.name FROM flow f JOIN slice o ON f.slice_out = o.id "
                     "JOIN slice i ON f.slice_in = i.id ORDER BY o.ts, i.ts"),
            "send,relay\nsend,next\nrelay,recv\n");
  EXPECT_EQ(Stat(*t, "flow_invalid_id"), 1);
}

TEST(JsonImporterTest, FlowV2UsesBindIdAndDirections) {
  auto t = Load(R"([
    {"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1,"bind_id":"0x1","flow_out":true},
    {"ph":"B","name":"b","ts":5,"pid":2,"tid":2,"bind_id":"0x1","flow_in":true,"flow_out":true},
    {"ph":"E","ts":6,"pid":2,"tid":2},
    {"ph":"X","name":"c","ts":9,"dur":1,"pid":3,"tid":3,"bind_id":1,"flow_in":true},
    {"ph":"X","name":"d","ts":9,"dur":1,"pid":4,"tid":4,"bind_id":9}
  ])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT o.name, i.name FROM flow f JOIN slice o ON f.slice_out = o.id "
                     "JOIN slice i ON f.slice_in = i.id ORDER BY o.ts"),
            "a,b\nb,c\n");
  EXPECT_EQ(Stat(*t, "flow_without_direction"), 1);
}

TEST(JsonImporterTest, SameTimestampEndsComeFirstOnceCompleteEventsAppear) {
  // trace_processor's sorter orders a timestamp's events by phase once an 'X' was seen: 'E'
  // first, then 'X' longest first, then the rest in file order.
  auto t = Load(R"([
    {"ph":"X","name":"long","ts":10,"dur":1,"pid":1,"tid":1},
    {"ph":"B","name":"a","ts":20,"pid":1,"tid":1},
    {"ph":"B","name":"b","ts":30,"pid":1,"tid":1},
    {"ph":"E","ts":30,"pid":1,"tid":1},
    {"ph":"X","name":"short","ts":40,"dur":1,"pid":1,"tid":1},
    {"ph":"X","name":"longer","ts":40,"dur":5,"pid":1,"tid":1}
  ])");
  ASSERT_TRUE(t);
  // At 30 the E is applied first (closing "a"), so "b" starts at depth 0; at 40 the longer
  // complete event goes first and contains the shorter one.
  EXPECT_EQ(Rows(*t, "SELECT name, dur, depth FROM slice ORDER BY ts, depth"),
            "long,1000,0\na,10000,0\nb,-1,0\nlonger,5000,1\nshort,1000,2\n");
}

TEST(JsonImporterTest, SameTimestampKeepsFileOrderWithoutCompleteEvents) {
  auto t = Load(R"([
    {"ph":"B","name":"a","ts":20,"pid":1,"tid":1},
    {"ph":"B","name":"b","ts":30,"pid":1,"tid":1},
    {"ph":"E","ts":30,"pid":1,"tid":1}
  ])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT name, dur, depth FROM slice ORDER BY ts"), "a,-1,0\nb,0,1\n");
}

TEST(JsonImporterTest, OverlappingCompleteEventsSpillOntoOverflowTracks) {
  auto t = Load(R"([
    {"ph":"X","name":"outer","ts":100,"dur":100,"pid":1,"tid":1},
    {"ph":"X","name":"inner","ts":150,"dur":100,"pid":1,"tid":1},
    {"ph":"X","name":"third","ts":160,"dur":100,"pid":1,"tid":1},
    {"ph":"X","name":"later","ts":260,"dur":100,"pid":1,"tid":1},
    {"ph":"X","name":"nested","ts":270,"dur":10,"pid":1,"tid":1}
  ])");
  ASSERT_TRUE(t);
  // "inner" and "third" each overlap what is on the thread track; "third" also overlaps
  // "inner", so it needs a second overflow track. Later slices reuse free tracks.
  EXPECT_EQ(Rows(*t, "SELECT s.name, s.depth, t.type, "
                     "EXTRACT_ARG(t.dimension_arg_set_id, 'track_compressor_idx') "
                     "FROM slice s JOIN track t ON s.track_id = t.id ORDER BY s.ts"),
            "outer,0,thread_execution,[NULL]\n"
            "inner,0,thread_overlapping_slice,0\n"
            "third,0,thread_overlapping_slice,1\n"
            "later,0,thread_execution,[NULL]\n"
            "nested,1,thread_execution,[NULL]\n");
  EXPECT_EQ(Stat(*t, "slice_spill_overlapping_complete_event"), 2);
}

TEST(JsonImporterTest, ThreadStateEventsFillThreadStateAndSched) {
  auto t = Load(R"([
    {"ph":"T","name":"Running","ts":1,"dur":2,"pid":1,"tid":2,"args":{"cpu":3}},
    {"ph":"T","name":"S","ts":3,"dur":4,"pid":1,"tid":2,"args":{"io_wait":1,"blocked_function":"f"}},
    {"ph":"T","name":"R","ts":9,"pid":1,"tid":2}
  ])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT ts, dur, state, io_wait, blocked_function FROM thread_state ORDER BY ts"),
            "1000,2000,Running,[NULL],[NULL]\n3000,4000,S,1,f\n");
  EXPECT_EQ(Rows(*t, "SELECT ts, dur, cpu FROM sched"), "1000,2000,3\n");
  EXPECT_EQ(Stat(*t, "json_parser_failure"), 1);  // 'T' without a duration
}

TEST(JsonImporterTest, TopLevelMetadataBecomesMetadataRows) {
  auto t = Load(R"({"traceEvents":[{"ph":"i","ts":1,"pid":1,"tid":1}],
                    "metadata":{"clock-domain":"LINUX_CLOCK_MONOTONIC","n":3,"f":1.5,"b":true,
                                "nothing":null}})");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT name, int_value, str_value FROM metadata "
                     "WHERE name LIKE 'json_metadata.%' ORDER BY name"),
            "json_metadata.b,1,[NULL]\n"
            "json_metadata.clock-domain,[NULL],LINUX_CLOCK_MONOTONIC\n"
            "json_metadata.f,[NULL],1.5\n"
            "json_metadata.n,3,[NULL]\n");
}

TEST(JsonImporterTest, SystemTraceEventsAddFtraceData) {
  auto t = Load(
      R"({"traceEvents":[{"ph":"X","name":"js","ts":100000,"dur":5,"pid":10,"tid":10}],)"
      R"("systemTraceEvents":"# tracer: nop\n)"
      R"(          <idle>-0     [000] d..3   0.100000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=app next_pid=10 next_prio=120\n)"
      R"(             app-10    [000] d..3   0.100500: sched_switch: prev_comm=app prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"})");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT ts, dur, tid FROM sched JOIN thread USING (utid) WHERE tid = 10"),
            "100000000,500000,10\n");
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM slice"), 1);
}

TEST(JsonImporterTest, BadEventsAreCountedAndTheRestImported) {
  auto t = Load(R"([
    {"ph":"X","name":"ok","ts":1,"dur":1,"pid":1,"tid":1},
    {"name":"no phase","ts":1},
    {"ph":"B","name":"no ts"},
    {"ph":"X","name":"no dur","ts":2,"pid":1,"tid":1},
    {"ph":"X","name":"negative","ts":-5,"dur":1,"pid":1,"tid":1},
    {},
    17
  ])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT name FROM slice"), "ok\n");
  EXPECT_EQ(Stat(*t, "json_tokenizer_failure"), 3);  // no phase, no ts, not an object
  EXPECT_EQ(Stat(*t, "json_parser_failure"), 1);     // 'X' without dur
  EXPECT_EQ(Stat(*t, "trace_sorter_negative_timestamp_dropped"), 1);
}

TEST(JsonImporterTest, TruncatedTraceKeepsWhatCameBeforeAndSaysSo) {
  auto t = Load(R"({"traceEvents":[{"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1},
                                   {"ph":"X","name":"b","ts":2,"du)");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT name FROM slice"), "a\n");
  EXPECT_EQ(Stat(*t, "trace_truncated"), 1);
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM metadata WHERE name = 'trace_corruption'"), 1);
}

TEST(JsonImporterTest, DamagedStructureAfterEventsKeepsThem) {
  auto t = Load(R"({"traceEvents":[{"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1}] "x": 1})");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT name FROM slice"), "a\n");
  EXPECT_GE(Stat(*t, "json_parser_failure"), 1);
}

TEST(JsonImporterTest, WhatIsNotAJsonTraceIsAClearError) {
  struct Case {
    std::string json;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {R"({"foo": [1, 2, 3]})", "no \"traceEvents\""},
           {R"({"traceEvents": 3})", "not an array"},
           {R"([{"name": "x"}, [1, 2]])", "none of its 2 trace events"},
           {R"({"traceEvents":[)", "ends before its first event"},
           {R"({"traceEvents":[{"ph":"X" "ts":1}]})", "none of its 1"},
       }) {
    auto t = LoadTraceBytes(c.json);
    ASSERT_FALSE(t.ok()) << c.json;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << c.json;
    EXPECT_NE(t.status().message().find(c.message), std::string::npos)
        << c.json << " -> " << t.status();
  }
}

TEST(JsonImporterTest, EventsMissingWhatTheyNeedLeaveAnEmptyTraceWithStats) {
  // Well-formed JSON whose events all lack a phase or a usable ts: trace_processor loads it
  // (nothing to show) and counts them.
  auto t = Load(R"([{"name": "x", "ts": 1}, {"ph": "X", "ts": "100a", "dur": 1}])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM slice"), 0);
  EXPECT_EQ(Stat(*t, "json_tokenizer_failure"), 2);
}

TEST(JsonImporterTest, CounterStringsAreReadAsStrtodReadsThem) {
  auto t = Load(R"([{"ph":"C","name":"c","ts":1,"pid":1,
                     "args":{"a":"+10.5","b":".75","c":"246.","d":"1.5e","e":"+","f":"050"}}])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT t.name, c.value FROM counter c JOIN counter_track t "
                     "ON c.track_id = t.id ORDER BY t.name"),
            "c a,10.500000\nc b,0.750000\nc c,246.000000\nc f,50.000000\n");
  EXPECT_EQ(Stat(*t, "json_parser_failure"), 2);
}

TEST(JsonImporterTest, EmptyTraceLoads) {
  auto t = Load(R"({"traceEvents": [], "metadata": {}})");
  ASSERT_TRUE(t);
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM slice"), 0);
  EXPECT_EQ(t->info().format, "json");
}

}  // namespace
}  // namespace tw

namespace tw {
namespace {

TEST(JsonImporterTest, TraceWithoutUuidIsNamedByAHashOfItsHead) {
  const std::string a = R"([{"ph":"i","ts":1,"pid":1,"tid":1}])";
  const std::string b = R"([{"ph":"i","ts":2,"pid":1,"tid":1}])";
  auto uuid = [](const std::string& json) {
    auto t = json_test::Load(json);
    return t ? json_test::Rows(*t, "SELECT str_value FROM metadata WHERE name = 'trace_uuid'")
             : std::string();
  };
  const std::string ua = uuid(a);
  EXPECT_EQ(ua.rfind("00000000-0000-0000-", 0), 0u) << ua;
  EXPECT_EQ(ua.size(), 37u);  // 36 characters and the newline
  EXPECT_EQ(uuid(a), ua);
  EXPECT_NE(uuid(b), ua);
}

}  // namespace
}  // namespace tw
