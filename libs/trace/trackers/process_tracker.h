#pragma once
// Decides who is who: maps the pids/tids seen in a trace to unique rows (upid, utid), handling
// pid/tid reuse, late thread→process association and naming by source priority, following
// trace_processor's semantics (row 0 of each table is the idle task, "swapper").

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/storage/trace_storage.h"
#include "libs/trace/trackers/tid_map.h"

namespace tw {

// Who named a thread. A name is only replaced by one of equal or higher priority.
enum class ThreadNamePriority : uint8_t {
  kOther = 0,
  kFtrace = 1,
  kProcessTree = 2,
  kTrackDescriptorThreadType = 3,
  kTrackDescriptor = 4,
  kTraceProcessorConstant = 5,
};
// Who named a process; a name only replaces one of lower or equal priority. What the system
// reports (process_tree, the main thread's comm) wins over what the app's track descriptor claims,
// as in trace_processor.
enum class ProcessNamePriority : uint8_t {
  kOther = 0,
  kChromeProcessLabel = 1,
  kTrackDescriptor = 2,
  kChromeProcessLabelRenderer = 3,
  kSystem = 4,
};

class ProcessTracker {
 public:
  explicit ProcessTracker(TraceStorage* storage);

  // Threads.
  uint32_t StartNewThread(std::optional<int64_t> ts, int64_t tid);
  void EndThread(int64_t ts, int64_t tid);
  std::optional<uint32_t> GetThreadOrNull(int64_t tid) const {
    const uint32_t utid = live_tid_.Find(tid);
    if (utid == TidMap::kNone) return std::nullopt;
    return utid;
  }
  std::optional<uint32_t> GetThreadOrNull(int64_t tid, int64_t pid);
  uint32_t GetOrCreateThread(int64_t tid) {
    const uint32_t utid = live_tid_.Find(tid);
    return utid != TidMap::kNone ? utid : StartNewThread(std::nullopt, tid);
  }
  // Binds `tid` to process `pid` (creating either as needed).
  uint32_t UpdateThread(int64_t tid, int64_t pid);
  // The live thread `tid` of process `upid`, created in it if there is none.
  uint32_t GetOrCreateThreadWithParent(int64_t tid, uint32_t upid, bool is_main_thread);
  void UpdateThreadName(uint32_t utid, StringId name, ThreadNamePriority priority);
  void UpdateThreadNameAndMaybeProcessName(uint32_t utid, StringId name,
                                           ThreadNamePriority priority);
  // Records that two threads share a process (e.g. CLONE_THREAD), resolved when either's
  // process becomes known.
  void AssociateThreads(uint32_t utid1, uint32_t utid2);

  // Processes.
  uint32_t StartNewProcess(std::optional<int64_t> ts, std::optional<uint32_t> parent_upid,
                           int64_t pid, StringId name, ThreadNamePriority priority,
                           bool associate_main_thread = true);
  uint32_t GetOrCreateProcess(int64_t pid);
  uint32_t GetOrCreateProcessWithoutMainThread(int64_t pid);
  std::optional<uint32_t> GetProcessOrNull(int64_t pid) const;
  void AssociateCreatedProcessToParentThread(uint32_t upid, uint32_t parent_utid);
  void SetProcessParent(uint32_t upid, uint32_t parent_upid);
  void SetProcessMetadata(uint32_t upid, std::string_view name, std::string_view cmdline);
  void UpdateProcessName(uint32_t upid, StringId name, ProcessNamePriority priority);
  void SetProcessUid(uint32_t upid, int64_t uid);
  void SetStartTsIfUnset(uint32_t upid, int64_t ts);
  void SetMainThread(uint32_t utid, bool is_main);

  // Makes pid/tid 0 resolve to row 0, the idle task named "swapper" (kernel traces).
  void SetPidZeroIsUpidZeroIdleProcess();

  uint32_t swapper_utid() const { return 0; }

  // Whether the thread (and its process) has not ended.
  bool IsThreadAlive(uint32_t utid) const;

 private:
  void RefreshLiveTid(int64_t tid);
  void InvalidateProcessThreads(uint32_t upid);
  uint32_t GetOrCreateProcessInternal(int64_t pid, bool associate_main_thread);
  void AssociateThreadToProcess(uint32_t utid, uint32_t upid, bool is_main_thread);
  void ResolvePendingAssociations(uint32_t utid, uint32_t upid);

  TraceStorage* storage_;
  absl::flat_hash_map<int64_t, std::vector<uint32_t>> tids_;  // every utid of a tid, newest last
  TidMap live_tid_;  // tid → the utid it names now
  absl::flat_hash_map<int64_t, uint32_t> pids_;
  absl::flat_hash_map<uint32_t, std::vector<uint32_t>> process_threads_;
  std::vector<std::pair<uint32_t, uint32_t>> pending_assocs_;         // utid ↔ utid
  std::vector<std::pair<uint32_t, uint32_t>> pending_parent_assocs_;  // parent utid → child upid
  // By utid: the thread's name as last written to the table, and who named it.
  struct ThreadName {
    StringId name = kNullStringId;
    ThreadNamePriority priority = ThreadNamePriority::kOther;
  };
  std::vector<ThreadName> thread_names_;
  std::vector<ProcessNamePriority> process_name_priority_;
};

}  // namespace tw
