#pragma once
// UFS storage commands (ufshcd_command ftrace events), as trace_processor shows them: how many
// commands the host controller has in flight ("io.ufs.command.count", the doorbell register's
// set bits), and one slice per command on the track of its tag ("io.ufs.command.tag[007]"),
// named after its SCSI operation ("READ (10)", "WRITE (10) (GID=0x16)").

#include <cstdint>
#include <string>

#include "libs/trace/events/events.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

// The SCSI command name of `opcode` ("UNDEFINED" for others), with " (GID=0x<gid>)" when the
// command carries a group id.
std::string UfsCommandName(uint32_t opcode, uint32_t group_id);

class UfsCommandTracker {
 public:
  explicit UfsCommandTracker(TraceContext* ctx);

  // Handles `raw` if it is a ufshcd_command event (its raw row is stored by the caller).
  void OnFtraceEvent(int64_t ts, const FtraceRawData& raw);

 private:
  TraceContext* ctx_;
  TraceStorage* storage_;
  StringId event_name_;
};

}  // namespace tw
