#include "libs/trace/importers/proto/kernel_wakelock_decoder.h"

#include "libs/trace/importers/proto/repeated_varints.h"

namespace tw {
namespace {

// KernelWakelockData and its Wakelock message (wire-format facts).
constexpr uint32_t kWakelock = 1, kWakelockId = 2, kTimeHeldMillis = 3, kErrorFlags = 4;
constexpr uint32_t kDefId = 1, kDefName = 2, kDefType = 3;
// error_flags bits: what the data source found wrong with the kernel's numbers.
constexpr uint64_t kZeroValue = 1, kNonMonotonicValue = 2, kImplausiblyLargeValue = 4;

std::string TypeName(uint64_t type) {
  switch (type) {
    case 1: return "kernel";
    case 2: return "native";
    default: return "unknown";
  }
}

}  // namespace

uint64_t KernelWakelockDecoder::TrackKey(const std::string& name, const std::string& type) {
  std::string key = name;
  key.push_back('\0');
  key += type;
  return track_keys_.try_emplace(key, track_keys_.size()).first->second;
}

void KernelWakelockDecoder::Decode(const PacketContext& packet, const proto::Field& field) {
  SequenceWakelocks& seq = sequences_[packet.sequence_id];
  const uint32_t generation = packet.sequence ? packet.sequence->generation() : 0;
  if (seq.generation != generation) {
    seq = SequenceWakelocks{};  // incremental state cleared: ids and totals start over
    seq.generation = generation;
  }
  std::vector<uint64_t> ids, held_ms;
  uint64_t errors = 0;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case kWakelock: {
        uint32_t id = 0;
        Wakelock w{"", TypeName(0)};
        proto::Decoder wd(f);
        proto::Field wf;
        while (wd.Next(&wf)) {
          if (wf.id == kDefId) id = wf.as_uint32();
          if (wf.id == kDefName) w.name = std::string(wf.as_string());
          if (wf.id == kDefType) w.type = TypeName(wf.int_value);
        }
        if (!seq.by_id.try_emplace(id, std::move(w)).second) {
          ctx_->storage->IncrementStat("kernel_wakelock_reused_id");
        }
        break;
      }
      case kWakelockId: proto::ForEachVarint(f, [&](uint64_t v) { ids.push_back(v); }); break;
      case kTimeHeldMillis:
        proto::ForEachVarint(f, [&](uint64_t v) { held_ms.push_back(v); });
        break;
      case kErrorFlags: errors = f.int_value; break;
    }
  }
  for (size_t i = 0; i < ids.size() && i < held_ms.size(); ++i) {
    auto it = seq.by_id.find(static_cast<uint32_t>(ids[i]));
    if (it == seq.by_id.end()) {
      ctx_->storage->IncrementStat("kernel_wakelock_unknown_id");
      continue;
    }
    auto [held, first] = seq.held.try_emplace(it->second.name);
    if (first) seq.names.push_back(it->second.name);
    held->second.total_ms += held_ms[i];
    held->second.type = it->second.type;
  }
  if (errors & kZeroValue) ctx_->storage->IncrementStat("kernel_wakelock_zero_value_reported");
  if (errors & kNonMonotonicValue) {
    ctx_->storage->IncrementStat("kernel_wakelock_non_monotonic_value_reported");
  }
  if (errors & kImplausiblyLargeValue) {
    ctx_->storage->IncrementStat("kernel_wakelock_implausibly_large_value_reported");
  }
  // Every wakelock the sequence knows is polled again, reported this time or not.
  for (const std::string& name : seq.names) {
    const Held& held = seq.held[name];
    sparse_.Push(packet, TrackKey(name, held.type),
                 {CounterData::Scope::kGlobal, 0, name, "android_kernel_wakelock", "ms",
                  {counters_.StringDimension("wakelock_name", name),
                   counters_.StringDimension("wakelock_type", held.type)}},
                 1e6 * static_cast<double>(held.total_ms));
  }
}

}  // namespace tw
