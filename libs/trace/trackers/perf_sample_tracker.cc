#include "libs/trace/trackers/perf_sample_tracker.h"

#include "libs/trace/trackers/trace_context.h"

namespace tw {

PerfSampleTracker::Session& PerfSampleTracker::SessionFor(uint32_t sequence_id) {
  auto [it, inserted] = sessions_.try_emplace(sequence_id);
  if (inserted) it->second.id = ctx_->storage->perf_session.Insert({});
  return it->second;
}

uint32_t PerfSampleTracker::CounterTrack(const Session& session, uint32_t cpu, StringId name,
                                         bool is_timebase) {
  TrackTracker& tracks = ctx_->tracks;
  const uint32_t track = tracks.InternCpuCounterTrack(
      cpu, name, "perf_cpu_counter", kNullStringId,
      {tracks.DimUint("perf_session_id", session.id), tracks.DimString("name", name)});
  TrackTable& t = ctx_->storage->track;
  if (t.source_arg_set_id.IsNull(track)) {
    if (auto set = ctx_->args.AddArgSet(
            {ctx_->args.MakeArg("is_timebase", ArgValue::Bool(is_timebase))})) {
      t.source_arg_set_id.Set(track, *set);
    }
  }
  return track;
}

const PerfSampleTracker::CpuTracks& PerfSampleTracker::TracksFor(
    Session& session, uint32_t cpu, const PerfSampleData::Stream& stream) {
  auto it = session.cpus.find(cpu);
  if (it != session.cpus.end()) return it->second;
  // The stream's counters as the sequence described them when the cpu first showed: later
  // changes of defaults do not move a cpu's samples to other tracks.
  CpuTracks tracks;
  tracks.timebase = CounterTrack(session, cpu, stream.timebase, /*is_timebase=*/true);
  for (StringId follower : stream.followers) {
    tracks.followers.push_back(CounterTrack(session, cpu, follower, /*is_timebase=*/false));
  }
  if (stream.process_shard_count) {
    // Which shard of processes this data source profiled (each data source of the trace makes
    // the same choice; recorded per session).
    ctx_->storage->SetIndexedStat("perf_process_shard_count", session.id,
                                  *stream.process_shard_count);
    ctx_->storage->SetIndexedStat("perf_chosen_process_shard", session.id,
                                  stream.chosen_process_shard);
  }
  return session.cpus.emplace(cpu, std::move(tracks)).first->second;
}

void PerfSampleTracker::AddSample(int64_t ts, const PerfSampleData& data, Session& session,
                                  const CpuTracks& tracks) {
  TraceStorage* storage = ctx_->storage;
  std::vector<uint32_t> counters;
  auto add_counter = [&](uint32_t track, uint64_t value) {
    counters.push_back(storage->counter.Insert(
        {.ts = ts, .track_id = track, .value = static_cast<double>(value)}));
  };
  if (data.timebase_count) add_counter(tracks.timebase, *data.timebase_count);
  // Follower values pair with the configured followers in order; extra values have no track.
  for (size_t i = 0; i < data.follower_counts.size() && i < tracks.followers.size(); ++i) {
    add_counter(tracks.followers[i], data.follower_counts[i]);
  }

  const uint32_t utid = ctx_->processes.UpdateThread(data.tid, data.pid);
  ctx_->processes.GetOrCreateProcess(data.pid);
  if (data.cpu) ctx_->sched.Cpu(*data.cpu);
  const std::optional<uint32_t> callsite = Callsite(data.callstack);
  const uint32_t sample = storage->perf_sample.Insert({.ts = ts,
                                                       .utid = utid,
                                                       .cpu = data.cpu,
                                                       .cpu_mode = data.cpu_mode,
                                                       .callsite_id = callsite,
                                                       .unwind_error = data.unwind_error,
                                                       .perf_session_id = session.id});
  for (uint32_t counter : counters) {
    storage->perf_sample_counter.Insert({.sample_id = sample, .counter_id = counter});
  }
  storage->ExtendBounds(ts);
}

std::optional<uint32_t> PerfSampleTracker::Callsite(
    const std::shared_ptr<const std::vector<CallstackFrame>>& frames) {
  if (!frames || frames->empty()) return std::nullopt;
  auto [it, inserted] = callsites_.try_emplace(frames.get());
  if (inserted) {
    it->second.frames = frames;
    it->second.callsite = ctx_->callstacks.InternCallstack(*frames);
  }
  return it->second.callsite;
}

void PerfSampleTracker::OnEvent(int64_t ts, const PerfSampleData& data) {
  Session& session = SessionFor(data.sequence_id);
  // Every record opens its cpu's tracks, even one that is not a sample (as trace_processor
  // resolves the stream before looking at what the record is).
  const uint32_t cpu = data.cpu.value_or(0);
  const CpuTracks& tracks = TracksFor(session, cpu, *data.stream);
  switch (data.kind) {
    case PerfSampleData::Kind::kRecordsLost:
      ctx_->storage->IncrementIndexedStat("perf_cpu_lost_records", cpu,
                                          static_cast<int64_t>(data.records_lost));
      return;
    case PerfSampleData::Kind::kProducerEvent:
      if (data.guardrail_stop) {
        ctx_->storage->SetIndexedStat("perf_guardrail_stop_ts", session.id, ts);
      }
      return;
    case PerfSampleData::Kind::kSample:
      AddSample(ts, data, session, tracks);
      return;
  }
}

}  // namespace tw
