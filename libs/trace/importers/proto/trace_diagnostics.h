#pragma once
// Trace diagnostics: checks of the config a trace was recorded with (its trace_config packet),
// read together with the stats and metadata the import produced, that name settings known to
// hurt a trace's quality — an ftrace buffer too small for bursts, a drain bandwidth too low,
// kernel-address events without symbolize_ksyms, a DISCARD buffer behind a streaming trace, a
// heap profiler sampling too often, display video asked for on a user build that cannot record
// it. Each finding is a row of trace_diagnostics (key, title, description, remediation,
// confidence in [0, 1]); the keys and the conditions are trace_processor's
// (`__intrinsic_trace_diagnostics`), the wording ours. Rows come rule by rule, each rule over
// every data source in config order.

#include <cstdint>
#include <optional>
#include <string_view>

#include "libs/trace/storage/trace_storage.h"

namespace tw {

// What the checks read besides the config and the storage's stats and metadata.
struct TraceDiagnosticsContext {
  // When tracing started, in ns since boot (BOOTTIME), if the trace says.
  std::optional<int64_t> tracing_started_boot_ns;
  // Whether the trace holds display video frames (this engine does not import them yet).
  bool has_video_frames = false;
};

// Evaluates every check against the serialized TraceConfig `config` and adds a trace_diagnostics
// row per finding. A config that does not decode yields what decoded before the damage.
void RunTraceDiagnostics(std::string_view config, const TraceDiagnosticsContext& context,
                         TraceStorage* storage);

}  // namespace tw
