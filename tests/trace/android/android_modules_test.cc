// android.startup.*, android.anrs, android.slices and android.frames.jank_type over small
// traces written as atrace markers in a Perfetto trace.

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Scalar;
using stdlib_testing::Table;

struct Marker {
  int64_t ts;
  int64_t pid;
  std::string buf;
};

// One ftrace bundle of atrace print events, plus process names.
std::unique_ptr<LoadedTrace> LoadMarkers(
    const std::vector<Marker>& markers, const std::vector<std::pair<int, std::string>>& procs,
    const std::vector<std::tuple<int, int, std::string>>& threads = {}) {
  proto::Writer trace;
  proto::Writer tree;
  for (const auto& [pid, name] : procs) {
    proto::Writer p;
    p.Int(pf::process_tree_process::kPid, pid);
    p.Int(pf::process_tree_process::kPpid, 1);
    p.String(pf::process_tree_process::kCmdline, name);
    tree.Message(pf::process_tree::kProcesses, p);
  }
  for (const auto& [tid, tgid, name] : threads) {
    proto::Writer th;
    th.Int(pf::process_tree_thread::kTid, tid);
    th.Int(pf::process_tree_thread::kTgid, tgid);
    th.String(pf::process_tree_thread::kName, name);
    tree.Message(pf::process_tree::kThreads, th);
  }
  proto::Writer tree_packet;
  tree_packet.Message(pf::trace_packet::kProcessTree, tree);
  tree_packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, 1);
  trace.Message(pf::trace::kPacket, tree_packet);
  proto::Writer bundle;
  bundle.Varint(pf::ftrace_event_bundle::kCpu, 0);
  for (const Marker& m : markers) {
    proto::Writer print;
    print.String(pf::print_ftrace_event::kBuf, m.buf);
    proto::Writer ev;
    ev.Varint(pf::ftrace_event::kTimestamp, static_cast<uint64_t>(m.ts));
    ev.Varint(pf::ftrace_event::kPid, static_cast<uint64_t>(m.pid));
    ev.Message(pf::ftrace_event::kPrint, print);
    bundle.Message(pf::ftrace_event_bundle::kEvent, ev);
  }
  proto::Writer packet;
  packet.Message(pf::trace_packet::kFtraceEvents, bundle);
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, 1);
  trace.Message(pf::trace::kPacket, packet);
  auto t = LoadTraceBytes(trace.Take());
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

TEST(AndroidStartups, Minsdk33LaunchWithTypeFromCompletedMarker) {
  // system_server (pid 2) opens launchingActivity#3 and reports a cold completion; the app
  // (pid 50) binds, starts and resumes inside it.
  auto t = LoadMarkers(
      {
          {1000, 2, "S|2|launchingActivity#3|0"},
          {1100, 50, "B|50|bindApplication"},
          {1200, 50, "E|50"},
          {1300, 50, "B|50|activityStart"},
          {1400, 50, "E|50"},
          {1500, 50, "B|50|activityResume"},
          {1600, 50, "E|50"},
          {1900, 2, "I|2|launchingActivity#3:completed-cold:com.example.app"},
          {2000, 2, "F|2|launchingActivity#3|0"},
      },
      {{2, "system_server"}, {50, "com.example.app"}});
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(INCLUDE PERFETTO MODULE android.startup.startups;
                             SELECT startup_id, ts, ts_end, dur, package, startup_type
                             FROM android_startups)"),
            (Table{{"3", "1000", "2000", "1000", "com.example.app", "cold"}}));
  EXPECT_EQ(Rows(t->db(), R"(INCLUDE PERFETTO MODULE android.startup.startups;
                             SELECT startup_id, pid, startup_type FROM android_startup_processes)"),
            (Table{{"3", "50", "cold"}}));
  EXPECT_EQ(Scalar(t->db(), R"(INCLUDE PERFETTO MODULE android.startup.startups;
                               SELECT android_sum_dur_for_startup_and_slice(3, 'activity*'))"),
            "200");
}

TEST(AndroidStartups, Maxsdk28TypeFromAppSlices) {
  // Without launchingActivity# / MetricsLogger slices: "launching:" async slices; the type
  // comes from what the app's main thread did (start + resume, no bind: warm).
  auto t = LoadMarkers(
      {
          {1000, 2, "S|2|launching: com.example.app|7"},
          {1300, 50, "B|50|activityStart"},
          {1400, 50, "E|50"},
          {1500, 50, "B|50|activityResume"},
          {1600, 50, "E|50"},
          {3000, 2, "F|2|launching: com.example.app|7"},
      },
      {{2, "system_server"}, {50, "com.example.app"}});
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(INCLUDE PERFETTO MODULE android.startup.startups;
                             SELECT startup_id, ts, dur, package, startup_type
                             FROM android_startups)"),
            (Table{{"0", "1000", "2000", "com.example.app", "warm"}}));
}

TEST(AndroidAnrs, ErrorIdAndSubjectCounters) {
  auto t = LoadMarkers(
      {
          {5000, 2, "C|2|ErrorId:com.example.app 50#abc-123|1"},
          {5000, 2,
           "C|2|Subject(for ErrorId abc-123):Input dispatching timed out (1a2b com.example.app/"
           "com.example.app.Main is not responding. Waited 5000ms for MotionEvent)|1"},
      },
      {{2, "system_server"}, {50, "com.example.app"}});
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(INCLUDE PERFETTO MODULE android.anrs;
                             SELECT process_name, pid, error_id, ts, anr_type, component,
                                    default_anr_dur_ms
                             FROM android_anrs)"),
            (Table{{"com.example.app", "50", "abc-123", "5000", "INPUT_DISPATCHING_TIMEOUT",
                    "com.example.app/com.example.app.Main", "5000"}}));
}

TEST(AndroidSlices, StandardizedNames) {
  auto t = LoadMarkers({}, {});
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(INCLUDE PERFETTO MODULE android.slices;
      SELECT android_standardize_slice_name('Choreographer#doFrame 123456'),
             android_standardize_slice_name('Lock contention on thread list lock (owner tid: 1665)'),
             android_standardize_slice_name('android.os.Handler: com.android.Foo$1'),
             android_standardize_slice_name('Wakelock(epolld280:system_serve'),
             android_standardize_slice_name('Recycling 0x7f3a view 42'),
             android_standardize_slice_name('decode cafe'))"),
            (Table{{"Choreographer#doFrame", "Lock contention on thread list lock <...>",
                    "Handler: com.android.Foo", "Wakelock(epolld<...>:system_serve",
                    "Recycling 0x<num> view <num>", "decode cafe"}}));
}

TEST(AndroidFramesJankType, Categories) {
  auto t = LoadMarkers({}, {});
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(INCLUDE PERFETTO MODULE android.frames.jank_type;
      SELECT android_is_sf_jank_type('SurfaceFlinger Scheduling, App Deadline Missed'),
             android_is_app_jank_type('SurfaceFlinger Scheduling, App Deadline Missed'),
             android_is_app_jank_type('Buffer Stuffing'),
             android_is_missed_frame_type('Dropped Frame'),
             android_is_missed_frame_type('None'))"),
            (Table{{"1", "1", "0", "1", "0"}}));
}

TEST(AndroidMonitorContention, ParsesArtSliceAndFindsEnclosingBinderReply) {
  // Thread 51 of the app serves a binder call and waits for a lock its main thread (tid 50,
  // ART thread id 1 in the name) holds.
  auto t = LoadMarkers(
      {
          {1000, 51, "B|50|binder reply"},
          {1100, 51,
           "B|50|monitor contention with owner main (1) at void com.example.Cache.put(int)"
           "(Cache.java:10) waiters=2 blocking from int com.example.Cache.get(int)"
           "(Cache.java:20)"},
          {1150, 51, "B|50|Lock contention on a monitor lock (owner tid: 50)"},
          {1250, 51, "E|50"},
          {1300, 51, "E|50"},
          {1400, 51, "E|50"},
      },
      {{50, "com.example.app"}});
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(INCLUDE PERFETTO MODULE android.monitor_contention;
      SELECT blocking_method, short_blocking_method, blocked_method, short_blocked_method,
             blocking_src, blocked_src, waiter_count, blocking_thread_name, blocking_tid,
             blocked_thread_tid, ts, dur, process_name, binder_reply_ts
      FROM android_monitor_contention)"),
            (Table{{"void com.example.Cache.put(int)", "com.example.Cache.put",
                    "int com.example.Cache.get(int)", "com.example.Cache.get",
                    "Cache.java:10", "Cache.java:20", "2", "main", "1", "51", "1100", "200",
                    "com.example.app", "1000"}}));
}

TEST(AndroidInputEvents, DispatchReceiveFinishAckAndFrame) {
  // system_server (2) with InputDispatcher (3); the app (50) handles the event in a frame.
  const std::string server = "inputChannel=9f com.example.app/com.example.app.Main (server)";
  const std::string client = "inputChannel=9f com.example.app/com.example.app.Main (client)";
  auto t = LoadMarkers(
      {
          {950, 4, "B|2|UnwantedInteractionBlocker::notifyMotion(id=0x3f1, deviceId=4)"},
          {960, 4, "E|2"},
          {1000, 3, "B|2|enqueueDispatchEntryAndStartDispatchCycleLocked(" + server + ", id=0x3f1)"},
          {1010, 3, "B|2|startDispatchCycleLocked(" + server + ")"},
          {1020, 3, "B|2|publishMotionEvent(" + server + ")"},
          {1030, 3, "B|2|sendMessage(" + server + ", seq=0x12, type=MOTION)"},
          {1040, 3, "E|2"},
          {1050, 3, "E|2"},
          {1060, 3, "E|2"},
          {1070, 3, "E|2"},
          {1500, 50, "B|50|receiveMessage(" + client + ", seq=0x12, type=MOTION)"},
          {1510, 50, "E|50"},
          {1600, 50, "B|50|Choreographer#doFrame 777"},
          {1650, 50, "B|50|processing input ACTION_DOWN"},
          {1660, 50, "B|50|deliverInputEvent src=0x1002 eventTimeNano=900 id=0x3f1"},
          {1700, 50, "E|50"},
          {1710, 50, "E|50"},
          {1800, 50, "E|50"},
          {1900, 50, "B|50|sendMessage(" + client + ", seq=0x12, type=FINISHED)"},
          {1910, 50, "E|50"},
          {2300, 3, "B|2|receiveMessage(" + server + ", seq=0x12, type=FINISHED)"},
          {2310, 3, "E|2"},
      },
      {{2, "system_server"}, {50, "com.example.app"}}, {{3, 2, "InputDispatcher"}, {4, 2, "InputReader"}, {50, 50, "example.app"}});
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(INCLUDE PERFETTO MODULE android.input;
      SELECT dispatch_latency_dur, handling_latency_dur, ack_latency_dur, total_latency_dur,
             tid, process_name, event_type, event_action, event_seq, normalized_event_channel,
             input_event_id, read_time, frame_id, is_speculative_frame, event_time,
             end_to_end_latency_dur
      FROM android_input_events)"),
            (Table{{"470", "400", "400", "1270", "50", "com.example.app", "MOTION",
                    "ACTION_DOWN", "0x12", "com.example.app/com.example.app.Main (server)",
                    "0x3f1", "950", "777", "0", "900", "NULL"}}));
}

}  // namespace
}  // namespace tw
