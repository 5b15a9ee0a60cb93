#pragma once
// Everything a loaded trace holds: the string pool, every table, stats and metadata. Trackers
// write it during import; the query layer reads it afterwards (it is immutable once loaded).

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "libs/trace/storage/string_pool.h"
#include "libs/trace/storage/tables.h"

namespace tw {

enum class StatSeverity : uint8_t { kInfo, kDataLoss, kError };

class TraceStorage {
 public:
  TraceStorage();

  StringPool& strings() { return strings_; }
  const StringPool& strings() const { return strings_; }
  StringId Intern(std::string_view s) { return strings_.Intern(s); }
  std::string_view Str(StringId id) const { return strings_.Get(id); }

  // Stats: counters of what happened during import (errors, data loss, info). Keys are
  // trace_processor's stat names; indexed stats (per cpu, per buffer) carry an index.
  void IncrementStat(std::string_view name, int64_t delta = 1);
  void SetStat(std::string_view name, int64_t value);
  void SetIndexedStat(std::string_view name, int64_t index, int64_t value);
  // Stats about a remote machine (machine.id > 0; 0 is the host, the calls above): only the
  // ones it touched get rows, with its machine_id.
  void SetMachineStat(uint32_t machine, std::string_view name, std::optional<int64_t> index,
                      int64_t value);
  void IncrementIndexedStat(std::string_view name, int64_t index, int64_t delta = 1);
  int64_t GetStat(std::string_view name) const;
  // Counts one `stat` and keeps a trace_import_logs row for it with its details (`arg_set_id`)
  // and, when known, its time on the trace clock.
  void RecordImportLog(std::string_view stat, std::optional<int64_t> ts,
                       std::optional<uint32_t> arg_set_id);
  // Whether a stat counted so far (indexed or not) is positive and has a name `accept` takes.
  bool AnyStatPositive(const std::function<bool(std::string_view)>& accept) const;

  // Metadata: one row per key (or several for multi-valued keys).
  void SetMetadata(std::string_view name, int64_t value);
  void SetMetadata(std::string_view name, std::string_view value);
  // The same for a fact about one machine (machine.id; 0 is the host, what the calls above
  // write): machine-scoped keys get that machine_id.
  void SetMachineMetadata(uint32_t machine, std::string_view name, int64_t value);
  void SetMachineMetadata(uint32_t machine, std::string_view name, std::string_view value);
  std::optional<int64_t> GetMachineMetadataInt(uint32_t machine, std::string_view name) const;
  void AppendMetadata(std::string_view name, std::string_view value);
  void AppendMetadata(std::string_view name, int64_t value);
  std::optional<int64_t> GetMetadataInt(std::string_view name) const;
  std::optional<std::string> GetMetadataString(std::string_view name) const;

  // Trace bounds: widened by every timestamped event stored while importing, then set by
  // ComputeBoundsFromTables() to trace_processor's definition.
  void ExtendBounds(int64_t ts) {
    if (ts < start_ts_) start_ts_ = ts;
    if (ts > end_ts_) end_ts_ = ts;
  }
  int64_t start_ts() const { return start_ts_ == INT64_MAX ? 0 : start_ts_; }
  int64_t end_ts() const { return end_ts_ == INT64_MIN ? 0 : end_ts_; }

  // The trace's bounds as trace_processor defines them once a trace is loaded: the earliest
  // and latest time in the timestamped tables (ftrace_event, sched, counter, slice,
  // thread_state, logs, state, cpu_profile_stack_sample, perf_sample, heap_profile_allocation;
  // an interval's end counts). (0, 0) when they are all empty; an interval that collapsed to
  // one instant lasts 1 ns.
  void ComputeBoundsFromTables();

  // Writes stats and metadata into their tables. Called once when import finishes.
  void FinalizeStatsAndMetadata();

  size_t memory_bytes() const;

  // One member per declared table (tables.h's TW_TRACE_TABLES), named as the SQL table:
  // process, thread, sched_slice, slice, args, ...
  TW_TRACE_TABLES(TW_STORAGE_TABLE_MEMBER)

  // Every table, for registration with SQLite.
  std::vector<Table*> AllTables();

 private:
  struct StatValue {
    int64_t value = 0;
  };
  struct MetadataValue {
    std::optional<int64_t> int_value;
    std::optional<std::string> str_value;
    uint32_t machine = 0;
  };
  void SetMetadataValue(std::string_view name, MetadataValue value);

  StringPool strings_;
  std::map<std::pair<std::string, int64_t>, int64_t> indexed_stats_;
  std::map<std::string, int64_t, std::less<>> stats_;
  std::map<std::tuple<uint32_t, std::string, std::optional<int64_t>>, int64_t> machine_stats_;
  std::vector<std::pair<std::string, MetadataValue>> metadata_;
  int64_t start_ts_ = INT64_MAX;
  int64_t end_ts_ = INT64_MIN;
};

}  // namespace tw
