#pragma once
// Turns parsed ftrace text lines into events for the sorter, making the same choices as the
// protobuf ftrace decoder (importers/proto/ftrace_decoder.cc) so a systrace and a Perfetto
// trace of the same activity give the same tables: sched_switch and sched_waking become
// scheduling events only; sched_wakeup*, task_*, sched_process_*, sched_blocked_reason,
// cpu_frequency/idle and raw_syscalls become their typed event plus a row in ftrace_event;
// atrace markers (tracing_mark_write, "0", print) become atrace events plus a "print" row; any
// other event becomes an ftrace_event row with its key=value pairs as args.
//
// What text adds over protobuf is the line's own task column: like trace_processor, every line
// names its thread ("<...>" means unknown and names nothing) and, when the tgid column is
// there, ties the thread to its process. Those facts are sent only when they change, so a
// trace with a million lines does not carry a million naming events.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/importers/systrace/ftrace_text_args.h"
#include "libs/trace/importers/systrace/ftrace_text_line.h"
#include "libs/trace/sorter/event_sorter.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

class FtraceTextDecoder {
 public:
  FtraceTextDecoder(TraceStorage* storage, EventSorter* sorter);

  // Pushes the line's events. False when the event's fields could not be read (nothing but
  // the line's thread facts was pushed then).
  bool Decode(const FtraceTextLine& line);

  // Process-dump facts, ordered after every event decoded so far.
  void PushProcessTree(ProcessTreeData tree);

  // The newest timestamp pushed (0 before any).
  int64_t latest_ts() const { return latest_ts_; }

 private:
  struct ThreadFacts {
    StringId name = kNullStringId;  // what the trackers were last told from ftrace
    int64_t tgid = -1;              // the process the trackers were told, -1 none
  };

  void NoteRunningTask(const FtraceTextLine& line);
  // Records that the trackers will name `pid` so (unnamed events change nothing).
  void NoteName(int64_t pid, StringId name) {
    if (name != kNullStringId) threads_[pid].name = name;
  }
  void Push(uint32_t cpu, Event e);
  Event Base(const FtraceTextLine& line, EventType type) const;

  bool DecodeSchedSwitch(const FtraceTextLine& line, const FtraceTextArgs& args);
  bool DecodeWaking(const FtraceTextLine& line, const FtraceTextArgs& args);
  bool DecodeTask(const FtraceTextLine& line, const FtraceTextArgs& args, EventType type);
  bool DecodeBlockedReason(const FtraceTextLine& line, const FtraceTextArgs& args);
  bool DecodeCpuCounter(const FtraceTextLine& line, const FtraceTextArgs& args, EventType type);
  bool DecodeSyscall(const FtraceTextLine& line, EventType type);
  void DecodePrint(const FtraceTextLine& line);
  void PushRaw(const FtraceTextLine& line, StringId name, const FtraceTextArgs& args);

  StringId Intern(std::string_view s) { return storage_->Intern(s); }
  // A comm from the args; absent or empty names nothing.
  StringId InternComm(std::optional<std::string_view> comm);

  TraceStorage* storage_;
  EventSorter* sorter_;
  absl::flat_hash_map<int64_t, ThreadFacts> threads_;  // by pid, as last sent
  int64_t latest_ts_ = 0;
  StringId print_;
  StringId buf_;
};

}  // namespace tw
