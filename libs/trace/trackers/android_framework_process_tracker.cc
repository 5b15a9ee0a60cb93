#include "libs/trace/trackers/android_framework_process_tracker.h"

namespace tw {

uint32_t AndroidFrameworkProcessTracker::RowFor(uint32_t upid) {
  auto [it, inserted] = rows_.try_emplace(upid, 0);
  if (inserted) it->second = ctx_->storage->android_track_event_process.Insert({.upid = upid});
  return it->second;
}

void AndroidFrameworkProcessTracker::OnEvent(int64_t ts, const AndroidProcessLifecycleData& e) {
  ProcessTracker& processes = ctx_->processes;
  AndroidTrackEventProcessTable& t = ctx_->storage->android_track_event_process;
  if (!e.is_start) {
    const std::optional<uint32_t> utid = processes.GetThreadOrNull(e.pid);
    if (!utid) return;
    const std::optional<uint32_t> upid = ctx_->storage->thread.upid.Get(*utid);
    if (!upid) return;
    t.fw_end_ts.Set(RowFor(*upid), ts);
    processes.EndThread(ts, e.pid);
    return;
  }
  const uint32_t upid = processes.GetOrCreateProcess(e.pid);
  if (e.uid) processes.SetProcessUid(upid, *e.uid);
  if (e.process_name != kNullStringId) {
    processes.UpdateProcessName(upid, e.process_name, ProcessNamePriority::kOther);
  }
  const uint32_t row = RowFor(upid);
  if (e.start_seq_id) t.start_seq_id.Set(row, *e.start_seq_id);
  if (e.package_uid) t.package_uid.Set(row, *e.package_uid);
  if (e.caller_uid) t.caller_uid.Set(row, *e.caller_uid);
  if (e.defining_uid) t.defining_uid.Set(row, *e.defining_uid);
  if (!t.fw_start_ts.Get(row)) t.fw_start_ts.Set(row, ts);  // a restart keeps the first
  if (e.trigger_type != kNullStringId) t.trigger_type.Set(row, e.trigger_type);
  if (e.hosting_type != kNullStringId) t.hosting_type.Set(row, e.hosting_type);
  if (e.hosting_name != kNullStringId) t.hosting_name.Set(row, e.hosting_name);
  if (e.bind_application_delay_ms) {
    t.bind_application_delay_ms.Set(row, *e.bind_application_delay_ms);
  }
  if (e.process_start_delay_ms) t.process_start_delay_ms.Set(row, *e.process_start_delay_ms);
}

}  // namespace tw
