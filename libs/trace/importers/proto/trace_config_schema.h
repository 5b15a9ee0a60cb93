#pragma once
// The part of TraceConfig's schema (protos/perfetto/config/trace_config.proto and
// data_source_config.proto) needed to print trace_config_pbtxt: TraceConfig and its own nested
// messages, and DataSourceConfig's common fields. Per-data-source configs (ftrace_config, ...)
// are named but not described, so their contents print by field number.

#include "libs/trace/importers/proto/proto_text.h"

namespace tw {

const ProtoTextMessage& TraceConfigSchema();

}  // namespace tw
