#include "libs/trace/trackers/suspend_resume_tracker.h"

#include <optional>
#include <string>

#include "libs/trace/trackers/track_spec.h"

namespace tw {

SuspendResumeTracker::SuspendResumeTracker(TraceContext* ctx) : ctx_(ctx) {
  TraceStorage* s = ctx->storage;
  minimal_event_ = s->Intern("suspend_resume_minimal");
  latency_event_ = s->Intern("suspend_resume");
  start_key_ = s->Intern("start");
  action_key_ = s->Intern("action");
  val_key_ = s->Intern("val");
  minimal_track_ = s->Intern("Suspend/Resume Minimal");
  latency_track_ = s->Intern("Suspend/Resume Latency");
  suspended_ = s->Intern("Suspended");
  main_event_ = s->Intern("Main Kernel Suspend Event");
}

void SuspendResumeTracker::OnFtraceEvent(int64_t ts, const FtraceRawData& raw) {
  if (raw.name != minimal_event_ && raw.name != latency_event_) return;
  TraceStorage* s = ctx_->storage;
  std::optional<int64_t> start, val;
  std::optional<std::string> action;
  for (const Arg& a : raw.args) {
    const bool number = a.value.type == ArgValue::Type::kInt ||
                        a.value.type == ArgValue::Type::kUint ||
                        a.value.type == ArgValue::Type::kBool;
    if (a.key == start_key_ && number) start = a.value.int_value;
    if (a.key == val_key_ && number) val = a.value.int_value;
    if (a.key == action_key_ && a.value.type == ArgValue::Type::kString) {
      action = std::string(s->Str(a.value.string_value));
    }
  }
  if (!start) return;
  if (raw.name == minimal_event_) {
    const uint32_t track = ctx_->tracks.InternGlobalTrack(minimal_track_, "suspend_resume_minimal", false);
    if (*start) {
      ctx_->slices.Begin(ts, track, kNullStringId, suspended_, {});
    } else {
      ctx_->slices.End(ts, track, kNullStringId, kNullStringId, {});
    }
    return;
  }
  if (!action) return;
  // timekeeping_freeze's val is the cpu that froze; the pair may come from different cpus.
  const int64_t value = *action == "timekeeping_freeze" ? 0 : val.value_or(0);
  const StringId name = s->Intern(*action + "(" + std::to_string(value) + ")");
  const uint32_t set = latency_tracks_.SetFor("suspend_resume");
  auto factory = [this](uint32_t, int64_t group) {
    TrackSpec spec;
    spec.name = latency_track_;
    spec.type = "suspend_resume";
    spec.track_group_id = group;
    return CreateTrack(ctx_->storage, &ctx_->args, spec);
  };
  const int64_t cookie = static_cast<int64_t>(name);
  auto end = [&](int64_t c) {
    ctx_->slices.End(ts, latency_tracks_.End(set, c, factory), kNullStringId, kNullStringId, {});
  };
  if (!*start) {
    end(cookie);
    if (*action == "suspend_enter") {
      state_ = State::kIdle;
    } else if (*action == "thaw_processes" && state_ == State::kFreezing) {
      // A failed suspend_prepare: the kernel thaws inside freeze_processes and never ends
      // suspend_enter, so end it here.
      end(suspend_enter_cookie_);
      state_ = State::kIdle;
    }
    return;
  }
  if (*action == "suspend_enter") {
    state_ = State::kEntering;
    suspend_enter_cookie_ = cookie;
  } else if (*action == "freeze_processes" && state_ == State::kEntering) {
    state_ = State::kFreezing;
  }
  ArgsTracker& args = ctx_->args;
  ctx_->slices.Begin(
      ts, latency_tracks_.Begin(set, cookie, factory), kNullStringId, name,
      {args.MakeArg("utid", ArgValue::Uint(ctx_->processes.GetOrCreateThread(raw.pid))),
       args.MakeArg("event_type", ArgValue::String(main_event_)),
       args.MakeArg("cpu", ArgValue::Uint(raw.cpu))});
}

}  // namespace tw
