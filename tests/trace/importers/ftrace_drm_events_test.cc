// GPU driver ftrace events (dma fences, fence waits, GPU scheduler jobs, vblanks) → the slices
// and tracks trace_processor draws for them.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/importers/ftrace_test_trace.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

// FtraceEvent field numbers of the events (protos/perfetto/trace/ftrace/ftrace_event.proto).
constexpr uint32_t kDrmVblankEvent = 409;
constexpr uint32_t kDmaFenceInit = 414;
constexpr uint32_t kDmaFenceEmit = 415;
constexpr uint32_t kDmaFenceSignaled = 416;
constexpr uint32_t kDmaFenceWaitStart = 417;
constexpr uint32_t kDmaFenceWaitEnd = 418;
constexpr uint32_t kDrmSchedJobDone = 592;
constexpr uint32_t kDrmSchedJobQueue = 593;
constexpr uint32_t kDrmSchedJobRun = 594;

class DrmTrace {
 public:
  // One event on cpu 0 from thread `pid`.
  void Add(int64_t ts, int32_t pid, uint32_t field, const proto::Writer& body) {
    importer_testing::AddFtraceEvent(trace_, 0, ts, pid, field, body);
  }
  // dma_fence_* fields: context 1, driver 2, seqno 3, timeline 4.
  void Fence(int64_t ts, uint32_t field, uint32_t context, uint32_t seqno,
             const char* timeline = "gpu") {
    proto::Writer b;
    b.Varint(1, context);
    b.String(2, "drv");
    b.Varint(3, seqno);
    b.String(4, timeline);
    Add(ts, 10, field, b);
  }
  // drm_sched_job_queue / _run: name 1, fence_context 5, fence_seqno 6; _done: 1, 2.
  void Job(int64_t ts, int32_t pid, uint32_t field, uint32_t seqno) {
    proto::Writer b;
    if (field == kDrmSchedJobDone) {
      b.Varint(1, 7);
      b.Varint(2, seqno);
    } else {
      b.String(1, "gfx");
      b.Varint(5, 7);
      b.Varint(6, seqno);
    }
    Add(ts, pid, field, b);
  }
  std::unique_ptr<LoadedTrace> Load() { return importer_testing::LoadOrFail(trace_); }

 private:
  proto::Writer trace_;
};

TEST(FtraceDrmEvents, FencesOfATimelineFollowEachOtherFromCreationToSignal) {
  DrmTrace d;
  d.Fence(100, kDmaFenceInit, 3, 1);
  d.Fence(110, kDmaFenceInit, 3, 2);
  d.Fence(150, kDmaFenceSignaled, 3, 1);
  d.Fence(160, kDmaFenceSignaled, 3, 1);  // already signalled: ignored
  d.Fence(170, kDmaFenceSignaled, 3, 2);
  d.Fence(120, kDmaFenceInit, 9, 1, "unbound");  // a meta fence: no track
  auto t = d.Load();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "SELECT s.ts, s.dur, s.name, tr.name, tr.type, "
                          "extract_arg(s.arg_set_id, 'fence seqno') FROM slice s "
                          "JOIN track tr ON tr.id = s.track_id ORDER BY s.ts"),
            (Table{{"100", "50", "fence", "fence-gpu-3", "drm_fence", "1"},
                   {"150", "20", "fence", "fence-gpu-3", "drm_fence", "2"}}));
}

TEST(FtraceDrmEvents, EmittingTimelinesAreTimedFromEmission) {
  DrmTrace d;
  d.Fence(100, kDmaFenceInit, 3, 1);
  d.Fence(130, kDmaFenceEmit, 3, 1);  // from now on the timeline's emissions count
  d.Fence(140, kDmaFenceInit, 3, 2);  // ignored
  d.Fence(150, kDmaFenceSignaled, 3, 1);
  auto t = d.Load();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "SELECT ts, dur, extract_arg(arg_set_id, 'fence seqno') FROM slice "
                          "ORDER BY ts"),
            (Table{{"100", "30", "1"}, {"130", "20", "1"}}));
}

TEST(FtraceDrmEvents, FenceWaitsAndSchedulerJobs) {
  DrmTrace d;
  proto::Writer wait;
  wait.Varint(1, 3);
  wait.Varint(3, 5);
  d.Add(100, 42, kDmaFenceWaitStart, wait);
  d.Add(180, 42, kDmaFenceWaitEnd, wait);
  d.Job(200, 42, kDrmSchedJobQueue, 1);
  d.Job(205, 42, kDrmSchedJobQueue, 2);
  d.Job(210, 0, kDrmSchedJobRun, 1);
  d.Job(220, 0, kDrmSchedJobRun, 2);  // waits for job 1 to finish
  d.Job(300, 0, kDrmSchedJobDone, 1);
  d.Job(350, 0, kDrmSchedJobDone, 2);
  proto::Writer vblank;
  vblank.Varint(1, 0);  // crtc
  vblank.Varint(3, 77);  // seq
  d.Add(400, 0, kDrmVblankEvent, vblank);
  auto t = d.Load();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), "SELECT s.ts, s.dur, s.name, tr.name, tr.type FROM slice s "
                          "JOIN track tr ON tr.id = s.track_id ORDER BY s.ts"),
            (Table{{"100", "80", "dma_fence_wait", "NULL", "thread_execution"},
                   {"200", "0", "drm_sched_job_queue", "NULL", "thread_execution"},
                   {"205", "0", "drm_sched_job_queue", "NULL", "thread_execution"},
                   {"210", "90", "job", "sched-gfx", "drm_sched_ring"},
                   {"300", "50", "job", "sched-gfx", "drm_sched_ring"},
                   {"400", "0", "signal", "vblank-0", "drm_vblank"}}));
  // Each job's slice is joined to the instant that queued it.
  EXPECT_EQ(Rows(t->db(), "SELECT o.ts, i.ts FROM flow f JOIN slice o ON o.id = f.slice_out "
                          "JOIN slice i ON i.id = f.slice_in ORDER BY o.ts"),
            (Table{{"200", "210"}, {"205", "300"}}));
  EXPECT_EQ(Rows(t->db(), "SELECT extract_arg(arg_set_id, 'fence context'), "
                          "extract_arg(arg_set_id, 'fence seqno') FROM slice WHERE ts = 100"),
            (Table{{"3", "5"}}));
}

}  // namespace
}  // namespace tw
