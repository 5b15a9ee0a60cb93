// pixel.camera and pixel.touch over hand-built slices and counters.

#include <gtest/gtest.h>

#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

TEST(PixelCamera, GraphSlicesSplitIntoNodePortGroupFrameAndCamera) {
  TraceBuilder b;
  const uint32_t hal = b.Process(600, "/vendor/bin/hw/android.hardware.camera.provider");
  const uint32_t utid = b.Thread(601, "CaptureThread", hal);
  const uint32_t track = b.ThreadTrack(utid);
  b.Slice(track, 100, 40, "cam2_yuv_denoise:main_out (frame 77)");
  b.Slice(track, 200, -1, "cam2_yuv_denoise:main_out (frame 78)");  // never ended
  b.Slice(track, 300, 10, "camera frame 79");                       // another shape
  auto db = b.Open();
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE pixel.camera;"
                      "SELECT ts, dur, thread_name, node, port_group, frame_number, cam_id "
                      "FROM pixel_camera_frames"),
            (Table{{"100", "40", "CaptureThread", "yuv_denoise", "main_out", "77", "2"}}));
}

TEST(PixelTouch, ReportFollowedFromInterruptToTwoshay) {
  TraceBuilder b;
  const uint32_t irq_track = b.GlobalTrack("Irq Cpu 0");
  const uint32_t driver = b.ThreadTrack(b.Thread(300, "gti_irq"));
  const uint32_t twoshay = b.ThreadTrack(b.Thread(400, "twoshay"));
  // Report 1: interrupt with index 3 stamped inside it, the IRQ thread run for index 3 that
  // populated the frame with input time 5000, and Twoshay processing it.
  b.Slice(irq_track, 100, 20, "IRQ (touch_offload)");
  b.Counter(b.CounterTrack("gti_th_irq_index"), 110, 3);
  const uint32_t bh = b.Slice(driver, 150, 80, "gti_irq_thread_fn: IRQ_IDX=3.");
  b.Slice(driver, 160, 10, "goog_offload_populate_frame: IN_TS=5000.", bh);
  b.Slice(twoshay, 400, 90, "algo->processFrame: IN_TS=5000.");
  b.Counter(b.CounterTrack("Resample latency offset"), 420, 2500);
  // Report 2: only Twoshay's side was traced.
  b.Slice(twoshay, 900, 50, "algo->processFrame: IN_TS=9000.");
  auto db = b.Open(0, 1000);
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE pixel.touch;"
                      "SELECT in_ts, ts_pixel_touch_th, dur_pixel_touch_th, ts_pixel_touch_bh, "
                      "dur_pixel_touch_bh, ts_pixel_touch, dur_pixel_touch, "
                      "resample_latency_offset FROM pixel_touch_events ORDER BY ts_pixel_touch"),
            (Table{{"5000", "100", "20", "150", "80", "400", "90", "2500"},
                   {"9000", "NULL", "NULL", "NULL", "NULL", "900", "50", "0"}}));
}

}  // namespace
}  // namespace tw::stdlib_testing
