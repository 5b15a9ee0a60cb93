#include "libs/trace/trackers/gpu_stage_tracker.h"

#include <string>

#include "libs/trace/trackers/gpu_tracker.h"
#include "libs/trace/trackers/trace_context.h"
#include "libs/trace/trackers/track_spec.h"

namespace tw {
namespace {

// VkObjectType values (Vulkan specification) of the objects render stages refer to.
constexpr int32_t kVkCommandBuffer = 6, kVkRenderPass = 18, kVkFramebuffer = 24;

const char* GraphicsApiName(int32_t api) {
  switch (api) {
    case 1: return "OPEN_GL";
    case 2: return "VULKAN";
    case 3: return "OPEN_CL";
    case 4: return "CUDA";
    case 5: return "HIP";
    default: return "UNDEFINED";
  }
}

const char* LogSeverityName(int64_t severity) {
  static const char* kNames[] = {"UNSPECIFIED", "VERBOSE", "DEBUG", "INFO", "WARNING", "ERROR"};
  if (severity < 0 || severity >= 6) return "UNKNOWN_SEVERITY";
  return kNames[severity];
}

// The subpasses a render stage covers, from the 64-bit words of its index mask: "0,3,64".
std::string Subpasses(const std::vector<uint64_t>& mask) {
  std::string out;
  uint32_t bit_index = 0;
  for (uint64_t word : mask) {
    do {
      if (word & 1) {
        if (!out.empty()) out.push_back(',');
        out += std::to_string(bit_index);
      }
      word >>= 1;
      ++bit_index;
    } while (word != 0);
    // The next word starts at the next multiple of 64.
    bit_index = ((bit_index - 1) / 64 + 1) * 64;
  }
  return out;
}

}  // namespace

void GpuStageTracker::OnEvent(int64_t ts, const GpuStageData& e) {
  switch (e.kind) {
    case GpuStageData::Kind::kRenderStage: return RenderStage(ts, e);
    case GpuStageData::Kind::kLog: return Log(ts, e);
    case GpuStageData::Kind::kVulkanObjectName:
      debug_names_[e.object_type][e.object] = e.object_name;
      return;
    case GpuStageData::Kind::kVulkanQueueSubmit: return QueueSubmit(ts, e);
    case GpuStageData::Kind::kFrequency: return Frequency(ts, e);
  }
}

uint32_t GpuStageTracker::StageTrackSet(uint32_t ugpu, uint32_t gpu_id, std::string_view source,
                                        uint64_t hw_queue_id, StringId dimension_name) {
  std::string key = std::to_string(ugpu);
  key.append("|").append(std::to_string(gpu_id)).append("|").append(source);
  key.append("|").append(std::to_string(hw_queue_id)).append("|");
  key.append(std::to_string(dimension_name));
  return stage_tracks_.SetFor(key);
}

AsyncTrackSets::Factory GpuStageTracker::StageTrackFactory(uint32_t ugpu, uint32_t gpu_id,
                                                           std::string_view source,
                                                           uint64_t hw_queue_id,
                                                           StringId dimension_name,
                                                           StringId track_name,
                                                           StringId description) {
  return [this, ugpu, gpu_id, source = std::string(source), hw_queue_id, dimension_name,
          track_name, description](uint32_t index, int64_t group) {
    ArgsTracker& a = ctx_->args;
    TrackSpec spec;
    spec.name = track_name;
    spec.type = "gpu_render_stage";
    spec.dimensions = {
        a.MakeArg("ugpu", ArgValue::Uint(ugpu)),
        a.MakeArg("gpu", ArgValue::Uint(gpu_id)),
        a.MakeArg("render_stage_source", ArgValue::String(ctx_->storage->Intern(source))),
        a.MakeArg("hwqueue_id", ArgValue::Uint(static_cast<uint32_t>(hw_queue_id))),
    };
    // A queue known only by its index has no name dimension.
    if (dimension_name != kNullStringId) {
      spec.dimensions.push_back(a.MakeArg("hwqueue_name", ArgValue::String(dimension_name)));
    }
    spec.dimensions.push_back(a.MakeArg("track_compressor_idx", ArgValue::Uint(index)));
    if (description != kNullStringId) {
      spec.source_args = {a.MakeArg("description", ArgValue::String(description))};
    }
    spec.track_group_id = group;
    return CreateTrack(ctx_->storage, &a, spec);
  };
}

void GpuStageTracker::DescribeLegacyQueue(uint32_t gpu_id, uint32_t index,
                                          const GpuStageData::Description& q) {
  if (!q.has_name) return;
  if (index >= legacy_queues_.size()) legacy_queues_.resize(index + 1);
  legacy_queues_[index] = Queue{q.name, q.description};
  // A track made earlier for this queue under a placeholder name takes the real one.
  auto it = placeholder_queues_.find(index);
  if (it == placeholder_queues_.end() || !it->second) return;
  it->second = false;
  const uint32_t ugpu = gpus_->GetOrCreateGpu(gpu_id);
  const uint32_t set = StageTrackSet(ugpu, gpu_id, "id", index, kNullStringId);
  const uint32_t track = stage_tracks_.First(
      set, StageTrackFactory(ugpu, gpu_id, "id", index, kNullStringId, q.name, q.description));
  TrackTable& t = ctx_->storage->track;
  t.name.Set(track, q.name);
  if (auto args = ctx_->args.AddArgSet(
          {ctx_->args.MakeArg("description", ArgValue::String(q.description))})) {
    t.source_arg_set_id.Set(track, *args);
  }
}

void GpuStageTracker::InsertContext(const GpuStageData& e) {
  if (!e.context || !e.context_interned || !contexts_.insert(*e.context).second) return;
  GpuContextTable& t = ctx_->storage->gpu_context;
  const uint32_t row = t.Insert({.context_id = static_cast<uint32_t>(*e.context)});
  if (e.context_has_pid) t.pid.Set(row, static_cast<uint32_t>(e.context_pid));
  if (e.context_api) t.api.Set(row, ctx_->storage->Intern(GraphicsApiName(*e.context_api)));
}

StringId GpuStageTracker::DebugName(int32_t object_type, uint64_t handle) {
  auto type = debug_names_.find(object_type);
  if (type == debug_names_.end()) return kNullStringId;
  auto name = type->second.find(handle);
  if (name == type->second.end()) return kNullStringId;
  return ctx_->storage->Intern(name->second);
}

void GpuStageTracker::RenderStage(int64_t ts, const GpuStageData& e) {
  TraceStorage* storage = ctx_->storage;
  // Specifications first: they describe this very event's queue and stage.
  for (uint32_t i = 0; i < e.spec_hw_queues.size(); ++i) {
    DescribeLegacyQueue(e.gpu_id, i, e.spec_hw_queues[i]);
  }
  for (const GpuStageData::Description& s : e.spec_stages) {
    if (s.has_name) legacy_stages_.emplace_back(s.name, s.description);
  }
  int32_t pid = e.spec_pid.value_or(0);
  if (e.context_interned) {
    pid = e.context_pid;
    InsertContext(e);
  }
  if (!e.event_id || e.queue_missing) return;

  // The queue's track.
  StringId track_name = kNullStringId, description = kNullStringId,
           dimension_name = kNullStringId;
  const char* source = "id";
  if (e.queue_interned) {
    source = "iid";
    track_name = e.queue_name;
    dimension_name = track_name;
    description = e.queue_description;
  } else if (e.hw_queue_id < legacy_queues_.size() && legacy_queues_[e.hw_queue_id]) {
    track_name = legacy_queues_[e.hw_queue_id]->name;
    description = legacy_queues_[e.hw_queue_id]->description;
    dimension_name = track_name;
  } else {
    track_name = storage->Intern("Unknown GPU Queue " + std::to_string(e.hw_queue_id));
    placeholder_queues_[e.hw_queue_id] = true;
  }
  const uint32_t ugpu = gpus_->GetOrCreateGpu(e.gpu_id);
  const int64_t dur = static_cast<int64_t>(e.duration);
  const uint32_t track = stage_tracks_.Scoped(
      StageTrackSet(ugpu, e.gpu_id, source, e.hw_queue_id, dimension_name), ts, dur,
      StageTrackFactory(ugpu, e.gpu_id, source, e.hw_queue_id, dimension_name, track_name,
                        description));

  // The slice's name: explicit, else its stage's.
  StringId name = e.name;
  if (!e.has_name) {
    if (e.stage_interned) {
      name = e.stage_found ? e.stage_name : kNullStringId;
    } else if (e.stage_id < legacy_stages_.size()) {
      name = legacy_stages_[e.stage_id].first;
    } else {
      name = storage->Intern("render stage(" + std::to_string(e.stage_id) + ")");
    }
  }

  ArgsTracker& a = ctx_->args;
  std::vector<Arg> args;
  if (e.stage_interned) {
    if (e.stage_found) {
      args.push_back(a.MakeArg("render_stage_category", ArgValue::Int(e.stage_category)));
      args.push_back(a.MakeArg("description", ArgValue::String(e.stage_description)));
    }
  } else if (e.has_stage_id && e.stage_id < legacy_stages_.size() &&
             legacy_stages_[e.stage_id].second != kNullStringId) {
    args.push_back(a.MakeArg("description", ArgValue::String(legacy_stages_[e.stage_id].second)));
  }
  args.insert(args.end(), e.compute_args.begin(), e.compute_args.end());
  if (e.render_pass_instance_id != 0) {
    args.push_back(a.MakeArg(
        "correlation_id",
        ArgValue::String(storage->Intern("rp:#" + std::to_string(e.render_pass_instance_id)))));
  }
  for (const auto& [key, value] : e.extra_data) {
    args.push_back(Arg{key, key, ArgValue::String(value)});
  }
  args.push_back(a.MakeArg("context_id", ArgValue::Uint(e.context.value_or(0))));
  args.push_back(a.MakeArg("render_target", ArgValue::Uint(e.render_target_handle)));
  args.push_back(a.MakeArg("render_target_name",
                           ArgValue::String(DebugName(kVkFramebuffer, e.render_target_handle))));
  args.push_back(a.MakeArg("render_pass", ArgValue::Uint(e.render_pass_handle)));
  args.push_back(a.MakeArg("render_pass_name",
                           ArgValue::String(DebugName(kVkRenderPass, e.render_pass_handle))));
  args.push_back(a.MakeArg(
      "render_subpasses",
      ArgValue::String(e.render_subpass_index_mask.empty()
                           ? kNullStringId
                           : storage->Intern(Subpasses(e.render_subpass_index_mask)))));
  args.push_back(a.MakeArg("command_buffer", ArgValue::Uint(e.command_buffer_handle)));
  args.push_back(a.MakeArg(
      "command_buffer_name",
      ArgValue::String(DebugName(kVkCommandBuffer, e.command_buffer_handle))));
  args.push_back(a.MakeArg("submission_id", ArgValue::Int(e.submission_id)));
  args.push_back(a.MakeArg("hw_queue_id", ArgValue::Uint(e.hw_queue_id)));
  args.push_back(a.MakeArg(
      "upid", ArgValue::Int(ctx_->processes.GetOrCreateProcess(static_cast<uint32_t>(pid)))));

  const std::optional<uint32_t> slice =
      ctx_->slices.Scoped(ts, track, kNullStringId, name, dur, args);
  if (!slice) return;
  AddStageSlice(*e.event_id, *slice);
  for (uint64_t waited : e.event_wait_ids) AddEventWait(waited, *slice);
}

void GpuStageTracker::Flow(uint32_t out, uint32_t in) {
  ctx_->storage->flow.Insert({.slice_out = out, .slice_in = in});
}

void GpuStageTracker::AddStageSlice(uint64_t event_id, uint32_t slice) {
  stage_slices_[event_id].push_back(slice);
  if (auto it = submitting_slice_.find(event_id); it != submitting_slice_.end()) {
    Flow(it->second, slice);
  }
  if (auto it = terminating_slice_.find(event_id); it != terminating_slice_.end()) {
    Flow(slice, it->second);
  }
  if (auto it = waiting_slices_.find(event_id); it != waiting_slices_.end()) {
    for (uint32_t waiter : it->second) Flow(slice, waiter);
  }
}

void GpuStageTracker::AddRenderStageSubmission(uint64_t event_id, uint32_t slice) {
  submitting_slice_[event_id] = slice;
  if (auto it = stage_slices_.find(event_id); it != stage_slices_.end()) {
    for (uint32_t stage : it->second) Flow(slice, stage);
  }
}

void GpuStageTracker::AddRenderStageWait(uint64_t event_id, uint32_t slice) {
  terminating_slice_[event_id] = slice;
  if (auto it = stage_slices_.find(event_id); it != stage_slices_.end()) {
    for (uint32_t stage : it->second) Flow(stage, slice);
  }
}

void GpuStageTracker::AddEventWait(uint64_t waited_event_id, uint32_t slice) {
  if (auto it = stage_slices_.find(waited_event_id); it != stage_slices_.end()) {
    for (uint32_t stage : it->second) Flow(stage, slice);
  }
  waiting_slices_[waited_event_id].push_back(slice);
}

void GpuStageTracker::Log(int64_t ts, const GpuStageData& e) {
  TraceStorage* storage = ctx_->storage;
  const uint32_t track =
      ctx_->tracks.InternTrack("gpu_log", "slice", storage->Intern("GPU Log"), {});
  std::vector<Arg> args;
  if (e.has_tag) args.push_back(ctx_->args.MakeArg("tag", ArgValue::String(e.tag)));
  if (e.has_message) args.push_back(ctx_->args.MakeArg("message", ArgValue::String(e.message)));
  ctx_->slices.Scoped(ts, track, kNullStringId, storage->Intern(LogSeverityName(e.severity)), 0,
                      args);
}

void GpuStageTracker::QueueSubmit(int64_t ts, const GpuStageData& e) {
  TraceStorage* storage = ctx_->storage;
  ArgsTracker& a = ctx_->args;
  const uint32_t track =
      ctx_->tracks.InternTrack("vulkan_events", "slice", storage->Intern("Vulkan Events"), {});
  std::vector<Arg> args = {a.MakeArg("pid", ArgValue::Int(e.pid)),
                           a.MakeArg("tid", ArgValue::Int(e.tid))};
  for (size_t i = 0; i < e.command_buffers.size(); ++i) {
    // The first buffer also as a flat "command_buffer", as older consumers expect.
    if (i == 0) args.push_back(a.MakeArg("command_buffer", ArgValue::Uint(e.command_buffers[0])));
    args.push_back(a.MakeArg("command_buffers", "command_buffers[" + std::to_string(i) + "]",
                             ArgValue::Uint(e.command_buffers[i])));
  }
  args.push_back(a.MakeArg("submission_id", ArgValue::Int(e.submission_id)));
  ctx_->slices.Scoped(ts, track, kNullStringId, storage->Intern("vkQueueSubmit"),
                      static_cast<int64_t>(e.duration_ns), args);
}

void GpuStageTracker::Frequency(int64_t ts, const GpuStageData& e) {
  TrackTracker& tracks = ctx_->tracks;
  const uint32_t ugpu = gpus_->GetOrCreateGpu(e.gpu_id);
  const uint32_t track = tracks.InternTrack(
      "gpu_frequency", "counter", ctx_->storage->Intern("gpufreq"),
      {tracks.Dim("ugpu", ugpu), tracks.Dim("gpu", e.gpu_id)}, ctx_->storage->Intern("kHz"));
  ctx_->storage->counter.Insert(
      {.ts = ts, .track_id = track, .value = static_cast<double>(e.frequency_khz)});
  ctx_->storage->ExtendBounds(ts);
}

}  // namespace tw
