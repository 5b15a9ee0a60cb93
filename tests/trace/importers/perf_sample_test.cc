// Linux perf sampling (traced_perf's perf_sample packets): counter names as perf names them,
// sessions per sequence, counter tracks per (session, cpu, counter), samples with their
// thread, cpu mode, callstack and counter values, and the records that are not samples
// (kernel ring-buffer losses, producer guardrail stops, skipped samples) as stats.

#include <gtest/gtest.h>

#include "libs/trace/importers/proto/perf_event_names.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/importers/perf_trace_writer.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using perf_testing::Frame;
using perf_testing::PerfEvent;
using perf_testing::PerfTraceWriter;
using perf_testing::Sample;
using stdlib_testing::Rows;
using stdlib_testing::Scalar;
using stdlib_testing::Table;

// PerfEvents.Counter values used below.
constexpr uint64_t kSwCpuClock = 1, kSwPageFaults = 2, kHwCpuCycles = 10, kHwInstructions = 11;
// Profiling.CpuMode values.
constexpr uint64_t kModeKernel = 1, kModeUser = 2;

std::string Name(const PerfEvent& e, bool timebase) {
  proto::Writer w = EncodePerfEvent(e, timebase);
  return PerfEventName(w.data(), timebase ? kPerfTimebaseFields : kPerfFollowerFields);
}

TEST(PerfEventNames, NamesCountersAsPerfDoes) {
  EXPECT_EQ(PerfCounterName(kSwCpuClock), "cpu-clock");
  EXPECT_EQ(PerfCounterName(kHwCpuCycles), "cpu-cycles");
  EXPECT_EQ(PerfCounterName(19), "ref-cycles");
  EXPECT_EQ(PerfCounterName(20), "dummy");
  EXPECT_EQ(PerfCounterName(0), "unknown");
  EXPECT_EQ(PerfCounterName(999), "unknown");

  EXPECT_EQ(Name({.counter = kHwInstructions}, true), "instructions");
  EXPECT_EQ(Name({.counter = kHwInstructions}, false), "instructions");
  // The config's own name wins over the event's.
  EXPECT_EQ(Name({.counter = kHwInstructions, .name = "insns"}, false), "insns");
  EXPECT_EQ(Name({.tracepoint = "sched:sched_switch"}, true), "sched:sched_switch");
  // Modifiers: user space, kernel, hypervisor, as perf's suffix.
  EXPECT_EQ(Name({.counter = kHwCpuCycles, .modifiers = {1}}, true), "cpu-cycles:u");
  EXPECT_EQ(Name({.counter = kHwCpuCycles, .modifiers = {2, 3}}, false), "cpu-cycles:kh");
  EXPECT_EQ(Name({}, true), "unknown");
}

TEST(PerfEventNames, NamesRawEventsByTheirConfig) {
  proto::Writer raw;
  raw.Varint(pf::perf_events_raw_event::kType, 4);
  raw.Varint(pf::perf_events_raw_event::kConfig, 0x11);
  proto::Writer follower;
  follower.Message(pf::perf_follower_event::kRawEvent, raw);
  EXPECT_EQ(PerfEventName(follower.data(), kPerfFollowerFields), "raw.0x4.0x11.0x0.0x0");
}

std::unique_ptr<LoadedTrace> Load(PerfTraceWriter& w) {
  auto t = LoadTraceBytes(w.Take());
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

TEST(PerfSamples, CountersGetATrackPerSessionCpuAndCounter) {
  PerfTraceWriter w;
  w.Defaults(1, PerfEvent{.counter = kSwCpuClock},
             {{.counter = kHwCpuCycles}, {.counter = kHwInstructions, .modifiers = {1}}});
  w.Add(1, {.ts = 1000, .cpu = 0, .pid = 10, .tid = 11, .cpu_mode = kModeUser,
            .timebase_count = 500, .follower_counts = {70, 30}});
  w.Add(1, {.ts = 2000, .cpu = 2, .pid = 10, .tid = 12, .cpu_mode = kModeKernel,
            .timebase_count = 510, .follower_counts = {71, 31}});
  w.Add(1, {.ts = 3000, .cpu = 0, .pid = 20, .tid = 20, .timebase_count = 520,
            .follower_counts = {72, 32}});
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  EXPECT_EQ(Rows(db, "SELECT id, perf_session_id, cmdline FROM perf_session"),
            (Table{{"0", "0", "NULL"}}));
  EXPECT_EQ(Rows(db, "SELECT name, type, cpu, perf_session_id, is_timebase, unit "
                     "FROM perf_counter_track ORDER BY id"),
            (Table{{"cpu-clock", "perf_cpu_counter", "0", "0", "1", "NULL"},
                   {"cpu-cycles", "perf_cpu_counter", "0", "0", "0", "NULL"},
                   {"instructions:u", "perf_cpu_counter", "0", "0", "0", "NULL"},
                   {"cpu-clock", "perf_cpu_counter", "2", "0", "1", "NULL"},
                   {"cpu-cycles", "perf_cpu_counter", "2", "0", "0", "NULL"},
                   {"instructions:u", "perf_cpu_counter", "2", "0", "0", "NULL"}}));
  EXPECT_EQ(Rows(db, "SELECT t.cpu, t.name, c.ts, c.value FROM counter c "
                     "JOIN perf_counter_track t ON t.id = c.track_id "
                     "WHERE t.name = 'instructions:u' ORDER BY c.ts"),
            (Table{{"0", "instructions:u", "1000", "30"},
                   {"2", "instructions:u", "2000", "31"},
                   {"0", "instructions:u", "3000", "32"}}));
  EXPECT_EQ(Rows(db, "SELECT s.id, s.ts, th.tid, p.pid, s.cpu, s.cpu_mode, s.callsite_id, "
                     "s.unwind_error, s.perf_session_id FROM perf_sample s "
                     "JOIN thread th USING (utid) JOIN process p USING (upid) ORDER BY s.id"),
            (Table{{"0", "1000", "11", "10", "0", "user", "NULL", "NULL", "0"},
                   {"1", "2000", "12", "10", "2", "kernel", "NULL", "NULL", "0"},
                   {"2", "3000", "20", "20", "0", "unknown", "NULL", "NULL", "0"}}));
  // The sampled cpus are cpus of the trace.
  EXPECT_EQ(Scalar(db, "SELECT max(cpu) FROM cpu"), "2");
}

TEST(PerfSamples, EachSequenceIsASession) {
  PerfTraceWriter w;
  w.Defaults(1, PerfEvent{.counter = kSwCpuClock}, {});
  w.Defaults(2, PerfEvent{.counter = kSwPageFaults}, {});
  w.Add(1, {.ts = 100, .cpu = 1, .pid = 1, .tid = 1, .timebase_count = 5});
  w.Add(2, {.ts = 200, .cpu = 1, .pid = 1, .tid = 1, .timebase_count = 7});
  auto t = Load(w);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), "SELECT perf_session_id, name, cpu FROM perf_counter_track ORDER BY id"),
            (Table{{"0", "cpu-clock", "1"}, {"1", "page-faults", "1"}}));
  EXPECT_EQ(Rows(t->db(), "SELECT perf_session_id, ts FROM perf_sample ORDER BY id"),
            (Table{{"0", "100"}, {"1", "200"}}));
}

TEST(PerfSamples, WithoutDefaultsTheTimebaseIsTheCpuClock) {
  PerfTraceWriter w;
  w.Defaults(1, std::nullopt, {});
  w.Add(1, {.ts = 100, .cpu = 3, .pid = 1, .tid = 1, .timebase_count = 5});
  auto t = Load(w);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), "SELECT name, cpu, is_timebase FROM perf_counter_track"),
            (Table{{"cpu-clock", "3", "1"}}));
}

TEST(PerfSamples, CallstacksBecomeCallsites) {
  PerfTraceWriter w;
  w.Defaults(1, PerfEvent{.counter = kSwCpuClock}, {});
  w.Callstack(1, 7, {{"main", "/bin/app", 0x10}, {"work", "/lib/libc.so", 0x20}});
  w.Callstack(1, 8, {});
  w.Add(1, {.ts = 100, .cpu = 0, .pid = 5, .tid = 6, .cpu_mode = kModeUser,
            .timebase_count = 1, .callstack_iid = 7, .unwind_error = 6});
  w.Add(1, {.ts = 200, .cpu = 0, .pid = 5, .tid = 6, .timebase_count = 1, .callstack_iid = 8});
  w.Add(1, {.ts = 300, .cpu = 0, .pid = 5, .tid = 6, .timebase_count = 1, .callstack_iid = 99});
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  EXPECT_EQ(Rows(db, "SELECT s.ts, c.depth, f.name, m.name, f.rel_pc, s.unwind_error "
                     "FROM perf_sample s JOIN stack_profile_callsite c ON c.id = s.callsite_id "
                     "JOIN stack_profile_frame f ON f.id = c.frame_id "
                     "JOIN stack_profile_mapping m ON m.id = f.mapping"),
            (Table{{"100", "1", "work", "/lib/libc.so", "32", "max_frames_exceeded"}}));
  EXPECT_EQ(Rows(db, "SELECT f.name FROM stack_profile_callsite c "
                     "JOIN stack_profile_frame f ON f.id = c.frame_id "
                     "WHERE c.id = (SELECT parent_id FROM stack_profile_callsite "
                     "WHERE id = (SELECT callsite_id FROM perf_sample WHERE ts = 100))"),
            (Table{{"main"}}));
  // An empty callstack and one never interned leave the sample without a callsite.
  EXPECT_EQ(Rows(db, "SELECT ts, callsite_id FROM perf_sample WHERE ts > 100 ORDER BY ts"),
            (Table{{"200", "NULL"}, {"300", "NULL"}}));
  EXPECT_EQ(Rows(db, "SELECT name, value FROM stats WHERE name LIKE 'stackprofile%' "
                     "AND value > 0 ORDER BY name"),
            (Table{{"stackprofile_empty_callstack", "1"},
                   {"stackprofile_invalid_callstack_id", "1"}}));
}

// Mappings as older writers intern them: build id 0 (none: an empty build id, never interned)
// and a path whose last component was never interned (the path keeps what came before it).
TEST(PerfSamples, MappingsWithoutBuildIdOrWithPartialPaths) {
  namespace id = pf::interned_data;
  PerfTraceWriter w;
  w.Defaults(1, PerfEvent{.counter = kSwCpuClock}, {});
  proto::Writer interned;
  proto::Writer name;
  name.Varint(pf::interned_string::kIid, 1);
  name.String(pf::interned_string::kStr, "system");
  interned.Message(id::kMappingPaths, name);
  proto::Writer function;
  function.Varint(pf::interned_string::kIid, 1);
  function.String(pf::interned_string::kStr, "do_work");
  interned.Message(id::kFunctionNames, function);
  proto::Writer mapping;
  mapping.Varint(pf::profile_mapping::kIid, 1);
  mapping.Varint(pf::profile_mapping::kBuildId, 0);
  mapping.Packed(pf::profile_mapping::kPathStringIds, std::vector<uint64_t>{1, 2});
  interned.Message(id::kMappings, mapping);
  proto::Writer frame;
  frame.Varint(pf::profile_frame::kIid, 1);
  frame.Varint(pf::profile_frame::kFunctionNameId, 1);
  frame.Varint(pf::profile_frame::kMappingId, 1);
  interned.Message(id::kFrames, frame);
  proto::Writer callstack;
  callstack.Varint(pf::profile_callstack::kIid, 1);
  callstack.Packed(pf::profile_callstack::kFrameIds, std::vector<uint64_t>{1});
  interned.Message(id::kCallstacks, callstack);
  proto::Writer packet;
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, 1);
  packet.Varint(pf::trace_packet::kSequenceFlags, pf::sequence_flags::kNeedsIncrementalState);
  packet.Message(pf::trace_packet::kInternedData, interned);
  std::string trace = w.Take();
  proto::Writer rest;
  rest.Message(pf::trace::kPacket, packet);
  trace += rest.Take();
  PerfTraceWriter samples;
  samples.Add(1, {.ts = 100, .cpu = 0, .pid = 3, .tid = 3, .timebase_count = 1, .callstack_iid = 1});
  trace += samples.Take();
  auto t = LoadTraceBytes(trace);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), "SELECT f.name, m.name, m.build_id FROM perf_sample s "
                             "JOIN stack_profile_callsite c ON c.id = s.callsite_id "
                             "JOIN stack_profile_frame f ON f.id = c.frame_id "
                             "JOIN stack_profile_mapping m ON m.id = f.mapping"),
            (Table{{"do_work", "/system", ""}}));
  EXPECT_EQ(Rows((*t)->db(), "SELECT value FROM stats WHERE name = 'stackprofile_invalid_string_id'"),
            (Table{{"1"}}));
}

TEST(PerfSamples, RecordsThatAreNotSamplesBecomeStats) {
  PerfTraceWriter w;
  w.Defaults(1, PerfEvent{.counter = kSwCpuClock}, {}, /*shard_count=*/4, /*chosen_shard=*/2);
  w.Add(1, {.ts = 100, .cpu = 1, .kernel_records_lost = 3});
  w.Add(1, {.ts = 150, .cpu = 1, .kernel_records_lost = 2});
  w.Add(1, {.ts = 200, .cpu = 0, .pid = 4, .tid = 4, .timebase_count = 9, .skipped_reason = 2});
  w.Add(1, {.ts = 250, .cpu = 0, .pid = 4, .tid = 4, .timebase_count = 9, .skipped_reason = 3});
  w.Add(1, {.ts = 260, .cpu = 0, .pid = 4, .tid = 4, .timebase_count = 9, .skipped_reason = 4});
  w.Add(1, {.ts = 300, .cpu = 0, .producer_stop_reason = 1});
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  EXPECT_EQ(Rows(db, "SELECT name, idx, value FROM stats WHERE name LIKE 'perf%' "
                     "AND value > 0 ORDER BY name, idx"),
            (Table{{"perf_chosen_process_shard", "0", "2"},
                   {"perf_cpu_lost_records", "1", "5"},
                   {"perf_guardrail_stop_ts", "0", "300"},
                   {"perf_process_shard_count", "0", "4"},
                   {"perf_samples_skipped", "NULL", "1"},
                   {"perf_samples_skipped_dataloss", "NULL", "1"}}));
  // Skipped samples keep their counters; losses and producer events are not samples.
  EXPECT_EQ(Rows(db, "SELECT ts FROM perf_sample ORDER BY ts"),
            (Table{{"200"}, {"250"}, {"260"}}));
  // A loss still opens its cpu's tracks (the stream is known before the record is read).
  EXPECT_EQ(Rows(db, "SELECT cpu FROM perf_counter_track ORDER BY id"), (Table{{"1"}, {"0"}}));
}

}  // namespace
}  // namespace tw
