#pragma once
// Reads the "PROCESS DUMP" block of a systrace HTML report: `ps` output captured with the
// trace, which names processes and ties threads to them (ftrace text alone rarely does).
// Two layouts exist, told apart by their header line:
//   long:  USER PID PPID VSZ RSS WCHAN PC S NAME [CMD...]     one row per process
//   short: USER PID TID CMD                                   one row per thread
// The long layout is assumed until a header says otherwise, as trace_processor does.

#include <string_view>

#include "libs/trace/events/events.h"

namespace tw {

class ProcessDumpParser {
 public:
  // A new PROCESS DUMP block starts.
  void Reset() { short_layout_ = false; }

  // Adds the process or thread a row describes to `out`. False for a row that is neither a
  // header nor a well-formed row (the caller counts it).
  bool ParseLine(std::string_view line, ProcessTreeData* out);

 private:
  bool short_layout_ = false;
};

}  // namespace tw
