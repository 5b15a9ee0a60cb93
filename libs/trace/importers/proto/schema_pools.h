#pragma once
// The descriptor pools of the embedded .proto subsets (schema/), parsed once on first use.

#include "libs/trace/importers/proto/descriptor_pool.h"

namespace tw {

// Winscope traces: SurfaceFlinger layers and transactions, shell transitions, ProtoLog,
// ViewCapture, window manager and input method dumps (package tracewise.schema.winscope).
const DescriptorPool& WinscopeDescriptors();
// TrackEvent and the typed (Chrome) payloads trace_processor turns into args by reflection.
const DescriptorPool& TrackEventDescriptors();

}  // namespace tw
