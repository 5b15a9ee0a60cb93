#pragma once
// system_info packets describe the machine that recorded the trace: uname, Android build and
// device facts, timezone, RAM. They become trace_processor's metadata keys (system_name,
// system_release, android_sdk_version, ...) and the host row of the `machine` table; the kernel
// release is also kept in ImportContext for the sched tracker (task-state layout).

#include <cstdint>
#include <optional>

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class SystemInfoDecoder {
 public:
  explicit SystemInfoDecoder(ImportContext* ctx) : ctx_(ctx) {}

  // Returns the page size the packet implies (4096 when it gives none), for sys_stats.
  uint32_t Decode(const proto::Field& field, uint32_t machine);

 private:
  void DecodeUtsname(const proto::Field& field, uint32_t machine);
  // The host machine's row, created on first use.

  ImportContext* ctx_;
};

}  // namespace tw
