#include "libs/trace/store/trace_manager.h"

#include <chrono>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tw {
namespace {

int64_t UnixNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// What a loaded trace holds: its tables and strings, plus SQLite's per-connection overhead
// (page cache, schema), which is small next to them.
int64_t MemoryOf(const LoadedTrace& trace) {
  return trace.info().storage_bytes + (int64_t{4} << 20);
}

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
    : store_(store), options_(options) {}

void TraceManager::Touch(Entry& entry) {
  entry.info.last_used_unix_ns = UnixNowNs();
  if (entry.trace) lru_.splice(lru_.begin(), lru_, entry.lru);
}

void TraceManager::EvictFor(int64_t needed, const std::string& keep) {
  while (used_bytes_ + needed > options_.memory_budget_bytes && !lru_.empty()) {
    // Least recently used first; the trace being made room for is never a candidate.
    auto victim = std::prev(lru_.end());
    if (*victim == keep) {
      if (lru_.size() == 1) return;
      victim = std::prev(victim);
    }
    Entry& e = entries_.at(*victim);
    used_bytes_ -= e.info.memory_bytes;
    e.trace.reset();  // running queries keep their lease; memory goes when they finish
    e.info.state = TraceState::kStored;
    e.info.memory_bytes = 0;
    lru_.erase(victim);
  }
}

absl::StatusOr<std::shared_ptr<LoadedTrace>> TraceManager::Acquire(const std::string& id) {
  auto stored = store_->Find(id);
  if (!stored.ok()) return stored.status();
  std::unique_lock<std::mutex> lock(mu_);
  Entry& entry = entries_[id];
  // Another caller is loading this trace: wait for its result rather than loading it twice.
  loaded_cv_.wait(lock, [&] { return !entry.loading; });
  if (entry.trace) {
    Touch(entry);
    return entry.trace;
  }
  entry.loading = true;
  entry.info = InfoFor(id, &entry, *stored);
  entry.info.state = TraceState::kLoading;
  lock.unlock();

  // Load outside the lock: other traces stay usable meanwhile.
  auto loaded = LoadTraceFile(store_->PathOf(id));

  lock.lock();
  entry.loading = false;
  loaded_cv_.notify_all();
  if (!loaded.ok()) {
    entry.info.state = TraceState::kFailed;
    entry.info.error = std::string(loaded.status().message());
    return loaded.status();
  }
  std::shared_ptr<LoadedTrace> trace = std::move(*loaded);
  const int64_t memory = MemoryOf(*trace);
  if (memory > options_.memory_budget_bytes) {
    entry.info.state = TraceState::kStored;
    return absl::ResourceExhaustedError(
        absl::StrCat("trace ", id, " needs ", memory, " bytes loaded, more than the memory budget of ",
                     options_.memory_budget_bytes, " bytes"));
  }
  EvictFor(memory, id);
  used_bytes_ += memory;
  entry.trace = trace;
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
  return trace;
}

absl::StatusOr<ManagedTraceInfo> TraceManager::Load(const std::string& id) {
  auto trace = Acquire(id);
  if (!trace.ok()) return trace.status();
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.at(id).info;
}

absl::Status TraceManager::Unload(const std::string& id) {
  auto stored = store_->Find(id);
  if (!stored.ok()) return stored.status();
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end() || !it->second.trace) return absl::OkStatus();
  used_bytes_ -= it->second.info.memory_bytes;
  lru_.erase(it->second.lru);
  it->second.trace.reset();
  it->second.info.state = TraceState::kStored;
  it->second.info.memory_bytes = 0;
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
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<ManagedTraceInfo> out;
  for (const StoredTrace& s : stored) {
    auto it = entries_.find(s.id);
    out.push_back(InfoFor(s.id, it == entries_.end() ? nullptr : &it->second, s));
  }
  return out;
}

int64_t TraceManager::memory_used_bytes() {
  std::lock_guard<std::mutex> lock(mu_);
  return used_bytes_;
}

}  // namespace tw
