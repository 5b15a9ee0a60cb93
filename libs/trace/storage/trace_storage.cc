#include "libs/trace/storage/trace_storage.h"

#include "libs/trace/storage/metadata_keys.h"
#include "libs/trace/storage/stats_catalog.h"

namespace tw {

TraceStorage::TraceStorage() = default;

void TraceStorage::IncrementStat(std::string_view name, int64_t delta) {
  auto it = stats_.find(name);
  if (it == stats_.end()) {
    stats_.emplace(std::string(name), delta);
  } else {
    it->second += delta;
  }
}

void TraceStorage::SetStat(std::string_view name, int64_t value) {
  stats_[std::string(name)] = value;
}

void TraceStorage::SetIndexedStat(std::string_view name, int64_t index, int64_t value) {
  indexed_stats_[{std::string(name), index}] = value;
}

void TraceStorage::IncrementIndexedStat(std::string_view name, int64_t index, int64_t delta) {
  indexed_stats_[{std::string(name), index}] += delta;
}

int64_t TraceStorage::GetStat(std::string_view name) const {
  auto it = stats_.find(name);
  return it == stats_.end() ? 0 : it->second;
}

void TraceStorage::SetMetadata(std::string_view name, int64_t value) {
  for (auto& [k, v] : metadata_) {
    if (k == name) {
      v = MetadataValue{value, std::nullopt};
      return;
    }
  }
  metadata_.push_back({std::string(name), MetadataValue{value, std::nullopt}});
}

void TraceStorage::SetMetadata(std::string_view name, std::string_view value) {
  for (auto& [k, v] : metadata_) {
    if (k == name) {
      v = MetadataValue{std::nullopt, std::string(value)};
      return;
    }
  }
  metadata_.push_back({std::string(name), MetadataValue{std::nullopt, std::string(value)}});
}

void TraceStorage::AppendMetadata(std::string_view name, std::string_view value) {
  metadata_.push_back({std::string(name), MetadataValue{std::nullopt, std::string(value)}});
}

void TraceStorage::AppendMetadata(std::string_view name, int64_t value) {
  metadata_.push_back({std::string(name), MetadataValue{value, std::nullopt}});
}

std::optional<int64_t> TraceStorage::GetMetadataInt(std::string_view name) const {
  for (const auto& [k, v] : metadata_) {
    if (k == name) return v.int_value;
  }
  return std::nullopt;
}

std::optional<std::string> TraceStorage::GetMetadataString(std::string_view name) const {
  for (const auto& [k, v] : metadata_) {
    if (k == name) return v.str_value;
  }
  return std::nullopt;
}

void TraceStorage::FinalizeStatsAndMetadata() {
  const StringId kInfo = Intern("info");
  auto add_stat = [&](std::string_view name, std::optional<int64_t> idx, int64_t value) {
    const StatInfo* info = FindStatInfo(name);
    stats.name.Append(Intern(name));
    stats.key.Append(static_cast<int64_t>(stats.row_count()));
    stats.idx.Append(idx);
    stats.severity.Append(info ? Intern(info->severity) : kInfo);
    stats.source.Append(info ? Intern(info->source) : Intern("analysis"));
    stats.value.Append(value);
    stats.description.Append(info ? Intern(info->description) : kNullStringId);
    stats.machine_id.Append(OptU32(0));
    stats.trace_id.Append(OptU32(0));
    stats.CommitRow();
  };
  // Catalog entries first (value 0 when never touched), then anything else that was counted.
  for (const StatInfo& s : StatsCatalog()) {
    if (s.indexed) continue;
    add_stat(s.name, std::nullopt, GetStat(s.name));
  }
  for (const auto& [name, value] : stats_) {
    const StatInfo* info = FindStatInfo(name);
    if (info && !info->indexed) continue;
    add_stat(name, std::nullopt, value);
  }
  for (const auto& [key, value] : indexed_stats_) add_stat(key.first, key.second, value);

  // One machine (row 0 of `machine`) and one trace file (id 0) per load: scope decides which
  // of the two ids a key carries.
  for (const auto& [name, v] : metadata_) {
    const MetadataKeyInfo key = LookupMetadataKey(name);
    const bool machine_scoped =
        key.scope == MetadataScope::kMachine || key.scope == MetadataScope::kMachineAndTrace;
    const bool trace_scoped =
        key.scope == MetadataScope::kTrace || key.scope == MetadataScope::kMachineAndTrace;
    metadata.name.Append(Intern(name));
    metadata.key_type.Append(Intern(key.multi ? "multi" : "single"));
    metadata.int_value.Append(v.int_value);
    metadata.str_value.Append(v.str_value ? Intern(*v.str_value) : kNullStringId);
    metadata.machine_id.Append(machine_scoped ? OptU32(0) : OptU32());
    metadata.trace_id.Append(trace_scoped ? OptU32(0) : OptU32());
    metadata.CommitRow();
  }
  // Even a trace that never describes its machine has one: the host.
  if (machine.row_count() == 0) machine.Insert(0);
}

std::vector<Table*> TraceStorage::AllTables() {
  return {&process, &thread,  &cpu,      &cpu_freq,     &sched_slice,    &thread_state,
          &track,   &slice,   &counter,  &state,        &flow,           &args,
          &ftrace_event, &logs, &metadata, &stats, &clock_snapshot, &machine,
          &package_list, &android_motion_events, &android_key_events,
          &android_input_event_dispatch, &android_user_list,
          &android_track_event_process};
}

size_t TraceStorage::memory_bytes() const {
  size_t total = strings_.memory_bytes();
  for (Table* t : const_cast<TraceStorage*>(this)->AllTables()) total += t->memory_bytes();
  return total;
}

}  // namespace tw
