#include "libs/trace/trackers/track_event_tracker.h"

#include <algorithm>
#include <string>

#include "libs/trace/trackers/arg_merge.h"
#include "libs/trace/trackers/async_track_sets.h"
#include "libs/trace/trackers/descriptor_tracks.h"
#include "libs/trace/trackers/flow_tracker.h"
#include "libs/trace/trackers/legacy_event_tracks.h"
#include "libs/trace/trackers/state_tracker.h"
#include "libs/trace/trackers/trace_context.h"
#include "libs/trace/trackers/track_event_importer.h"

namespace tw {
namespace {

// Map keys in a fixed order: arg set ids must not depend on hash iteration order.
template <typename Map>
std::vector<typename Map::key_type> SortedKeys(const Map& map) {
  std::vector<typename Map::key_type> keys;
  keys.reserve(map.size());
  for (const auto& [k, v] : map) keys.push_back(k);
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace

TrackEventTracker::TrackEventTracker(TraceContext* ctx)
    : ctx_(ctx),
      sets_(std::make_unique<AsyncTrackSets>()),
      descriptors_(std::make_unique<DescriptorTracks>(ctx, &registry_, sets_.get())),
      legacy_tracks_(std::make_unique<LegacyEventTracks>(ctx, sets_.get())),
      flows_(std::make_unique<FlowTracker>(ctx->storage, &ctx->args, &ctx->slices)),
      states_(std::make_unique<StateTracker>(ctx->storage, &ctx->args)) {}

TrackEventTracker::~TrackEventTracker() = default;

void TrackEventTracker::OnTrackEvent(int64_t ts, TrackEventData& event) {
  switch (event.kind) {
    case TrackEventData::Kind::kTrackDescriptor:
      OnTrackDescriptor(event);
      return;
    case TrackEventData::Kind::kThreadDescriptor:
      OnThreadDescriptor(event);
      return;
    case TrackEventData::Kind::kProcessDescriptor:
      OnProcessDescriptor(event);
      return;
    case TrackEventData::Kind::kEvent:
      break;
  }
  if (OutsideRangeOfInterest(ts)) {
    ctx_->storage->IncrementStat("track_event_dropped_packets_outside_of_range_of_interest");
    return;
  }
  const Parts parts{ctx_, descriptors_.get(), legacy_tracks_.get(), flows_.get(), states_.get(),
                    &open_slice_args_};
  TrackEventImporter importer(parts, ts, event);
  if (!importer.Import()) ctx_->storage->IncrementStat("track_event_parser_errors");
}

bool TrackEventTracker::OutsideRangeOfInterest(int64_t ts) {
  if (!crop_to_range_of_interest_) return false;
  if (!range_of_interest_start_ns_) {
    std::optional<int64_t> start;
    if (auto us = ctx_->storage->GetMetadataInt("range_of_interest_start_us")) start = *us * 1000;
    range_of_interest_start_ns_ = start;
  }
  return *range_of_interest_start_ns_ && ts < **range_of_interest_start_ns_;
}

void TrackEventTracker::OnTrackCounter(int64_t ts, uint64_t track_uuid, double value) {
  const std::optional<uint32_t> track = descriptors_->Intern(
      track_uuid, DescriptorTracks::Use::kCounter, kNullStringId, std::nullopt);
  if (!track) {
    ctx_->storage->IncrementStat("track_event_parser_errors");
    return;
  }
  ctx_->storage->counter.Insert({.ts = ts, .track_id = *track, .value = value});
  ctx_->storage->ExtendBounds(ts);
}

uint32_t TrackEventTracker::UpdateThreadFromDescriptor(const TrackEventData::ThreadInfo& thread) {
  const int64_t tid = thread.is_sandboxed ? SyntheticTid(thread.tid, thread.pid) : thread.tid;
  const uint32_t utid = ctx_->processes.UpdateThread(tid, thread.pid);
  ctx_->processes.UpdateThreadName(utid, thread.name, ThreadNamePriority::kTrackDescriptor);
  return utid;
}

void TrackEventTracker::ApplyProcessDescriptor(const TrackEventData::ProcessInfo& process) {
  ProcessTracker& processes = ctx_->processes;
  const uint32_t upid = processes.GetOrCreateProcess(process.pid);
  processes.UpdateProcessName(upid, process.name, ProcessNamePriority::kTrackDescriptor);
  if (process.start_timestamp_ns) processes.SetStartTsIfUnset(upid, *process.start_timestamp_ns);
  for (size_t i = 0; i < process.labels.size(); ++i) {
    AddProcessArg(upid, ctx_->args.MakeArg("chrome.process_label",
                                           "chrome.process_label[" + std::to_string(i) + "]",
                                           ArgValue::String(process.labels[i])));
  }
}

void TrackEventTracker::OnTrackDescriptor(const TrackEventData& d) {
  // Resolving starts (or finds) the described thread/process, in time order.
  if (!descriptors_->Resolve(d.descriptor_uuid)) {
    ctx_->storage->IncrementStat("track_event_parser_errors");
    return;
  }
  descriptors_->RefreshName(d.descriptor_uuid);
  if (d.thread) {
    UpdateThreadFromDescriptor(*d.thread);
  } else if (d.process) {
    ApplyProcessDescriptor(*d.process);
    if (d.chrome_process) {
      const uint32_t upid = ctx_->processes.GetOrCreateProcess(d.process->pid);
      if (d.chrome_process->host_app_package_name != kNullStringId) {
        AddProcessArg(upid, ctx_->args.MakeArg(
                                "chrome.host_app_package_name",
                                ArgValue::String(d.chrome_process->host_app_package_name)));
      }
      if (d.chrome_process->crash_trace_id) {
        AddProcessArg(upid, ctx_->args.MakeArg("chrome.crash_trace_id",
                                               ArgValue::Uint(*d.chrome_process->crash_trace_id)));
      }
    }
  }
}

void TrackEventTracker::OnThreadDescriptor(const TrackEventData& d) {
  if (d.thread) UpdateThreadFromDescriptor(*d.thread);
}

void TrackEventTracker::OnProcessDescriptor(const TrackEventData& d) {
  if (d.process) ApplyProcessDescriptor(*d.process);
}

void TrackEventTracker::AddProcessArg(uint32_t upid, const Arg& arg) {
  process_args_[upid].push_back(arg);
}

void TrackEventTracker::AddThreadArg(uint32_t utid, const Arg& arg) {
  thread_args_[utid].push_back(arg);
}

void TrackEventTracker::Finish() {
  TraceStorage* storage = ctx_->storage;
  ArgsTracker& args = ctx_->args;

  // Slices never ended (or ended by another source): their begin args.
  SliceTable& slices = storage->slice;
  for (uint32_t row : SortedKeys(open_slice_args_)) {
    ArgSetBuilder merged;
    if (!slices.arg_set_id.IsNull(row)) merged = ArgSetBuilder(args.GetArgSet(slices.arg_set_id[row]));
    merged.Merge(open_slice_args_[row]);
    if (auto set = ctx_->slices.AddArgSet(std::move(merged).Take())) {
      slices.arg_set_id.Set(row, *set);
    }
  }
  open_slice_args_.clear();

  for (const auto& [upid, rank] : descriptors_->process_sort_hints()) {
    AddProcessArg(upid, args.MakeArg("process_sort_index_hint", ArgValue::Int(rank)));
  }
  for (const auto& [utid, rank] : descriptors_->thread_sort_hints()) {
    AddThreadArg(utid, args.MakeArg("thread_sort_index_hint", ArgValue::Int(rank)));
  }

  // Added to whatever other importers recorded for the process/thread.
  ProcessTable& processes = storage->process;
  for (uint32_t upid : SortedKeys(process_args_)) {
    ArgSetBuilder merged;
    if (!processes.arg_set_id.IsNull(upid)) merged = ArgSetBuilder(args.GetArgSet(processes.arg_set_id[upid]));
    merged.Merge(process_args_[upid]);
    if (auto set = args.AddArgSet(merged.args())) processes.arg_set_id.Set(upid, *set);
  }
  process_args_.clear();
  ThreadTable& threads = storage->thread;
  for (uint32_t utid : SortedKeys(thread_args_)) {
    ArgSetBuilder merged;
    if (!threads.arg_set_id.IsNull(utid)) merged = ArgSetBuilder(args.GetArgSet(threads.arg_set_id[utid]));
    merged.Merge(thread_args_[utid]);
    if (auto set = args.AddArgSet(merged.args())) threads.arg_set_id.Set(utid, *set);
  }
  thread_args_.clear();
}

}  // namespace tw
