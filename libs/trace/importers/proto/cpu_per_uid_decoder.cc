#include "libs/trace/importers/proto/cpu_per_uid_decoder.h"

#include <map>
#include <string>
#include <vector>

#include "libs/trace/importers/proto/repeated_varints.h"

namespace tw {
namespace {

// CpuPerUidData field numbers (wire-format facts).
constexpr uint32_t kClusterCount = 1, kUid = 2, kTotalTimeMs = 3;

uint64_t Key(uint32_t uid, uint32_t cluster) { return (uint64_t{uid} << 32) | cluster; }

// A uid without its user: its app (package) id.
uint32_t AppId(uint32_t uid) { return uid % 100000; }

// Shared and isolated uids are anonymous: each range of 10000 is one group.
bool IsGroupedUid(uint32_t uid) {
  const uint32_t app = AppId(uid);
  return (app >= 50000 && app < 60000) || (app >= 90000 && app < 100000);
}
uint32_t GroupedUid(uint32_t uid) { return IsGroupedUid(uid) ? uid - uid % 10000 : uid; }

}  // namespace

void CpuPerUidDecoder::Decode(const PacketContext& packet, const proto::Field& field) {
  SequenceValues& seq = sequences_[packet.sequence_id];
  const uint32_t generation = packet.sequence ? packet.sequence->generation() : 0;
  if (seq.generation != generation) {
    // The sequence cleared its incremental state: values are totals again.
    seq.last_values.clear();
    seq.generation = generation;
  }
  std::vector<uint64_t> uids, times;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == kClusterCount) seq.cluster_count = f.as_uint32();
    if (f.id == kUid) proto::ForEachVarint(f, [&](uint64_t v) { uids.push_back(v); });
    if (f.id == kTotalTimeMs) {
      proto::ForEachVarint(f, [&](uint64_t v) { times.push_back(v); });
    }
  }
  // Times are uid-major: each uid has cluster_count values.
  size_t u = 0;
  uint32_t cluster = 0;
  for (uint64_t raw : times) {
    if (u >= uids.size()) break;
    const uint32_t uid = static_cast<uint32_t>(uids[u]);
    const uint64_t key = Key(uid, cluster);
    auto [value, first] = seq.last_values.try_emplace(key, raw);
    if (!first) value->second += raw;
    auto [global, unused] = last_value_.try_emplace(key, value->second);
    const uint64_t delta = value->second > global->second ? value->second - global->second : 0;
    global->second = value->second;
    // Totals use grouped uids: a group has one track.
    const uint32_t grouped = GroupedUid(uid);
    cumulative_[Key(grouped, cluster)] += delta;
    (AppId(grouped) < 10000 ? system_totals_ : app_totals_)[cluster] += delta;
    if (++cluster >= seq.cluster_count) {
      cluster = 0;
      ++u;
    }
  }

  auto totals = [&](std::string_view type, const std::map<uint32_t, uint64_t>& by_cluster) {
    for (const auto& [c, ms] : by_cluster) {
      const std::string name = "CPU for " + std::string(type) + " CL" + std::to_string(c);
      sparse_.Push(packet, Key(type == "System" ? 0xfffffffeu : 0xffffffffu, c),
                   {CounterData::Scope::kGlobal, 0, name, "android_cpu_per_uid_totals", "ms",
                    {counters_.StringDimension("type", type),
                     counters_.UintDimension("cluster", c)}},
                   static_cast<double>(ms));
    }
  };
  totals("System", system_totals_);
  totals("Apps", app_totals_);
  auto per_uid = [&](uint32_t uid, uint32_t c, uint64_t value) {
    const std::string name = "CPU for UID " + std::to_string(uid) + " CL" + std::to_string(c);
    sparse_.Push(packet, Key(uid, c) ^ (uint64_t{1} << 63),
                 {CounterData::Scope::kGlobal, 0, name, "android_cpu_per_uid", "ms",
                  {counters_.UintDimension("uid", uid), counters_.UintDimension("cluster", c)}},
                 static_cast<double>(value));
  };
  // Grouped uids show their group's accumulated time; the others their own counter.
  for (const auto& [key, ms] : cumulative_) {
    const uint32_t uid = static_cast<uint32_t>(key >> 32);
    if (IsGroupedUid(uid)) per_uid(uid, static_cast<uint32_t>(key), ms);
  }
  std::map<uint64_t, uint64_t> ordered(seq.last_values.begin(), seq.last_values.end());
  for (const auto& [key, value] : ordered) {
    const uint32_t uid = static_cast<uint32_t>(key >> 32);
    if (!IsGroupedUid(uid)) per_uid(uid, static_cast<uint32_t>(key), value);
  }
  PushTotals(packet);
}

void CpuPerUidDecoder::PushTotals(const PacketContext& packet) {
  AndroidCpuPerUidTotalsData data;
  data.rows.reserve(cumulative_.size());
  for (const auto& [key, ms] : cumulative_) {
    data.rows.push_back({static_cast<uint32_t>(key >> 32), static_cast<uint32_t>(key),
                         static_cast<int64_t>(ms)});
  }
  // After this packet's samples on its sequence's queue (file order on ties): the tracker
  // keeps the latest and writes android_cpu_per_uid_track when the trace ends.
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kAndroidCpuPerUidTotals, std::move(data)));
}

}  // namespace tw
