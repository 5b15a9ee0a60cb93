#pragma once
// The app's frame pipeline and SurfaceFlinger: at each vsync the main thread runs
// Choreographer#doFrame (input, animation, traversal with measure/layout/draw), hands the frame
// to RenderThread (syncFrameState) which draws it (DrawFrames, dequeueBuffer, queueBuffer);
// SurfaceFlinger latches queued buffers first-in first-out at each vsync and presents them one
// vsync later. After the run, every frame's fate gives the frame timeline packets (expected and
// actual surface and display frames, with jank type and present type) and the ground truth.
//
// Injections change single frames (extra actions on the main thread inside doFrame, or on
// RenderThread inside dequeueBuffer) or time windows (a cause attached to frames that overlap).

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tools/tracegen/android_world.h"

namespace tw::tracegen {

struct FrameInjection {
  std::string cause;
  std::vector<Action> main_in_frame;   // after traversal, inside doFrame
  std::vector<Action> rt_in_dequeue;   // inside dequeueBuffer
};

class FramePipeline {
 public:
  // Frames are produced for vsyncs in [from, to); `work_scale` multiplies the per-frame work.
  FramePipeline(AndroidWorld* world, int64_t from, int64_t to);

  // Injects into the frame of the first vsync at or after `ts`; returns its vsync index.
  int64_t InjectAt(int64_t ts, FrameInjection injection);
  // Frames overlapping [from, to) get `cause` unless they carry an injection of their own.
  void CauseWindow(int64_t from, int64_t to, std::string cause);
  void set_work_scale(double s) { work_scale_ = s; }
  // The first frame of an activity launch: larger work (inflate) on the first frame.
  void set_first_frame_heavy(bool b) { first_frame_heavy_ = b; }
  int64_t VsyncTs(int64_t index) const { return first_vsync_ + index * period_; }
  int64_t VsyncIndexAtOrAfter(int64_t ts) const;
  int64_t Token(int64_t index) const { return 10'000 + 2 * index; }
  int64_t DisplayToken(int64_t index) const { return 10'001 + 2 * index; }

  // Starts the main thread and SurfaceFlinger generators.
  void Start();
  // Only SurfaceFlinger; the main thread joins with StartMain (after an activity launch).
  void StartSurfaceFlinger();
  void StartMain();
  // Called (in simulation time) when the first frame has been queued.
  std::function<void(int64_t)> on_first_queued;
  // After the simulation: writes frame timeline packets, fills frames_* of the ground truth.
  void Finish(synth::TraceFile* file);
  // Time the first frame (from `from`) was queued, -1 if none.
  int64_t first_frame_queued() const;

 private:
  struct Frame {
    int64_t index = 0;
    int64_t start = 0, main_end = 0, queued = -1;
    int64_t latch_index = -1;
    std::string cause;
  };
  struct Display {
    int64_t index = 0, start = 0, end = 0;
  };
  void MainGenerator(int64_t now);
  void SfGenerator(int64_t now);
  void Latch(int64_t vsync_index);
  std::string CauseFor(const Frame& f) const;

  AndroidWorld* w_;
  Simulator& sim_;
  int64_t from_, to_, period_, first_vsync_;
  double work_scale_ = 1.0;
  bool first_frame_heavy_ = false;
  std::map<int64_t, FrameInjection> injections_;
  struct Window {
    int64_t from, to;
    std::string cause;
  };
  std::vector<Window> windows_;
  std::vector<Frame> frames_;
  std::vector<Display> displays_;
  std::deque<size_t> queue_;  // frames queued and not latched yet
  int64_t next_sf_index_ = 0;
};

}  // namespace tw::tracegen
