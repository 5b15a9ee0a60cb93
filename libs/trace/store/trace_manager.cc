#include "libs/trace/store/trace_manager.h"

#include <malloc.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/trace/reader/open_trace.h"

namespace tw {

struct TraceManager::Accounting {
  std::mutex mu;
  std::condition_variable changed;  // a trace's memory was freed, or a load finished
  int64_t alive_bytes = 0;          // every trace not yet destroyed, evicted ones included
  int64_t reserved_bytes = 0;       // expected peaks of the loads in flight
  int loads_in_flight = 0;
};

namespace {

int64_t UnixNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// What a loaded trace holds: its tables and strings, its column indexes and SQLite connection
// (page cache, schema, statements, included modules), plus a fixed allowance for the rest of
// the connection's bookkeeping.
constexpr int64_t kPerTraceBytes = 4 << 20;
int64_t MemoryOf(LoadedTrace& trace) {
  return trace.info().storage_bytes + trace.db().memory_bytes() + kPerTraceBytes;
}

std::string Mb(int64_t bytes) { return absl::StrFormat("%.1f MB", static_cast<double>(bytes) / (1 << 20)); }

// The kind the estimator keys on, read from the file's head (cheap: no decoding).
std::string TraceKind(const std::string& path) {
  auto opened = OpenTraceFile(path);
  if (!opened.ok()) return "unknown";
  std::string kind(TraceFormatName(opened->format));
  if (opened->gzip) kind += "+gzip";
  return kind;
}

// Freed trace memory goes back to the system now, not whenever the allocator decides: a
// process-wide budget reads the resident size, and a container limit kills on it.
void ReturnFreedMemory() { malloc_trim(0); }

// The highest resident size seen while a load runs alone, sampled every few milliseconds.
class PeakSampler {
 public:
  explicit PeakSampler(const std::function<int64_t()>& resident)
      : resident_(resident), peak_(resident()) {
    thread_ = std::thread([this] {
      while (!stop_.load()) {
        const int64_t now = resident_();
        if (now > peak_.load()) peak_ = now;
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
      }
    });
  }
  int64_t Stop() {
    stop_ = true;
    thread_.join();
    return std::max(peak_.load(), resident_());
  }

 private:
  const std::function<int64_t()>& resident_;
  std::atomic<int64_t> peak_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace

const char* TraceStateName(TraceState state) {
  switch (state) {
    case TraceState::kStored: return "stored";
    case TraceState::kLoading: return "loading";
    case TraceState::kLoaded: return "loaded";
    case TraceState::kFailed: return "failed";
  }
  return "unknown";
}

TraceManager::TraceManager(TraceStore* store, TraceManagerOptions options)
    : store_(store), options_(std::move(options)), acct_(std::make_shared<Accounting>()) {
  if (options_.process_resident_bytes) baseline_bytes_ = options_.process_resident_bytes();
}

TraceManager::~TraceManager() {
  // Leases may outlive the manager; their deleters only touch the shared accounting.
  std::vector<std::shared_ptr<LoadedTrace>> released;
  {
    std::lock_guard<std::mutex> lock(acct_->mu);
    for (auto& [id, entry] : entries_) released.push_back(std::move(entry.trace));
  }
}

void TraceManager::Touch(Entry& entry) {
  entry.info.last_used_unix_ns = UnixNowNs();
  if (entry.trace) lru_.splice(lru_.begin(), lru_, entry.lru);
}

int64_t TraceManager::HeadroomLocked() {
  int64_t held = acct_->alive_bytes + baseline_bytes_;
  if (options_.process_resident_bytes) held = std::max(held, options_.process_resident_bytes());
  return options_.memory_budget_bytes - held - acct_->reserved_bytes;
}

bool TraceManager::EvictOneLocked(const std::string& keep,
                                  std::vector<std::shared_ptr<LoadedTrace>>* released) {
  // Least recently used first, idle traces before leased ones (whose memory only comes back
  // when their queries end); the trace being made room for is never a candidate.
  auto pick = lru_.end();
  for (bool idle_only : {true, false}) {
    for (auto it = lru_.rbegin(); it != lru_.rend(); ++it) {
      if (*it == keep) continue;
      const Entry& e = entries_.at(*it);
      if (idle_only && e.trace.use_count() > 1) continue;
      pick = std::prev(it.base());
      break;
    }
    if (pick != lru_.end()) break;
  }
  if (pick == lru_.end()) return false;
  Entry& e = entries_.at(*pick);
  released->push_back(std::move(e.trace));  // running queries keep their lease
  e.trace.reset();
  e.info.state = TraceState::kStored;
  e.info.memory_bytes = 0;
  lru_.erase(pick);
  return true;
}

absl::Status TraceManager::Refuse(Entry& entry, absl::StatusCode code, const std::string& why) {
  entry.refused = true;
  entry.refusal_code = code;
  entry.info.state = TraceState::kFailed;
  entry.info.error = why;
  return absl::Status(code, why);
}

absl::StatusOr<std::shared_ptr<LoadedTrace>> TraceManager::Acquire(const std::string& id) {
  auto stored = store_->Find(id);
  if (!stored.ok()) return stored.status();
  std::unique_lock<std::mutex> lock(acct_->mu);
  Entry& entry = entries_[id];
  // Another caller is loading this trace: wait for its result rather than loading it twice.
  acct_->changed.wait(lock, [&] { return !entry.loading; });
  if (entry.trace) {
    Touch(entry);
    return entry.trace;
  }
  if (entry.refused) return absl::Status(entry.refusal_code, entry.info.error);
  entry.loading = true;
  entry.info = InfoFor(id, &entry, *stored);
  entry.info.state = TraceState::kLoading;
  // Whatever happens below, waiters for this trace wake up to its outcome.
  struct Done {
    Entry& entry;
    Accounting& acct;
    std::unique_lock<std::mutex>& lock;
    ~Done() {
      if (!lock.owns_lock()) lock.lock();
      entry.loading = false;
      acct.changed.notify_all();
    }
  } done{entry, *acct_, lock};

  const std::string path = store_->PathOf(id);
  if (entry.kind.empty()) {
    lock.unlock();
    std::string kind = TraceKind(path);
    lock.lock();
    entry.kind = std::move(kind);
  }
  const LoadEstimate estimate = estimator_.Estimate(id, entry.kind, stored->size_bytes);
  const int64_t room = options_.memory_budget_bytes - baseline_bytes_;
  if (estimate.peak_bytes > room) {
    return Refuse(entry, absl::StatusCode::kResourceExhausted,
                  absl::StrCat("trace ", id, " (", Mb(stored->size_bytes), " ", entry.kind,
                               ") needs about ", Mb(estimate.peak_bytes), " to load (",
                               estimate.measured ? "measured when it was loaded before"
                                                 : "estimated from its size and kind",
                               "), more than the ", Mb(room),
                               " the memory budget leaves for traces (budget ",
                               Mb(options_.memory_budget_bytes),
                               "); raise --memory-budget-mb or the container's memory limit"));
  }

  // Admission: make room by evicting, else wait for running queries and loads to give some back.
  const auto deadline = std::chrono::steady_clock::now() +
                        absl::ToChronoNanoseconds(options_.admission_timeout);
  while (HeadroomLocked() < estimate.peak_bytes) {
    std::vector<std::shared_ptr<LoadedTrace>> released;
    if (EvictOneLocked(id, &released)) {
      lock.unlock();
      released.clear();  // destroyed here, outside the lock, unless a query still holds it
      lock.lock();
      continue;
    }
    // Nothing left to evict or to wait for (no trace held, no load in flight): the process's
    // own resident size leaves too little room, now and later. Refused and remembered.
    if (acct_->alive_bytes == 0 && acct_->reserved_bytes == 0) {
      lock.unlock();
      ReturnFreedMemory();
      lock.lock();
      const int64_t headroom = HeadroomLocked();
      if (headroom >= estimate.peak_bytes) continue;
      return Refuse(entry, absl::StatusCode::kResourceExhausted,
                    absl::StrCat("trace ", id, " (", Mb(stored->size_bytes), " ", entry.kind,
                                 ") needs about ", Mb(estimate.peak_bytes), " to load; the ",
                                 Mb(options_.memory_budget_bytes),
                                 " memory budget leaves ", Mb(std::max<int64_t>(headroom, 0)),
                                 " beside what the process itself holds; raise "
                                 "--memory-budget-mb or the container's memory limit"));
    }
    // In process mode, memory nobody announces (queries finishing, the allocator trimming)
    // comes back without a notification: look again every few milliseconds.
    const auto wake = std::min(deadline, std::chrono::steady_clock::now() + std::chrono::milliseconds(50));
    if (acct_->changed.wait_until(lock, wake) == std::cv_status::timeout &&
        std::chrono::steady_clock::now() >= deadline) {
      entry.info.state = TraceState::kStored;
      return absl::ResourceExhaustedError(absl::StrCat(
          "trace ", id, " needs about ", Mb(estimate.peak_bytes),
          " to load and the memory budget (", Mb(options_.memory_budget_bytes),
          ") stayed busy with running queries and loads for ",
          absl::FormatDuration(options_.admission_timeout), "; try again"));
    }
  }
  acct_->reserved_bytes += estimate.peak_bytes;
  ++acct_->loads_in_flight;
  const bool alone = acct_->loads_in_flight == 1;
  lock.unlock();

  // Load outside the lock: other traces stay usable meanwhile. A load running alone in process
  // mode has its peak measured, which teaches the estimator.
  int64_t before = 0, peak = 0;
  std::unique_ptr<PeakSampler> sampler;
  if (alone && options_.process_resident_bytes) {
    before = options_.process_resident_bytes();
    sampler = std::make_unique<PeakSampler>(options_.process_resident_bytes);
  }
  ++loads_started_;
  auto loaded = LoadTraceFile(path);
  int64_t memory = 0;
  if (loaded.ok()) memory = MemoryOf(**loaded);
  if (sampler) peak = std::max<int64_t>(0, sampler->Stop() - before);
  ReturnFreedMemory();  // the loader's transient buffers

  lock.lock();
  acct_->reserved_bytes -= estimate.peak_bytes;
  --acct_->loads_in_flight;
  if (!loaded.ok()) {
    if (loaded.status().code() == absl::StatusCode::kInvalidArgument) {
      // The file is immutable (content-addressed): it will not read better next time.
      return Refuse(entry, absl::StatusCode::kInvalidArgument, std::string(loaded.status().message()));
    }
    entry.info.state = TraceState::kFailed;
    entry.info.error = std::string(loaded.status().message());
    return loaded.status();
  }
  estimator_.Observe(id, entry.kind, stored->size_bytes, alone && sampler ? std::max(peak, memory) : 0,
                     memory);
  if (memory > room) {
    lock.unlock();
    loaded->reset();
    ReturnFreedMemory();
    lock.lock();
    return Refuse(entry, absl::StatusCode::kResourceExhausted,
                  absl::StrCat("trace ", id, " needs ", Mb(memory),
                               " loaded, more than the ", Mb(room),
                               " the memory budget leaves for traces (budget ",
                               Mb(options_.memory_budget_bytes),
                               "); raise --memory-budget-mb or the container's memory limit"));
  }
  // The lease's deleter gives the memory back when the last holder lets go, wherever that is.
  auto counted = std::make_shared<std::atomic<int64_t>>(memory);
  std::shared_ptr<Accounting> acct = acct_;
  std::shared_ptr<LoadedTrace> trace(loaded->release(), [acct, counted](LoadedTrace* t) {
    delete t;
    {
      std::lock_guard<std::mutex> guard(acct->mu);
      acct->alive_bytes -= counted->load();
    }
    acct->changed.notify_all();
    ReturnFreedMemory();
  });
  acct_->alive_bytes += memory;
  entry.trace = trace;
  entry.counted = counted;
  entry.info.state = TraceState::kLoaded;
  entry.info.memory_bytes = memory;
  entry.info.error.clear();
  const LoadInfo& info = trace->info();
  entry.info.format = info.format;
  entry.info.load_ns = info.load_ns;
  entry.info.start_ts = trace->storage().start_ts();
  entry.info.end_ts = trace->storage().end_ts();
  lru_.push_front(id);
  entry.lru = lru_.begin();
  Touch(entry);
  // Over budget after all (the estimate was low, or queries grew meanwhile): idle traces go.
  std::vector<std::shared_ptr<LoadedTrace>> released;
  while (HeadroomLocked() < 0 && EvictOneLocked(id, &released)) {
  }
  lock.unlock();
  released.clear();
  return trace;
}

void TraceManager::Recount(const std::string& id, LoadedTrace& trace) {
  const int64_t now = MemoryOf(trace);
  std::vector<std::shared_ptr<LoadedTrace>> released;
  {
    std::lock_guard<std::mutex> lock(acct_->mu);
    auto it = entries_.find(id);
    if (it == entries_.end() || it->second.trace.get() != &trace) return;  // evicted meanwhile
    Entry& e = it->second;
    const int64_t before = e.counted->exchange(now);
    acct_->alive_bytes += now - before;
    e.info.memory_bytes = now;
    while (HeadroomLocked() < 0 && EvictOneLocked(id, &released)) {
    }
  }
  released.clear();
}

absl::StatusOr<ManagedTraceInfo> TraceManager::Load(const std::string& id) {
  auto trace = Acquire(id);
  if (!trace.ok()) return trace.status();
  std::lock_guard<std::mutex> lock(acct_->mu);
  return entries_.at(id).info;
}

absl::Status TraceManager::Unload(const std::string& id) {
  auto stored = store_->Find(id);
  if (!stored.ok()) return stored.status();
  std::shared_ptr<LoadedTrace> released;
  {
    std::lock_guard<std::mutex> lock(acct_->mu);
    auto it = entries_.find(id);
    if (it == entries_.end() || !it->second.trace) return absl::OkStatus();
    lru_.erase(it->second.lru);
    released = std::move(it->second.trace);
    it->second.trace.reset();
    it->second.info.state = TraceState::kStored;
    it->second.info.memory_bytes = 0;
  }
  return absl::OkStatus();
}

ManagedTraceInfo TraceManager::InfoFor(const std::string& id, const Entry* entry,
                                       const StoredTrace& stored) {
  ManagedTraceInfo info = entry ? entry->info : ManagedTraceInfo{};
  info.id = id;
  info.name = stored.name;
  info.size_bytes = stored.size_bytes;
  return info;
}

std::vector<ManagedTraceInfo> TraceManager::List() {
  const std::vector<StoredTrace> stored = store_->List();
  std::lock_guard<std::mutex> lock(acct_->mu);
  std::vector<ManagedTraceInfo> out;
  for (const StoredTrace& s : stored) {
    auto it = entries_.find(s.id);
    out.push_back(InfoFor(s.id, it == entries_.end() ? nullptr : &it->second, s));
  }
  return out;
}

int64_t TraceManager::memory_used_bytes() {
  std::lock_guard<std::mutex> lock(acct_->mu);
  return acct_->alive_bytes + acct_->reserved_bytes;
}

}  // namespace tw
