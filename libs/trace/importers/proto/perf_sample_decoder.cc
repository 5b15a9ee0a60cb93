#include "libs/trace/importers/proto/perf_sample_decoder.h"

#include <optional>
#include <utility>

#include "libs/trace/importers/proto/perf_event_names.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/repeated_varints.h"
#include "libs/trace/importers/proto/track_event_callstack.h"

namespace tw {
namespace {

namespace ps = pf::perf_sample;

// Profiling.CpuMode names (profile_packet.proto); MODE_UNKNOWN (0) and values this build does
// not know stay null, which perf_sample shows as "unknown".
std::string_view CpuModeName(uint64_t mode) {
  switch (mode) {
    case 1: return "kernel";
    case 2: return "user";
    case 3: return "hypervisor";
    case 4: return "guest_kernel";
    case 5: return "guest_user";
    default: return {};
  }
}

// Profiling.StackUnwindError names (profile_packet.proto).
std::string_view UnwindErrorName(uint64_t error) {
  switch (error) {
    case 1: return "none";
    case 2: return "memory_invalid";
    case 3: return "unwind_info";
    case 4: return "unsupported";
    case 5: return "invalid_map";
    case 6: return "max_frames_exceeded";
    case 7: return "repeated_frame";
    case 8: return "invalid_elf";
    case 9: return "system_call";
    case 10: return "thread_timeout";
    case 11: return "thread_does_not_exist";
    case 12: return "bad_arch";
    case 13: return "maps_parse";
    case 14: return "invalid_parameter";
    case 15: return "ptrace_call";
    default: return "unknown";
  }
}

// PerfSample.SampleSkipReason values.
constexpr uint64_t kSkipReadStage = 1, kSkipUnwindStage = 2, kSkipUnwindEnqueue = 3;
// PerfSample.ProducerEvent.DataSourceStopReason: the producer hit a guardrail.
constexpr uint64_t kStopGuardrail = 1;
// PerfEvents.Counter SW_CPU_CLOCK: the timebase of producers that wrote no defaults.
constexpr uint64_t kSwCpuClock = 1;

bool StoppedOnGuardrail(const proto::Field& producer_event) {
  proto::Decoder d(producer_event);
  proto::Field f;
  bool guardrail = false;
  while (d.Next(&f)) {
    if (f.id == pf::perf_sample_producer_event::kSourceStopReason) {
      guardrail = f.as_uint64() == kStopGuardrail;
    }
  }
  return guardrail;
}

}  // namespace

std::shared_ptr<const PerfSampleData::Stream> PerfSampleDecoder::StreamFor(
    const PacketContext& packet) {
  // The perf_sample_defaults inside the sequence's TracePacketDefaults, if any.
  std::optional<std::string_view> perf_defaults;
  if (packet.sequence && packet.sequence->defaults()) {
    proto::Decoder d(*packet.sequence->defaults());
    proto::Field f;
    while (d.Next(&f)) {
      if (f.id == pf::trace_packet_defaults::kPerfSampleDefaults &&
          f.type == proto::kLengthDelimited) {
        perf_defaults = f.as_string();
      }
    }
  }
  const std::string key = perf_defaults ? std::string(*perf_defaults) : std::string();
  CachedStream& cached = streams_[packet.sequence_id];
  if (cached.stream && cached.defaults == key) return cached.stream;

  auto stream = std::make_shared<PerfSampleData::Stream>();
  if (!perf_defaults) {
    stream->timebase = ctx_->Intern(PerfCounterName(kSwCpuClock));
  } else {
    namespace psd = pf::perf_sample_defaults;
    std::string_view timebase;  // an absent timebase describes no event: "unknown"
    proto::Decoder d(*perf_defaults);
    proto::Field f;
    while (d.Next(&f)) {
      switch (f.id) {
        case psd::kTimebase:
          if (f.type == proto::kLengthDelimited) timebase = f.as_string();
          break;
        case psd::kFollowers:
          if (f.type == proto::kLengthDelimited) {
            stream->followers.push_back(
                ctx_->Intern(PerfEventName(f.as_string(), kPerfFollowerFields)));
          }
          break;
        case psd::kProcessShardCount: stream->process_shard_count = f.as_uint32(); break;
        case psd::kChosenProcessShard: stream->chosen_process_shard = f.as_uint32(); break;
        default: break;
      }
    }
    if (d.error()) ctx_->storage->IncrementStat("proto_decode_errors");
    stream->timebase = ctx_->Intern(PerfEventName(timebase, kPerfTimebaseFields));
    if (stream->process_shard_count == 0u) stream->process_shard_count.reset();
  }
  cached.defaults = key;
  cached.stream = std::move(stream);
  return cached.stream;
}

void PerfSampleDecoder::ResolveCallstack(uint32_t sequence_id, const SequenceState& seq,
                                         uint64_t iid, PerfSampleData* sample) {
  Callstacks& cache = callstacks_[sequence_id];
  if (cache.generation != seq.generation()) {
    // The writer cleared its interned data: iids name other callstacks now.
    cache.by_iid.clear();
    cache.generation = seq.generation();
  }
  if (auto it = cache.by_iid.find(iid); it != cache.by_iid.end()) {
    sample->callstack = it->second;
    return;
  }
  // Only resolved callstacks are kept: a failure is counted again for each sample.
  if (!seq.Lookup(pf::interned_data::kCallstacks, iid)) {
    ctx_->storage->IncrementStat("stackprofile_invalid_callstack_id");
    return;
  }
  std::optional<std::vector<CallstackFrame>> frames = DecodeInternedCallstack(ctx_, seq, iid);
  if (!frames) {
    // The callstack is interned but one of its frames (or their names or mappings) is not.
    ctx_->storage->IncrementStat("stackprofile_invalid_frame_id");
    return;
  }
  if (frames->empty()) {
    ctx_->storage->IncrementStat("stackprofile_empty_callstack");
    return;
  }
  sample->callstack = std::make_shared<const std::vector<CallstackFrame>>(std::move(*frames));
  cache.by_iid.emplace(iid, sample->callstack);
}

void PerfSampleDecoder::Decode(const PacketContext& packet, const proto::Field& field) {
  PerfSampleData sample;
  sample.sequence_id = packet.sequence_id;
  sample.stream = StreamFor(packet);
  std::optional<uint64_t> callstack_iid, skipped_reason;
  bool guardrail_stop = false, producer_event = false;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case ps::kCpu: sample.cpu = f.as_uint32(); break;
      case ps::kPid: sample.pid = f.as_uint32(); break;
      case ps::kTid: sample.tid = f.as_uint32(); break;
      case ps::kCallstackIid: callstack_iid = f.as_uint64(); break;
      case ps::kCpuMode: {
        const std::string_view mode = CpuModeName(f.as_uint64());
        sample.cpu_mode = mode.empty() ? kNullStringId : ctx_->Intern(mode);
        break;
      }
      case ps::kTimebaseCount: sample.timebase_count = f.as_uint64(); break;
      case ps::kFollowerCounts:
        proto::ForEachVarint(f, [&](uint64_t v) { sample.follower_counts.push_back(v); });
        break;
      case ps::kUnwindError: sample.unwind_error = ctx_->Intern(UnwindErrorName(f.as_uint64())); break;
      case ps::kKernelRecordsLost: sample.records_lost = f.as_uint64(); break;
      case ps::kSampleSkippedReason: skipped_reason = f.as_uint64(); break;
      case ps::kProducerEvent:
        producer_event = true;
        if (f.type == proto::kLengthDelimited) guardrail_stop = StoppedOnGuardrail(f);
        break;
      default: break;
    }
  }
  if (d.error()) {
    ctx_->storage->IncrementStat("proto_decode_errors");
    return;
  }
  if (sample.records_lost > 0) {
    // Not a sample: the kernel's ring buffer for this cpu overflowed.
    sample.kind = PerfSampleData::Kind::kRecordsLost;
  } else if (producer_event) {
    // Not a sample: a note from the producer (the tracker records a guardrail stop).
    sample.kind = PerfSampleData::Kind::kProducerEvent;
    sample.guardrail_stop = guardrail_stop;
  } else {
    if (skipped_reason) {
      // The sample's counters are real but its stack is incomplete; a thread out of the
      // config's scope (reason 4) is expected and not counted.
      if (*skipped_reason == kSkipReadStage || *skipped_reason == kSkipUnwindStage) {
        ctx_->storage->IncrementStat("perf_samples_skipped");
      } else if (*skipped_reason == kSkipUnwindEnqueue) {
        ctx_->storage->IncrementStat("perf_samples_skipped_dataloss");
      }
    }
    if (callstack_iid && packet.sequence) {
      ResolveCallstack(packet.sequence_id, *packet.sequence, *callstack_iid, &sample);
    }
  }
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kPerfSample, std::move(sample)));
}

}  // namespace tw
