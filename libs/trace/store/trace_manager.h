#pragma once
// Loaded traces under a memory budget. A trace loads on first use (concurrent requests for it
// wait for the one load), stays loaded while memory allows, and the least recently used traces
// are evicted when a new one needs room; an evicted trace reloads on demand from the store.
// Callers hold a lease (shared_ptr) while they query, so eviction never pulls a trace from
// under a running query; its memory is freed when the last lease ends. Queries on different
// traces run in parallel (each trace has its own SQLite connection); one trace's slow query
// blocks only that trace's connection.

#include <condition_variable>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/trace/store/trace_store.h"
#include "libs/trace/trace_loader.h"

namespace tw {

enum class TraceState { kStored, kLoading, kLoaded, kFailed };
const char* TraceStateName(TraceState state);

struct ManagedTraceInfo {
  std::string id;
  std::string name;
  TraceState state = TraceState::kStored;
  int64_t size_bytes = 0;
  int64_t memory_bytes = 0;
  int64_t last_used_unix_ns = 0;
  std::string format;
  int64_t start_ts = 0;
  int64_t end_ts = 0;
  int64_t load_ns = 0;
  std::string error;
};

struct TraceManagerOptions {
  int64_t memory_budget_bytes = int64_t{4} << 30;
};

class TraceManager {
 public:
  TraceManager(TraceStore* store, TraceManagerOptions options);

  // The loaded trace, loading it if needed. NOT_FOUND (unknown id), INVALID_ARGUMENT (the file
  // is not a trace we can read), RESOURCE_EXHAUSTED (it alone exceeds the memory budget).
  absl::StatusOr<std::shared_ptr<LoadedTrace>> Acquire(const std::string& id);
  absl::StatusOr<ManagedTraceInfo> Load(const std::string& id);
  absl::Status Unload(const std::string& id);
  std::vector<ManagedTraceInfo> List();
  int64_t memory_used_bytes();
  int64_t memory_budget_bytes() const { return options_.memory_budget_bytes; }
  TraceStore& store() { return *store_; }

 private:
  struct Entry {
    ManagedTraceInfo info;
    std::shared_ptr<LoadedTrace> trace;
    bool loading = false;
    std::list<std::string>::iterator lru;  // valid while loaded
  };

  // Makes room for `needed` bytes by evicting least recently used traces other than `keep`.
  void EvictFor(int64_t needed, const std::string& keep);
  void Touch(Entry& entry);
  ManagedTraceInfo InfoFor(const std::string& id, const Entry* entry, const StoredTrace& stored);

  TraceStore* store_;
  TraceManagerOptions options_;
  std::mutex mu_;
  std::condition_variable loaded_cv_;
  std::map<std::string, Entry> entries_;
  std::list<std::string> lru_;  // most recently used first
  int64_t used_bytes_ = 0;
};

}  // namespace tw
