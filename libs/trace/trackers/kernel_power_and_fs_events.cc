// Wakeup sources and file reads (KernelEventTracker's handlers), as trace_processor reads them:
//   wakeup_source_activate / _deactivate → a "Wakelock(<name>)" slice per wakeup source on its
//       own track, from its first activation to the deactivation that balances it (nested
//       activations of a held source are counted, not sliced);
//   android_fs_dataread_start / _end → "android_fs_data_read" slices (args file_path,
//       offset_start, bytes_read_start; offset_end, bytes_read_end) on the "android_fs" track
//       set, one track per concurrent reading thread; an end is matched to its start by
//       (inode, offset), and one with no start is dropped.

#include <string>

#include "libs/trace/trackers/kernel_event_tracker.h"

namespace tw {

uint32_t KernelEventTracker::WakelockTrack(StringId source) {
  return ctx_->tracks.InternTrack(
      "wakesource_wakelock", "slice",
      storage_->Intern("Wakelock(" + std::string(storage_->Str(source)) + ")"),
      {ctx_->tracks.DimString("wakelock_event", source)});
}

void KernelEventTracker::WakeupSourceActivate(int64_t ts, const FtraceRawData& raw) {
  const StringId source = Str(raw, "name");
  if (active_wakelocks_[source]++ > 0) return;  // already held: one slice
  ctx_->slices.Begin(ts, WakelockTrack(source), kNullStringId,
                     storage_->Intern("Wakelock(" + std::string(storage_->Str(source)) + ")"),
                     {});
}

void KernelEventTracker::WakeupSourceDeactivate(int64_t ts, const FtraceRawData& raw) {
  const StringId source = Str(raw, "name");
  uint32_t& count = active_wakelocks_[source];
  const uint32_t before = count;
  count = before > 0 ? before - 1 : 0;
  if (before != 1) return;  // still held, or never seen active
  ctx_->slices.End(ts, WakelockTrack(source), kNullStringId, kNullStringId, {});
}

uint32_t KernelEventTracker::AndroidFsTrack(int64_t tid, bool begin) {
  const uint32_t set = fs_read_tracks_.SetFor("android_fs");
  auto factory = [this](uint32_t, int64_t) {
    return ctx_->tracks.CreateTrack(storage_->Intern("android_fs"), "android_fs", "slice");
  };
  return begin ? fs_read_tracks_.Begin(set, tid, factory) : fs_read_tracks_.End(set, tid, factory);
}

void KernelEventTracker::AndroidFsDatareadStart(int64_t ts, const FtraceRawData& raw) {
  const int64_t offset = Int(raw, "offset");
  fs_reads_[{Int(raw, "ino"), offset}] = raw.pid;
  ctx_->slices.Begin(ts, AndroidFsTrack(raw.pid, /*begin=*/true), kNullStringId,
                     storage_->Intern("android_fs_data_read"),
                     {ctx_->args.MakeArg("file_path", ArgValue::String(Str(raw, "pathbuf"))),
                      ctx_->args.MakeArg("offset_start", ArgValue::Int(offset)),
                      ctx_->args.MakeArg("bytes_read_start", ArgValue::Int(Int(raw, "bytes")))});
}

void KernelEventTracker::AndroidFsDatareadEnd(int64_t ts, const FtraceRawData& raw) {
  const int64_t offset = Int(raw, "offset");
  auto it = fs_reads_.find({Int(raw, "ino"), offset});
  if (it == fs_reads_.end()) return;
  const int64_t reader = it->second;
  fs_reads_.erase(it);
  ctx_->slices.End(ts, AndroidFsTrack(reader, /*begin=*/false), kNullStringId, kNullStringId,
                   {ctx_->args.MakeArg("offset_end", ArgValue::Int(offset)),
                    ctx_->args.MakeArg("bytes_read_end", ArgValue::Int(Int(raw, "bytes")))});
}

}  // namespace tw
