#include "libs/trace/importers/proto/heap_profile_decoder.h"

#include <utility>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/repeated_varints.h"
#include "libs/trace/importers/proto/track_event_callstack.h"

namespace tw {
namespace {

namespace pp = pf::profile_packet;
namespace phs = pf::profile_process_heap_samples;
namespace hs = pf::profile_heap_sample;

// ProcessHeapSamples.ClientError CLIENT_ERROR_HIT_TIMEOUT: the client gave up waiting for
// heapprofd, which loses data as an overrun buffer does.
constexpr uint64_t kClientErrorHitTimeout = 1;

}  // namespace

HeapProfileDecoder::Profile& HeapProfileDecoder::ProfileFor(const PacketContext& packet) {
  Profile& p = profiles_[packet.sequence_id];
  const uint32_t generation = packet.sequence ? packet.sequence->generation() : 0;
  if (p.generation != generation) {
    // The writer cleared its incremental state: a new profile stream starts from scratch.
    p = Profile{};
    p.generation = generation;
  }
  if (p.strings.empty()) p.strings.emplace(0, "");  // string id 0 is always the empty string
  return p;
}

void HeapProfileDecoder::AddString(Profile& p, const proto::Field& f) {
  uint64_t iid = 0;
  std::string_view str;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == pf::interned_string::kIid) iid = x.as_uint64();
    if (x.id == pf::interned_string::kStr && x.type == proto::kLengthDelimited) str = x.as_string();
  }
  p.strings[iid] = std::string(str);
}

void HeapProfileDecoder::AddMapping(Profile& p, const proto::Field& f) {
  namespace m = pf::profile_mapping;
  uint64_t iid = 0, build_id = 0;
  std::vector<uint64_t> path_ids;
  CallstackFrame::Mapping mapping;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case m::kIid: iid = x.as_uint64(); break;
      case m::kBuildId: build_id = x.as_uint64(); break;
      case m::kPathStringIds:
        proto::ForEachVarint(x, [&](uint64_t v) { path_ids.push_back(v); });
        break;
      case m::kExactOffset: mapping.exact_offset = x.as_uint64(); break;
      case m::kStartOffset: mapping.start_offset = x.as_uint64(); break;
      case m::kStart: mapping.start = x.as_uint64(); break;
      case m::kEnd: mapping.end = x.as_uint64(); break;
      case m::kLoadBias: mapping.load_bias = x.as_uint64(); break;
      default: break;
    }
  }
  auto build = p.strings.find(build_id);
  if (build == p.strings.end()) {
    ctx_->storage->IncrementStat("stackprofile_invalid_string_id");
    return;
  }
  mapping.build_id = ctx_->Intern(BuildIdHex(build->second));
  // The path is its components, each after a '/'; an unknown component ends it there (older
  // producers' mappings stay usable).
  std::string path;
  for (uint64_t id : path_ids) {
    auto part = p.strings.find(id);
    if (part == p.strings.end()) {
      ctx_->storage->IncrementStat("stackprofile_invalid_string_id");
      break;
    }
    path += '/';
    path += part->second;
  }
  // A single component that is already a full path would start with "//".
  if (path.rfind("//", 0) == 0) path.erase(0, 1);
  mapping.name = ctx_->Intern(path);
  p.mappings[iid] = mapping;
}

void HeapProfileDecoder::AddFrame(Profile& p, const proto::Field& f, HeapProfileData* out) {
  namespace fr = pf::profile_frame;
  uint64_t iid = 0, name_id = 0, mapping_id = 0;
  CallstackFrame frame;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case fr::kIid: iid = x.as_uint64(); break;
      case fr::kFunctionNameId: name_id = x.as_uint64(); break;
      case fr::kMappingId: mapping_id = x.as_uint64(); break;
      case fr::kRelPc: frame.rel_pc = x.as_uint64(); break;
      default: break;
    }
  }
  auto mapping = p.mappings.find(mapping_id);
  if (mapping == p.mappings.end()) {
    ctx_->storage->IncrementStat("stackprofile_invalid_mapping_id");
    return;
  }
  auto name = p.strings.find(name_id);
  if (name == p.strings.end()) {
    ctx_->storage->IncrementStat("stackprofile_invalid_string_id");
    return;
  }
  frame.mapping = mapping->second;
  frame.function_name = ctx_->Intern(name->second);
  p.frames[iid] = frame;
  out->frames.push_back(frame);
}

void HeapProfileDecoder::AddCallstack(Profile& p, const proto::Field& f, HeapProfileData* out) {
  HeapProfileData::Callstack callstack;
  std::vector<uint64_t> frame_ids;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == pf::profile_callstack::kIid) callstack.iid = x.as_uint64();
    if (x.id == pf::profile_callstack::kFrameIds) {
      proto::ForEachVarint(x, [&](uint64_t v) { frame_ids.push_back(v); });
    }
  }
  for (uint64_t id : frame_ids) {
    auto frame = p.frames.find(id);
    if (frame == p.frames.end()) {
      ctx_->storage->IncrementStat("stackprofile_invalid_frame_id");
      return;
    }
    callstack.frames.push_back(frame->second);
  }
  if (callstack.frames.empty()) {
    ctx_->storage->IncrementStat("stackprofile_empty_callstack");
    return;
  }
  p.callstacks.insert(callstack.iid);
  out->callstacks.push_back(std::move(callstack));
}

std::shared_ptr<const std::vector<CallstackFrame>> HeapProfileDecoder::InternedCallstack(
    const PacketContext& packet, uint64_t iid) {
  if (!packet.sequence) return nullptr;
  const SequenceState& seq = *packet.sequence;
  InternedCallstacks& cache = interned_[packet.sequence_id];
  if (cache.generation != seq.generation()) {
    cache.by_iid.clear();
    cache.generation = seq.generation();
  }
  if (auto it = cache.by_iid.find(iid); it != cache.by_iid.end()) return it->second;
  if (!seq.Lookup(pf::interned_data::kCallstacks, iid)) {
    ctx_->storage->IncrementStat("stackprofile_invalid_callstack_id");
    return nullptr;
  }
  std::optional<std::vector<CallstackFrame>> frames = DecodeInternedCallstack(ctx_, seq, iid);
  if (!frames) {
    ctx_->storage->IncrementStat("stackprofile_invalid_frame_id");
    return nullptr;
  }
  if (frames->empty()) {
    ctx_->storage->IncrementStat("stackprofile_empty_callstack");
    return nullptr;
  }
  auto callstack = std::make_shared<const std::vector<CallstackFrame>>(std::move(*frames));
  cache.by_iid.emplace(iid, callstack);
  return callstack;
}

std::optional<HeapProfileData::Dump> HeapProfileDecoder::DecodeDump(const PacketContext& packet,
                                                                    const Profile& p,
                                                                    const proto::Field& f) {
  HeapProfileData::Dump dump;
  uint64_t timestamp = 0;
  std::optional<uint64_t> start_timestamp;
  std::vector<proto::Field> samples;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case phs::kPid: dump.pid = x.as_uint32(); break;
      case phs::kSamples:
        if (x.type == proto::kLengthDelimited) samples.push_back(x);
        break;
      case phs::kRejectedConcurrent: dump.rejected_concurrent = x.as_bool(); break;
      case phs::kDisconnected: dump.disconnected = x.as_bool(); break;
      case phs::kBufferOverran: dump.buffer_overran = x.as_bool(); break;
      case phs::kBufferCorrupted: dump.buffer_corrupted = x.as_bool(); break;
      case phs::kHitGuardrail: dump.hit_guardrail = x.as_bool(); break;
      case phs::kClientError: dump.client_error = x.as_uint64(); break;
      case phs::kTimestamp: timestamp = x.as_uint64(); break;
      case phs::kStartTimestamp: start_timestamp = x.as_uint64(); break;
      case phs::kSamplingIntervalBytes: dump.sampling_interval_bytes = x.as_uint64(); break;
      case phs::kOrigSamplingIntervalBytes:
        dump.orig_sampling_interval_bytes = x.as_uint64();
        break;
      case phs::kHeapName:
        if (x.type == proto::kLengthDelimited && x.size > 0) {
          dump.heap_name = ctx_->Intern(x.as_string());
        }
        break;
      case phs::kStats: {
        if (x.type != proto::kLengthDelimited) break;
        namespace st = pf::profile_process_stats;
        proto::Decoder sd(x);
        proto::Field s;
        while (sd.Next(&s)) {
          if (s.id == st::kTotalUnwindingTimeUs) dump.unwinding_time_us = s.as_uint64();
          if (s.id == st::kHeapSamples) dump.heap_samples = s.as_uint64();
          if (s.id == st::kClientSpinlockBlockedUs) dump.client_spinlock_blocked_us = s.as_uint64();
        }
        break;
      }
      default: break;
    }
  }
  if (dump.client_error == kClientErrorHitTimeout) dump.buffer_overran = true;

  // The dump's end is the state it shows; its start, when the producer says, begins the window
  // the allocations happened in (older producers: a point at the dump).
  const ClockKey coarse{pf::builtin_clock::kMonotonicCoarse, 0};
  const std::optional<int64_t> end = ctx_->clocks.ToTraceTime(coarse, static_cast<int64_t>(timestamp));
  if (!end) {
    ctx_->storage->IncrementStat("clock_sync_failure");
    return std::nullopt;
  }
  dump.window_end = dump.window_start = *end;
  if (start_timestamp) {
    if (auto start = ctx_->clocks.ToTraceTime(coarse, static_cast<int64_t>(*start_timestamp))) {
      dump.window_start = *start;
    }
  }

  // Producers before orig_sampling_interval_bytes existed wrote unreliable self_max_count.
  const bool trustworthy_max_count = dump.orig_sampling_interval_bytes > 0;
  for (const proto::Field& sf : samples) {
    HeapProfileData::Sample sample;
    std::optional<uint64_t> self_max, self_max_count;
    proto::Decoder sd(sf);
    proto::Field s;
    while (sd.Next(&s)) {
      switch (s.id) {
        case hs::kCallstackId: sample.callstack_iid = s.as_uint64(); break;
        case hs::kSelfAllocated: sample.self_allocated = s.as_uint64(); break;
        case hs::kSelfFreed: sample.self_freed = s.as_uint64(); break;
        case hs::kAllocCount: sample.alloc_count = s.as_uint64(); break;
        case hs::kFreeCount: sample.free_count = s.as_uint64(); break;
        case hs::kSelfMax: self_max = s.as_uint64(); break;
        case hs::kSelfMaxCount: self_max_count = s.as_uint64(); break;
        default: break;
      }
    }
    if (self_max) {
      // A dump-at-max profile: what was live at the peak, as allocations; nothing freed.
      sample.self_allocated = *self_max;
      sample.alloc_count = trustworthy_max_count ? self_max_count.value_or(0) : 0;
      sample.self_freed = sample.free_count = 0;
    }
    if (!p.callstacks.contains(sample.callstack_iid)) {
      sample.interned_callstack = InternedCallstack(packet, sample.callstack_iid);
    }
    dump.samples.push_back(std::move(sample));
  }
  return dump;
}

void HeapProfileDecoder::Decode(const PacketContext& packet, const proto::Field& field) {
  Profile& profile = ProfileFor(packet);
  HeapProfileData data;
  data.sequence_id = packet.sequence_id;
  data.generation = profile.generation;
  std::vector<proto::Field> strings, mappings, frames, callstacks, dumps;
  uint64_t index = 0;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    const bool message = f.type == proto::kLengthDelimited;
    switch (f.id) {
      case pp::kStrings: if (message) strings.push_back(f); break;
      case pp::kMappings: if (message) mappings.push_back(f); break;
      case pp::kFrames: if (message) frames.push_back(f); break;
      case pp::kCallstacks: if (message) callstacks.push_back(f); break;
      case pp::kProcessDumps: if (message) dumps.push_back(f); break;
      case pp::kContinued: data.continued = f.as_bool(); break;
      case pp::kIndex: index = f.as_uint64(); break;
      default: break;
    }
  }
  if (d.error()) {
    ctx_->storage->IncrementStat("proto_decode_errors");
    return;
  }
  // heapprofd numbers a sequence's packets from 0: a gap means a packet was lost.
  const bool lost = profile.last_index ? index != *profile.last_index + 1 : index != 0;
  if (lost) ctx_->storage->IncrementStat("heapprofd_missing_packet");
  profile.last_index = index;

  // Definitions first, each kind in full, as they may refer to one another in any order.
  for (const proto::Field& x : strings) AddString(profile, x);
  for (const proto::Field& x : mappings) AddMapping(profile, x);
  for (const proto::Field& x : frames) AddFrame(profile, x, &data);
  for (const proto::Field& x : callstacks) AddCallstack(profile, x, &data);
  for (const proto::Field& x : dumps) {
    if (auto dump = DecodeDump(packet, profile, x)) data.dumps.push_back(std::move(*dump));
  }
  if (!data.continued) {
    // The profile is complete: its definitions mean nothing to the next one.
    profile.strings.clear();
    profile.mappings.clear();
    profile.frames.clear();
    profile.callstacks.clear();
  }
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kHeapProfile, std::move(data)));
}

}  // namespace tw
