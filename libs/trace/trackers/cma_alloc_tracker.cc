#include "libs/trace/trackers/cma_alloc_tracker.h"

#include <string>
#include <vector>

#include "libs/trace/trackers/raw_event_args.h"

namespace tw {

CmaAllocTracker::CmaAllocTracker(TraceContext* ctx)
    : ctx_(ctx),
      storage_(ctx->storage),
      start_(storage_->Intern("cma_alloc_start")),
      info_(storage_->Intern("cma_alloc_info")),
      finish_(storage_->Intern("cma_alloc_finish")),
      migrate_range_info_(storage_->Intern("mm_alloc_contig_migrate_range_info")),
      slice_name_(storage_->Intern("mm_cma_alloc")) {}

void CmaAllocTracker::OnFtraceEvent(int64_t ts, const FtraceRawData& raw) {
  if (raw.name == start_) {
    Start(ts, raw);
  } else if (raw.name == info_) {
    Info(ts, raw);
  } else if (raw.name == finish_) {
    Finish(ts, raw);
  } else if (raw.name == migrate_range_info_) {
    if (Kernel() && Kernel()->AtLeast(6, 1)) {
      const uint32_t utid = ctx_->processes.GetOrCreateThread(raw.pid);
      migrations_[utid] = {Int(raw, storage_->Intern("nr_migrated")),
                           Int(raw, storage_->Intern("nr_reclaimed")),
                           Int(raw, storage_->Intern("nr_mapped"))};
    }
  }
}

const std::optional<KernelVersion>& CmaAllocTracker::Kernel() {
  if (!kernel_known_) {
    kernel_known_ = true;
    if (auto release = storage_->GetMetadataString("system_release")) {
      kernel_ = ParseKernelVersion(*release);
    }
  }
  return kernel_;
}

uint32_t CmaAllocTracker::Track(int32_t pid) {
  return ctx_->tracks.InternThreadTrack(ctx_->processes.GetOrCreateThread(pid));
}

int64_t CmaAllocTracker::Int(const FtraceRawData& raw, StringId key) const {
  return RawIntArg(raw, key).value_or(0);
}

StringId CmaAllocTracker::Name(const FtraceRawData& raw) {
  return storage_->Intern(RawStringArg(*storage_, raw, storage_->Intern("name")));
}

Arg CmaAllocTracker::UintArg(std::string_view key, int64_t value) {
  return ctx_->args.MakeArg(key, ArgValue::Uint(static_cast<uint64_t>(value)));
}

void CmaAllocTracker::Start(int64_t ts, const FtraceRawData& raw) {
  // Before 5.10 nothing ends an allocation.
  if (!Kernel() || !Kernel()->AtLeast(5, 10)) return;
  const uint32_t track = Track(raw.pid);
  // A new allocation starts with no migration seen yet (one may be skipped).
  if (Kernel()->AtLeast(6, 1)) migrations_[ctx_->processes.GetOrCreateThread(raw.pid)] = {};
  ctx_->slices.Begin(ts, track, kNullStringId, slice_name_, {});
  storage_->ExtendBounds(ts);
}

void CmaAllocTracker::Info(int64_t ts, const FtraceRawData& raw) {
  if (!Kernel() || !Kernel()->AtLeast(5, 10) || Kernel()->AtLeast(6, 1)) return;
  auto field = [&](const char* name) { return Int(raw, storage_->Intern(name)); };
  std::vector<Arg> args = {
      ctx_->args.MakeArg("cma_name", ArgValue::String(Name(raw))),
      UintArg("cma_pfn", field("pfn")),
      UintArg("cma_req_pages", field("count")),
      UintArg("cma_nr_migrated", field("nr_migrated")),
      UintArg("cma_nr_reclaimed", field("nr_reclaimed")),
      UintArg("cma_nr_mapped", field("nr_mapped")),
      UintArg("cma_nr_isolate_fail", field("err_iso")),
      UintArg("cma_nr_migrate_fail", field("err_mig")),
      UintArg("cma_nr_test_fail", field("err_test"))};
  ctx_->slices.End(ts, Track(raw.pid), kNullStringId, kNullStringId, args);
  storage_->ExtendBounds(ts);
}

void CmaAllocTracker::Finish(int64_t ts, const FtraceRawData& raw) {
  if (!Kernel() || !Kernel()->AtLeast(6, 1)) return;
  const uint32_t utid = ctx_->processes.GetOrCreateThread(raw.pid);
  Migration migration;
  if (auto it = migrations_.find(utid); it != migrations_.end()) migration = it->second;
  auto field = [&](const char* name) { return Int(raw, storage_->Intern(name)); };
  std::vector<Arg> args = {
      ctx_->args.MakeArg("cma_name", ArgValue::String(Name(raw))),
      UintArg("cma_pfn", field("pfn")),
      UintArg("cma_req_pages", field("count")),
      UintArg("cma_nr_migrated", migration.nr_migrated),
      UintArg("cma_nr_reclaimed", migration.nr_reclaimed),
      UintArg("cma_nr_mapped", migration.nr_mapped)};
  ctx_->slices.End(ts, Track(raw.pid), kNullStringId, kNullStringId, args);
  storage_->ExtendBounds(ts);
}

}  // namespace tw
