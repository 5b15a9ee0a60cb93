#pragma once
// Loaded traces under a memory budget. A trace loads on first use (concurrent requests for it
// wait for the one load), stays loaded while memory allows, and the least recently used traces
// are evicted when a new one needs room; an evicted trace reloads on demand from the store.
// Callers hold a lease (shared_ptr) while they query, so eviction never pulls a trace from
// under a running query; its memory is counted until the last lease ends. Queries on different
// traces run in parallel (each trace has its own SQLite connection); one trace's slow query
// blocks only that trace's connection.
//
// The budget holds the loads, not only the tables (issue #15):
// - A load is admitted by its expected *peak* (LoadEstimator: the file's size and kind, refined
//   by earlier loads), reserved before it starts: concurrent loads cannot overshoot together.
//   Without room, least recently used traces are evicted; if the room is held by running
//   queries or other loads, the load waits for it (up to `admission_timeout`).
// - A trace that cannot fit even alone is refused once, and the refusal is remembered: later
//   requests get the same RESOURCE_EXHAUSTED at once, without loading it again to find out.
//   So is a file that is not a readable trace (content-addressed files never change).
// - Memory that grows after a load (lazily built column indexes, SQLite's caches and included
//   modules) is counted after each query, and over-budget use evicts idle traces.
// - With `process_resident_bytes` set (the trace-query service does), the budget is the whole
//   process's: admission also sees its real resident size, so memory nobody accounted for
//   (allocator slack, queries' transient memory, gRPC buffers) still holds loads back.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/trace/store/load_estimator.h"
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
  std::string error;  // why it failed, or why it was refused (kFailed)
};

struct TraceManagerOptions {
  int64_t memory_budget_bytes = int64_t{4} << 30;
  // How long a load waits for memory that running queries or other loads hold.
  absl::Duration admission_timeout = absl::Seconds(60);
  // The process's resident bytes now (e.g. CurrentRssBytes). Set: the budget covers the whole
  // process. Unset: it covers the traces (tables, indexes, loads in flight) only.
  std::function<int64_t()> process_resident_bytes;
};

class TraceManager {
 public:
  TraceManager(TraceStore* store, TraceManagerOptions options);
  ~TraceManager();

  // The loaded trace, loading it if needed. NOT_FOUND (unknown id), INVALID_ARGUMENT (the file
  // is not a trace we can read), RESOURCE_EXHAUSTED (it cannot fit in the budget — remembered —
  // or memory stayed busy past the admission timeout — not remembered).
  absl::StatusOr<std::shared_ptr<LoadedTrace>> Acquire(const std::string& id);
  absl::StatusOr<ManagedTraceInfo> Load(const std::string& id);
  absl::Status Unload(const std::string& id);
  // After a query on a leased trace: counts the memory it grew by (indexes, SQLite caches) and
  // evicts idle traces if the budget is now exceeded.
  void Recount(const std::string& id, LoadedTrace& trace);
  std::vector<ManagedTraceInfo> List();
  // Bytes held by traces (loaded, or evicted but still leased) and reserved by loads in flight.
  int64_t memory_used_bytes();
  int64_t memory_budget_bytes() const { return options_.memory_budget_bytes; }
  const LoadEstimator& estimator() const { return estimator_; }
  // How many times a trace file was read and loaded (refusals remembered do not add to it).
  int64_t loads_started() const { return loads_started_.load(); }
  TraceStore& store() { return *store_; }

 private:
  struct Accounting;  // shared with every lease's deleter
  struct Entry {
    ManagedTraceInfo info;
    std::shared_ptr<LoadedTrace> trace;
    std::shared_ptr<std::atomic<int64_t>> counted;  // what the lease's deleter will give back
    std::string kind;
    bool loading = false;
    bool refused = false;  // remembered: RESOURCE_EXHAUSTED or INVALID_ARGUMENT, never reloaded
    absl::StatusCode refusal_code = absl::StatusCode::kOk;
    std::list<std::string>::iterator lru;  // valid while loaded
  };

  // Bytes the budget still has for a new load, given what traces hold, loads reserve and
  // (in process mode) what the process really holds. Needs the lock.
  int64_t HeadroomLocked();
  // Evicts the least recently used loaded trace other than `keep`; its last reference goes to
  // `released` so it is destroyed outside the lock. False when there is none to evict.
  bool EvictOneLocked(const std::string& keep,
                      std::vector<std::shared_ptr<LoadedTrace>>* released);
  void Touch(Entry& entry);
  ManagedTraceInfo InfoFor(const std::string& id, const Entry* entry, const StoredTrace& stored);
  absl::Status Refuse(Entry& entry, absl::StatusCode code, const std::string& why);

  TraceStore* store_;
  TraceManagerOptions options_;
  LoadEstimator estimator_;
  std::shared_ptr<Accounting> acct_;
  std::map<std::string, Entry> entries_;
  std::list<std::string> lru_;  // most recently used first
  int64_t baseline_bytes_ = 0;
  std::atomic<int64_t> loads_started_{0};  // the process's resident size before any trace (process mode)
};

}  // namespace tw
