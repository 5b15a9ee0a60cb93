#include "tools/tracegen/frame_pipeline.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw::tracegen {

using proto::Writer;

namespace {
constexpr uint32_t kSeqFrameTimeline = 31;
// FrameTimelineEvent enums (frame_timeline_event.proto).
constexpr uint32_t kPresentOnTime = 1, kPresentLate = 2;
constexpr uint32_t kPredictionValid = 1;
constexpr uint32_t kSeverityNone = 1, kSeverityFull = 3;
}  // namespace

FramePipeline::FramePipeline(AndroidWorld* world, int64_t from, int64_t to)
    : w_(world), sim_(world->sim()), from_(from), to_(to), period_(world->period()),
      first_vsync_(from) {}

int64_t FramePipeline::VsyncIndexAtOrAfter(int64_t ts) const {
  if (ts <= first_vsync_) return 0;
  return (ts - first_vsync_ + period_ - 1) / period_;
}

int64_t FramePipeline::InjectAt(int64_t ts, FrameInjection injection) {
  const int64_t idx = VsyncIndexAtOrAfter(ts);
  injections_[idx] = std::move(injection);
  return idx;
}

void FramePipeline::CauseWindow(int64_t from, int64_t to, std::string cause) {
  windows_.push_back(Window{from, to, std::move(cause)});
}

void FramePipeline::Start() {
  StartSurfaceFlinger();
  StartMain();
}

void FramePipeline::StartSurfaceFlinger() {
  sim_.thread(w_->sf_main).generator = [this](int64_t now) { SfGenerator(now); };
  sim_.Deliver(w_->sf_main, {Action::Run(20'000)});
}

void FramePipeline::StartMain() {
  sim_.thread(w_->app_main).generator = [this](int64_t now) { MainGenerator(now); };
  // A thread that is idle (or not started yet) needs a nudge to run its generator.
  sim_.Deliver(w_->app_main, {Action::Run(20'000)});
}

void FramePipeline::MainGenerator(int64_t now) {
  if (now >= to_) return;
  int64_t idx = VsyncIndexAtOrAfter(now);
  if (!frames_.empty()) idx = std::max(idx, frames_.back().index + 1);
  const int64_t vsync = VsyncTs(idx);
  if (vsync >= to_) return;
  const size_t fi = frames_.size();
  frames_.push_back(Frame{idx});
  const int32_t pid = AndroidWorld::kAppPid;
  const std::string e = absl::StrCat("E|", pid);
  auto b = [pid](const std::string& name) { return Action::Print(absl::StrCat("B|", pid, "|", name)); };
  synth::Rng& r = sim_.rng();
  const double p = static_cast<double>(period_) * work_scale_;
  auto work = [&](double frac) {
    return Action::Run(static_cast<int64_t>(p * frac * r.Between(0.85, 1.15)));
  };
  const bool heavy = first_frame_heavy_ && fi == 0;
  std::deque<Action>& prog = sim_.thread(w_->app_main).program;
  prog.push_back(Action::SleepUntil(vsync));
  prog.push_back(Action::Call([this, fi](int64_t t) { frames_[fi].start = t; }));
  prog.push_back(b(absl::StrCat("Choreographer#doFrame ", Token(idx))));
  prog.push_back(b("input"));
  prog.push_back(work(0.03));
  prog.push_back(Action::Print(e));
  prog.push_back(b("animation"));
  prog.push_back(work(0.02));
  prog.push_back(Action::Print(e));
  prog.push_back(b("traversal"));
  prog.push_back(b("measure"));
  prog.push_back(work(heavy ? 0.4 : 0.05));
  prog.push_back(Action::Print(e));
  prog.push_back(b("layout"));
  if (heavy || r.Chance(0.12)) {
    // A new list item scrolls in: its view is inflated and bound.
    prog.push_back(b("RV CreateView"));
    prog.push_back(b("inflate"));
    prog.push_back(work(heavy ? 0.6 : 0.03));
    prog.push_back(Action::Print(e));
    prog.push_back(Action::Print(e));
  }
  prog.push_back(work(heavy ? 0.3 : 0.05));
  prog.push_back(Action::Print(e));
  prog.push_back(b("draw"));
  prog.push_back(work(heavy ? 0.2 : 0.07));
  const std::vector<std::string>& hostile = w_->options().hostile_text;
  if (!hostile.empty()) {  // text the app chose to trace (hostile-input tests)
    prog.push_back(b(hostile[static_cast<size_t>(idx) % hostile.size()]));
    prog.push_back(work(0.01));
    prog.push_back(Action::Print(e));
  }
  prog.push_back(Action::Print(e));
  prog.push_back(Action::Print(e));  // traversal
  if (auto it = injections_.find(idx); it != injections_.end()) {
    frames_[fi].cause = it->second.cause;
    for (Action& a : it->second.main_in_frame) prog.push_back(std::move(a));
  }
  // Hand the frame to RenderThread and wait until it has synced the frame state.
  std::vector<Action> rt;
  rt.push_back(b(absl::StrCat("DrawFrames ", Token(idx))));
  rt.push_back(b("syncFrameState"));
  rt.push_back(work(0.02));
  rt.push_back(Action::Print(e));
  rt.push_back(Action::Signal(w_->app_main));
  rt.push_back(b("dequeueBuffer"));
  if (auto it = injections_.find(idx); it != injections_.end()) {
    for (Action& a : it->second.rt_in_dequeue) rt.push_back(std::move(a));
  }
  rt.push_back(work(0.01));
  rt.push_back(Action::Print(e));
  rt.push_back(b("flush commands"));
  rt.push_back(work(heavy ? 0.4 : 0.12));
  rt.push_back(Action::Print(e));
  rt.push_back(b("queueBuffer"));
  rt.push_back(work(0.015));
  // BLAST: the buffer reaches SurfaceFlinger in a oneway transaction.
  rt.push_back(Action::BinderCall(w_->sf_proc, 40'000,
                                  "AIDL::cpp::ISurfaceComposer::setTransactionState::cppServer",
                                  8, /*oneway=*/true));
  rt.push_back(Action::Print(e));
  rt.push_back(Action::Call([this, fi](int64_t t) {
    frames_[fi].queued = t;
    queue_.push_back(fi);
    if (fi == 0 && on_first_queued) on_first_queued(t);
  }));
  rt.push_back(Action::Print(e));  // DrawFrames
  const int32_t render = w_->app_render;
  auto shared_rt = std::make_shared<std::vector<Action>>(std::move(rt));
  prog.push_back(Action::Call([this, render, shared_rt](int64_t) {
    sim_.Deliver(render, std::move(*shared_rt));
  }));
  prog.push_back(Action::Wait());
  prog.push_back(Action::Print(e));  // doFrame
  prog.push_back(Action::Call([this, fi](int64_t t) { frames_[fi].main_end = t; }));
}

void FramePipeline::SfGenerator(int64_t now) {
  int64_t k = std::max(next_sf_index_, VsyncIndexAtOrAfter(now));
  const int64_t vsync = VsyncTs(k);
  if (vsync >= to_ + 4 * period_ || vsync >= sim_.end()) return;
  next_sf_index_ = k + 1;
  const int32_t pid = AndroidWorld::kSfPid;
  const std::string e = absl::StrCat("E|", pid);
  std::deque<Action>& prog = sim_.thread(w_->sf_main).program;
  prog.push_back(Action::SleepUntil(vsync + 250'000));
  const size_t di = displays_.size();
  displays_.push_back(Display{k});
  prog.push_back(Action::Call([this, di, k](int64_t t) {
    displays_[di].start = t;
    Latch(k);
  }));
  prog.push_back(Action::Print(absl::StrCat("B|", pid, "|commit")));
  prog.push_back(Action::Run(350'000));
  prog.push_back(Action::Print(e));
  prog.push_back(Action::Print(absl::StrCat("B|", pid, "|composite")));
  prog.push_back(Action::Run(900'000));
  prog.push_back(Action::Print(e));
  prog.push_back(Action::Call([this, di](int64_t t) { displays_[di].end = t; }));
}

void FramePipeline::Latch(int64_t vsync_index) {
  if (queue_.empty()) return;
  Frame& f = frames_[queue_.front()];
  if (f.queued > VsyncTs(vsync_index)) return;
  f.latch_index = vsync_index;
  queue_.pop_front();
}

int64_t FramePipeline::first_frame_queued() const {
  return frames_.empty() ? -1 : frames_.front().queued;
}

std::string FramePipeline::CauseFor(const Frame& f) const {
  if (!f.cause.empty()) return f.cause;
  for (const Window& w : windows_) {
    if (f.start < w.to && f.queued > w.from) return w.cause;
  }
  return "none";
}

void FramePipeline::Finish(synth::TraceFile* file) {
  namespace ft = pf::frame_timeline_event;
  std::vector<std::pair<int64_t, std::string>> packets;
  int64_t cookie = 1;
  auto emit = [&](int64_t ts, uint32_t kind, const Writer& body) {
    Writer event;
    event.Message(kind, body);
    Writer packet;
    packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(ts));
    packet.Message(pf::trace_packet::kFrameTimelineEvent, event);
    packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, kSeqFrameTimeline);
    packets.emplace_back(ts, packet.Take());
  };
  auto end = [&](int64_t ts, int64_t c) {
    Writer w;
    w.Int(pf::frame_timeline_frame_end::kCookie, c);
    emit(ts, ft::kFrameEnd, w);
  };
  const int32_t sf = AndroidWorld::kSfPid, app = AndroidWorld::kAppPid;
  for (const Display& d : displays_) {
    if (d.end <= 0) continue;
    {
      namespace ed = pf::frame_timeline_expected_display;
      Writer w;
      w.Int(ed::kCookie, cookie);
      w.Int(ed::kToken, DisplayToken(d.index));
      w.Int(ed::kPid, sf);
      emit(VsyncTs(d.index), ft::kExpectedDisplayFrameStart, w);
      end(VsyncTs(d.index + 1), cookie++);
    }
    namespace ad = pf::frame_timeline_actual_display;
    Writer w;
    w.Int(ad::kCookie, cookie);
    w.Int(ad::kToken, DisplayToken(d.index));
    w.Int(ad::kPid, sf);
    w.Varint(ad::kPresentType, kPresentOnTime);
    w.Bool(ad::kOnTimeFinish, true);
    w.Bool(ad::kGpuComposition, false);
    w.Int(ad::kJankType, pf::frame_timeline_jank::kNone);
    w.Varint(ad::kPredictionType, kPredictionValid);
    w.Varint(ad::kJankSeverityType, kSeverityNone);
    emit(d.start, ft::kActualDisplayFrameStart, w);
    end(d.end, cookie++);
  }
  GroundTruth& truth = w_->truth();
  const std::string layer = w_->LayerName();
  for (const Frame& f : frames_) {
    if (f.latch_index < 0) continue;  // never presented within the trace
    const int64_t deadline = VsyncTs(f.index + 1);
    const bool app_missed = f.queued > deadline;
    const bool late = f.latch_index > f.index + 1;
    int32_t jank = pf::frame_timeline_jank::kNone;
    if (app_missed) {
      jank = pf::frame_timeline_jank::kAppDeadlineMissed;
    } else if (late) {
      jank = pf::frame_timeline_jank::kBufferStuffing;
    }
    {
      namespace es = pf::frame_timeline_expected_surface;
      Writer w;
      w.Int(es::kCookie, cookie);
      w.Int(es::kToken, Token(f.index));
      w.Int(es::kDisplayFrameToken, DisplayToken(f.index + 1));
      w.Int(es::kPid, app);
      w.String(es::kLayerName, layer);
      emit(VsyncTs(f.index), ft::kExpectedSurfaceFrameStart, w);
      end(deadline, cookie++);
    }
    namespace as = pf::frame_timeline_actual_surface;
    Writer w;
    w.Int(as::kCookie, cookie);
    w.Int(as::kToken, Token(f.index));
    w.Int(as::kDisplayFrameToken, DisplayToken(f.latch_index));
    w.Int(as::kPid, app);
    w.String(as::kLayerName, layer);
    w.Varint(as::kPresentType, late ? kPresentLate : kPresentOnTime);
    w.Bool(as::kOnTimeFinish, !app_missed);
    w.Bool(as::kGpuComposition, false);
    w.Int(as::kJankType, jank);
    w.Varint(as::kPredictionType, kPredictionValid);
    w.Bool(as::kIsBuffer, true);
    w.Varint(as::kJankSeverityType, app_missed ? kSeverityFull : kSeverityNone);
    emit(f.start, ft::kActualSurfaceFrameStart, w);
    end(f.queued, cookie++);

    ++truth.frames_total;
    if (injections_.count(f.index)) truth.injected_frame_tokens.push_back(Token(f.index));
    if (jank != pf::frame_timeline_jank::kNone) {
      ++truth.frames_janky;
      if (app_missed) ++truth.frames_app_deadline_missed;
      JankyFrame j;
      j.surface_token = Token(f.index);
      j.display_token = DisplayToken(f.latch_index);
      j.ts = f.start;
      j.dur = f.queued - f.start;
      j.jank_type = app_missed ? "App Deadline Missed" : "Buffer Stuffing";
      j.cause = CauseFor(f);
      truth.janky_frames.push_back(std::move(j));
    }
  }
  std::stable_sort(packets.begin(), packets.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [ts, bytes] : packets) file->WriteBytes(bytes);
}

}  // namespace tw::tracegen
