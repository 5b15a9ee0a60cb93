#include "libs/trace/storage/trace_storage.h"

#include <algorithm>

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

void TraceStorage::SetMachineStat(uint32_t machine, std::string_view name,
                                  std::optional<int64_t> index, int64_t value) {
  if (machine == 0) {
    if (index) {
      SetIndexedStat(name, *index, value);
    } else {
      SetStat(name, value);
    }
    return;
  }
  machine_stats_[{machine, std::string(name), index}] = value;
}

void TraceStorage::RecordImportLog(std::string_view stat, std::optional<int64_t> ts,
                                   std::optional<uint32_t> arg_set_id) {
  IncrementStat(stat);
  // stat_key is the stat's row, known once the stats table is written.
  trace_import_logs.Insert({.trace_id = 0,
                            .ts = ts,
                            .stat_key = -1,
                            .name = Intern(stat),
                            .arg_set_id = arg_set_id});
}

bool TraceStorage::AnyStatPositive(const std::function<bool(std::string_view)>& accept) const {
  for (const auto& [name, value] : stats_) {
    if (value > 0 && accept(name)) return true;
  }
  for (const auto& [key, value] : indexed_stats_) {
    if (value > 0 && accept(key.first)) return true;
  }
  return false;
}

void TraceStorage::SetMetadataValue(std::string_view name, MetadataValue value) {
  for (auto& [k, v] : metadata_) {
    if (k == name && v.machine == value.machine) {
      v = std::move(value);
      return;
    }
  }
  metadata_.push_back({std::string(name), std::move(value)});
}

void TraceStorage::SetMetadata(std::string_view name, int64_t value) {
  SetMetadataValue(name, MetadataValue{value, std::nullopt});
}

void TraceStorage::SetMetadata(std::string_view name, std::string_view value) {
  SetMetadataValue(name, MetadataValue{std::nullopt, std::string(value)});
}

void TraceStorage::SetMachineMetadata(uint32_t machine, std::string_view name, int64_t value) {
  SetMetadataValue(name, MetadataValue{value, std::nullopt, machine});
}

void TraceStorage::SetMachineMetadata(uint32_t machine, std::string_view name,
                                      std::string_view value) {
  SetMetadataValue(name, MetadataValue{std::nullopt, std::string(value), machine});
}

std::optional<int64_t> TraceStorage::GetMachineMetadataInt(uint32_t machine,
                                                           std::string_view name) const {
  for (const auto& [k, v] : metadata_) {
    if (k == name && v.machine == machine) return v.int_value;
  }
  return std::nullopt;
}

void TraceStorage::AppendMetadata(std::string_view name, std::string_view value) {
  metadata_.push_back({std::string(name), MetadataValue{std::nullopt, std::string(value)}});
}

void TraceStorage::AppendMetadata(std::string_view name, int64_t value) {
  metadata_.push_back({std::string(name), MetadataValue{value, std::nullopt}});
}

std::optional<int64_t> TraceStorage::GetMetadataInt(std::string_view name) const {
  for (const auto& [k, v] : metadata_) {
    if (k == name && v.machine == 0) return v.int_value;
  }
  return std::nullopt;
}

std::optional<std::string> TraceStorage::GetMetadataString(std::string_view name) const {
  for (const auto& [k, v] : metadata_) {
    if (k == name && v.machine == 0) return v.str_value;
  }
  return std::nullopt;
}

void TraceStorage::ComputeBoundsFromTables() {
  int64_t start = INT64_MAX;
  int64_t end = 0;
  auto point = [&](int64_t ts) {
    start = std::min(start, ts);
    end = std::max(end, ts);
  };
  auto interval = [&](int64_t ts, int64_t dur) {
    start = std::min(start, ts);
    end = std::max(end, ts + std::max<int64_t>(dur, 0));
  };
  for (uint32_t r = 0; r < ftrace_event.row_count(); ++r) point(ftrace_event.ts[r]);
  for (uint32_t r = 0; r < sched_slice.row_count(); ++r) interval(sched_slice.ts[r], sched_slice.dur[r]);
  for (uint32_t r = 0; r < counter.row_count(); ++r) point(counter.ts[r]);
  for (uint32_t r = 0; r < slice.row_count(); ++r) interval(slice.ts[r], slice.dur[r]);
  for (uint32_t r = 0; r < thread_state.row_count(); ++r) {
    interval(thread_state.ts[r], thread_state.dur[r]);
  }
  for (uint32_t r = 0; r < logs.row_count(); ++r) point(logs.ts[r]);
  for (uint32_t r = 0; r < state.row_count(); ++r) interval(state.ts[r], state.dur[r]);
  for (uint32_t r = 0; r < cpu_profile_stack_sample.row_count(); ++r) {
    point(cpu_profile_stack_sample.ts[r]);
  }
  for (uint32_t r = 0; r < perf_sample.row_count(); ++r) point(perf_sample.ts[r]);
  // Java heap dumps: their objects and the dumps themselves.
  for (uint32_t r = 0; r < heap_graph_object.row_count(); ++r) {
    point(heap_graph_object.graph_sample_ts[r]);
  }
  for (uint32_t r = 0; r < heap_graph.row_count(); ++r) point(heap_graph.ts[r]);
  for (uint32_t r = 0; r < heap_profile_allocation.row_count(); ++r) {
    point(heap_profile_allocation.ts[r]);
  }
  if (start == INT64_MAX) {
    start_ts_ = INT64_MAX;
    end_ts_ = INT64_MIN;
    return;
  }
  if (start == end) end += 1;
  start_ts_ = start;
  end_ts_ = end;
}

void TraceStorage::FinalizeStatsAndMetadata() {
  const StringId kInfo = Intern("info");
  auto add_stat = [&](std::string_view name, std::optional<int64_t> idx, int64_t value,
                      uint32_t machine = 0) {
    const StatInfo* info = FindStatInfo(name);
    stats.Insert({.name = Intern(name),
                  .key = static_cast<int64_t>(stats.row_count()),
                  .idx = idx,
                  .severity = info ? Intern(info->severity) : kInfo,
                  .source = info ? Intern(info->source) : Intern("analysis"),
                  .value = value,
                  .description = info ? Intern(info->description) : kNullStringId,
                  .machine_id = IsGlobalStat(name) ? OptU32() : OptU32(machine),
                  .trace_id = IsGlobalStat(name) ? OptU32() : OptU32(0)});
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
  for (const auto& [key, value] : machine_stats_) {
    add_stat(std::get<1>(key), std::get<2>(key), value, std::get<0>(key));
  }
  // Import logs point at their (non-indexed) stat's row.
  for (uint32_t r = 0; r < trace_import_logs.row_count(); ++r) {
    const StringId name = trace_import_logs.name[r];
    for (uint32_t k = 0; k < stats.row_count(); ++k) {
      if (stats.name[k] == name && stats.idx.IsNull(k)) {
        trace_import_logs.stat_key.Set(r, stats.key[k]);
        break;
      }
    }
  }

  // One trace file (id 0) per load; a key about a machine carries the machine it was set for
  // (0, the host, unless a remote machine's packets set it): scope decides which ids it has.
  for (const auto& [name, v] : metadata_) {
    const MetadataKeyInfo key = LookupMetadataKey(name);
    const bool machine_scoped =
        key.scope == MetadataScope::kMachine || key.scope == MetadataScope::kMachineAndTrace;
    const bool trace_scoped =
        key.scope == MetadataScope::kTrace || key.scope == MetadataScope::kMachineAndTrace;
    metadata.Insert({.name = Intern(name),
                     .key_type = Intern(key.multi ? "multi" : "single"),
                     .int_value = v.int_value,
                     .str_value = v.str_value ? Intern(*v.str_value) : kNullStringId,
                     .machine_id = machine_scoped ? OptU32(v.machine) : OptU32(),
                     .trace_id = trace_scoped ? OptU32(0) : OptU32()});
  }
  // Even a trace that never describes its machine has one: the host.
  if (machine.row_count() == 0) machine.Insert({.raw_id = 0});
}

std::vector<Table*> TraceStorage::AllTables() {
  return {TW_TRACE_TABLES(TW_STORAGE_TABLE_POINTER)};
}

size_t TraceStorage::memory_bytes() const {
  size_t total = strings_.memory_bytes();
  for (Table* t : const_cast<TraceStorage*>(this)->AllTables()) total += t->memory_bytes();
  return total;
}

}  // namespace tw
