#include "libs/trace/importers/proto/trace_config_schema.h"

#include <iterator>

namespace tw {
namespace {

using K = ProtoTextField::Kind;

#define TW_MESSAGE(fields) ProtoTextMessage{fields, std::size(fields)}
#define TW_ENUM(values) ProtoTextEnum{values, std::size(values)}

// ---- enums ----
constexpr ProtoTextEnumValue kFillPolicyValues[] = {
    {0, "UNSPECIFIED"}, {1, "RING_BUFFER"}, {2, "DISCARD"}};
constexpr ProtoTextEnumValue kExperimentalModeValues[] = {
    {0, "MODE_UNSPECIFIED"}, {1, "TRACE_BUFFER_V2"}};
constexpr ProtoTextEnumValue kLockdownValues[] = {
    {0, "LOCKDOWN_UNCHANGED"}, {1, "LOCKDOWN_CLEAR"}, {2, "LOCKDOWN_SET"}};
constexpr ProtoTextEnumValue kTriggerModeValues[] = {
    {0, "UNSPECIFIED"}, {1, "START_TRACING"}, {2, "STOP_TRACING"}, {4, "CLONE_SNAPSHOT"}};
constexpr ProtoTextEnumValue kCompressionTypeValues[] = {
    {0, "COMPRESSION_TYPE_UNSPECIFIED"}, {1, "COMPRESSION_TYPE_DEFLATE"}};
constexpr ProtoTextEnumValue kStatsdLoggingValues[] = {
    {0, "STATSD_LOGGING_UNSPECIFIED"}, {1, "STATSD_LOGGING_ENABLED"},
    {2, "STATSD_LOGGING_DISABLED"}};
constexpr ProtoTextEnumValue kWriteFlushModeValues[] = {
    {0, "WRITE_FLUSH_UNSPECIFIED"}, {1, "WRITE_FLUSH_AUTO"}, {2, "WRITE_FLUSH_DISABLED"},
    {3, "WRITE_FLUSH_ENABLED"}};
constexpr ProtoTextEnumValue kFflushModeValues[] = {
    {0, "FFLUSH_UNSPECIFIED"}, {1, "FFLUSH_DISABLED"}, {2, "FFLUSH_ENABLED"}};
constexpr ProtoTextEnumValue kBuiltinClockValues[] = {
    {0, "BUILTIN_CLOCK_UNKNOWN"},        {1, "BUILTIN_CLOCK_REALTIME"},
    {2, "BUILTIN_CLOCK_REALTIME_COARSE"}, {3, "BUILTIN_CLOCK_MONOTONIC"},
    {4, "BUILTIN_CLOCK_MONOTONIC_COARSE"}, {5, "BUILTIN_CLOCK_MONOTONIC_RAW"},
    {6, "BUILTIN_CLOCK_BOOTTIME"},       {9, "BUILTIN_CLOCK_TSC"},
    {10, "BUILTIN_CLOCK_PERF"},          {11, "BUILTIN_CLOCK_TRACE_FILE"},
    {63, "BUILTIN_CLOCK_MAX_ID"}};
constexpr ProtoTextEnumValue kSessionInitiatorValues[] = {
    {0, "SESSION_INITIATOR_UNSPECIFIED"}, {1, "SESSION_INITIATOR_TRUSTED_SYSTEM"}};
constexpr ProtoTextEnumValue kBufferExhaustedValues[] = {
    {0, "BUFFER_EXHAUSTED_UNSPECIFIED"}, {1, "BUFFER_EXHAUSTED_DROP"},
    {2, "BUFFER_EXHAUSTED_STALL_THEN_ABORT"}, {3, "BUFFER_EXHAUSTED_STALL_THEN_DROP"}};

constexpr ProtoTextEnum kFillPolicy = TW_ENUM(kFillPolicyValues);
constexpr ProtoTextEnum kExperimentalMode = TW_ENUM(kExperimentalModeValues);
constexpr ProtoTextEnum kLockdown = TW_ENUM(kLockdownValues);
constexpr ProtoTextEnum kTriggerMode = TW_ENUM(kTriggerModeValues);
constexpr ProtoTextEnum kCompressionType = TW_ENUM(kCompressionTypeValues);
constexpr ProtoTextEnum kStatsdLogging = TW_ENUM(kStatsdLoggingValues);
constexpr ProtoTextEnum kWriteFlushMode = TW_ENUM(kWriteFlushModeValues);
constexpr ProtoTextEnum kFflushMode = TW_ENUM(kFflushModeValues);
constexpr ProtoTextEnum kBuiltinClock = TW_ENUM(kBuiltinClockValues);
constexpr ProtoTextEnum kSessionInitiator = TW_ENUM(kSessionInitiatorValues);
constexpr ProtoTextEnum kBufferExhausted = TW_ENUM(kBufferExhaustedValues);

// ---- leaf messages ----
constexpr ProtoTextField kBufferConfigFields[] = {
    {1, "size_kb", K::kUint32},
    {4, "fill_policy", K::kEnum, nullptr, &kFillPolicy},
    {5, "transfer_on_clone", K::kBool},
    {6, "clear_before_clone", K::kBool},
    {7, "name", K::kString},
    {8, "experimental_mode", K::kEnum, nullptr, &kExperimentalMode},
};
constexpr ProtoTextMessage kBufferConfig = TW_MESSAGE(kBufferConfigFields);

constexpr ProtoTextField kDataSourceConfigFields[] = {
    {1, "name", K::kString},
    {2, "target_buffer", K::kUint32},
    {11, "target_buffer_name", K::kString},
    {3, "trace_duration_ms", K::kUint32},
    {122, "prefer_suspend_clock_for_duration", K::kBool},
    {7, "stop_timeout_ms", K::kUint32},
    {6, "enable_extra_guardrails", K::kBool},
    {8, "session_initiator", K::kEnum, nullptr, &kSessionInitiator},
    {4, "tracing_session_id", K::kUint64},
    {9, "buffer_exhausted_policy", K::kEnum, nullptr, &kBufferExhausted},
    {10, "priority_boost", K::kMessage},
    {12, "protovm_config", K::kMessage},
    {100, "ftrace_config", K::kMessage},
    {101, "chrome_config", K::kMessage},
    {102, "inode_file_config", K::kMessage},
    {103, "process_stats_config", K::kMessage},
    {104, "sys_stats_config", K::kMessage},
    {105, "heapprofd_config", K::kMessage},
    {106, "android_power_config", K::kMessage},
    {107, "android_log_config", K::kMessage},
    {108, "gpu_counter_config", K::kMessage},
    {109, "packages_list_config", K::kMessage},
    {110, "java_hprof_config", K::kMessage},
    {111, "perf_event_config", K::kMessage},
    {112, "vulkan_memory_config", K::kMessage},
    {113, "track_event_config", K::kMessage},
    {114, "android_polled_state_config", K::kMessage},
    {115, "interceptor_config", K::kMessage},
    {116, "android_game_intervention_list_config", K::kMessage},
    {117, "statsd_tracing_config", K::kMessage},
    {118, "android_system_property_config", K::kMessage},
    {119, "system_info_config", K::kMessage},
    {1000, "legacy_config", K::kString},
};
constexpr ProtoTextMessage kDataSourceConfig = TW_MESSAGE(kDataSourceConfigFields);

constexpr ProtoTextField kDataSourceFields[] = {
    {1, "config", K::kMessage, &kDataSourceConfig},
    {2, "producer_name_filter", K::kString},
    {3, "producer_name_regex_filter", K::kString},
    {4, "machine_name_filter", K::kString},
};
constexpr ProtoTextMessage kDataSource = TW_MESSAGE(kDataSourceFields);

constexpr ProtoTextField kBuiltinDataSourceFields[] = {
    {1, "disable_clock_snapshotting", K::kBool},
    {2, "disable_trace_config", K::kBool},
    {3, "disable_system_info", K::kBool},
    {4, "disable_service_events", K::kBool},
    {5, "primary_trace_clock", K::kEnum, nullptr, &kBuiltinClock},
    {6, "snapshot_interval_ms", K::kUint32},
    {7, "prefer_suspend_clock_for_snapshot", K::kBool},
    {8, "disable_chunk_usage_histograms", K::kBool},
    {9, "disable_extension_descriptors", K::kBool},
    {10, "enable_concurrent_session_events", K::kBool},
};
constexpr ProtoTextMessage kBuiltinDataSource = TW_MESSAGE(kBuiltinDataSourceFields);

constexpr ProtoTextField kProducerConfigFields[] = {
    {1, "producer_name", K::kString},
    {2, "shm_size_kb", K::kUint32},
    {3, "page_size_kb", K::kUint32},
};
constexpr ProtoTextMessage kProducerConfig = TW_MESSAGE(kProducerConfigFields);

constexpr ProtoTextField kStatsdMetadataFields[] = {
    {1, "triggering_alert_id", K::kInt64},
    {2, "triggering_config_uid", K::kInt32},
    {3, "triggering_config_id", K::kInt64},
    {4, "triggering_subscription_id", K::kInt64},
};
constexpr ProtoTextMessage kStatsdMetadata = TW_MESSAGE(kStatsdMetadataFields);

constexpr ProtoTextField kGuardrailOverridesFields[] = {
    {1, "max_upload_per_day_bytes", K::kUint64},
    {2, "max_tracing_buffer_size_kb", K::kUint32},
};
constexpr ProtoTextMessage kGuardrailOverrides = TW_MESSAGE(kGuardrailOverridesFields);

constexpr ProtoTextField kTriggerFields[] = {
    {1, "name", K::kString},
    {2, "producer_name_regex", K::kString},
    {3, "stop_delay_ms", K::kUint32},
    {4, "max_per_24_h", K::kUint32},
    {5, "skip_probability", K::kDouble},
};
constexpr ProtoTextMessage kTrigger = TW_MESSAGE(kTriggerFields);

constexpr ProtoTextField kTriggerConfigFields[] = {
    {1, "trigger_mode", K::kEnum, nullptr, &kTriggerMode},
    {5, "use_clone_snapshot_if_available", K::kBool},
    {2, "triggers", K::kMessage, &kTrigger},
    {3, "trigger_timeout_ms", K::kUint32},
};
constexpr ProtoTextMessage kTriggerConfig = TW_MESSAGE(kTriggerConfigFields);

constexpr ProtoTextField kIncrementalStateConfigFields[] = {
    {1, "clear_period_ms", K::kUint32},
};
constexpr ProtoTextMessage kIncrementalStateConfig = TW_MESSAGE(kIncrementalStateConfigFields);

constexpr ProtoTextField kIncidentReportConfigFields[] = {
    {1, "destination_package", K::kString},
    {2, "destination_class", K::kString},
    {3, "privacy_level", K::kInt32},
    {5, "skip_incidentd", K::kBool},
    {4, "skip_dropbox", K::kBool},
};
constexpr ProtoTextMessage kIncidentReportConfig = TW_MESSAGE(kIncidentReportConfigFields);

constexpr ProtoTextField kAndroidReportConfigFields[] = {
    {1, "reporter_service_package", K::kString},
    {2, "reporter_service_class", K::kString},
    {3, "skip_report", K::kBool},
    {4, "use_pipe_in_framework_for_testing", K::kBool},
};
constexpr ProtoTextMessage kAndroidReportConfig = TW_MESSAGE(kAndroidReportConfigFields);

constexpr ProtoTextField kCmdTraceStartDelayFields[] = {
    {1, "min_delay_ms", K::kUint32},
    {2, "max_delay_ms", K::kUint32},
};
constexpr ProtoTextMessage kCmdTraceStartDelay = TW_MESSAGE(kCmdTraceStartDelayFields);

constexpr ProtoTextField kSessionSemaphoreFields[] = {
    {1, "name", K::kString},
    {2, "max_other_session_count", K::kUint64},
};
constexpr ProtoTextMessage kSessionSemaphore = TW_MESSAGE(kSessionSemaphoreFields);

constexpr ProtoTextField kZstdFields[] = {{1, "level", K::kInt32}};
constexpr ProtoTextMessage kZstd = TW_MESSAGE(kZstdFields);
constexpr ProtoTextMessage kDeflate{nullptr, 0};
constexpr ProtoTextField kCompressionConfigFields[] = {
    {1, "deflate", K::kMessage, &kDeflate},
    {2, "zstd", K::kMessage, &kZstd},
};
constexpr ProtoTextMessage kCompressionConfig = TW_MESSAGE(kCompressionConfigFields);

constexpr ProtoTextField kAttributeFields[] = {
    {1, "key", K::kString},
    {2, "long_value", K::kInt64},
    {3, "string_value", K::kString},
};
constexpr ProtoTextMessage kAttribute = TW_MESSAGE(kAttributeFields);
constexpr ProtoTextField kTraceAttributesFields[] = {
    {1, "attribute", K::kMessage, &kAttribute},
};
constexpr ProtoTextMessage kTraceAttributes = TW_MESSAGE(kTraceAttributesFields);

// ---- TraceConfig ----
constexpr ProtoTextField kTraceConfigFields[] = {
    {1, "buffers", K::kMessage, &kBufferConfig},
    {2, "data_sources", K::kMessage, &kDataSource},
    {20, "builtin_data_sources", K::kMessage, &kBuiltinDataSource},
    {3, "duration_ms", K::kUint32},
    {36, "prefer_suspend_clock_for_duration", K::kBool},
    {4, "enable_extra_guardrails", K::kBool},
    {5, "lockdown_mode", K::kEnum, nullptr, &kLockdown},
    {6, "producers", K::kMessage, &kProducerConfig},
    {7, "statsd_metadata", K::kMessage, &kStatsdMetadata},
    {8, "write_into_file", K::kBool},
    {29, "output_path", K::kString},
    {9, "file_write_period_ms", K::kUint32},
    {10, "max_file_size_bytes", K::kUint64},
    {11, "guardrail_overrides", K::kMessage, &kGuardrailOverrides},
    {12, "deferred_start", K::kBool},
    {13, "flush_period_ms", K::kUint32},
    {14, "flush_timeout_ms", K::kUint32},
    {23, "data_source_stop_timeout_ms", K::kUint32},
    {16, "notify_traceur", K::kBool},
    {30, "bugreport_score", K::kInt32},
    {38, "bugreport_filename", K::kString},
    {17, "trigger_config", K::kMessage, &kTriggerConfig},
    {18, "activate_triggers", K::kString},
    {21, "incremental_state_config", K::kMessage, &kIncrementalStateConfig},
    {19, "allow_user_build_tracing", K::kBool},
    {22, "unique_session_name", K::kString},
    {24, "compression_type", K::kEnum, nullptr, &kCompressionType},
    {47, "compression", K::kMessage, &kCompressionConfig},
    {25, "incident_report_config", K::kMessage, &kIncidentReportConfig},
    {31, "statsd_logging", K::kEnum, nullptr, &kStatsdLogging},
    {27, "trace_uuid_msb", K::kInt64},
    {28, "trace_uuid_lsb", K::kInt64},
    {33, "trace_filter", K::kMessage},
    {34, "android_report_config", K::kMessage, &kAndroidReportConfig},
    {35, "cmd_trace_start_delay", K::kMessage, &kCmdTraceStartDelay},
    {39, "session_semaphores", K::kMessage, &kSessionSemaphore},
    {40, "priority_boost", K::kMessage},
    {41, "exclusive_prio", K::kUint32},
    {44, "write_flush_mode", K::kEnum, nullptr, &kWriteFlushMode},
    {45, "fflush_post_write", K::kEnum, nullptr, &kFflushMode},
    {43, "trace_all_machines", K::kBool},
    {48, "trace_attributes", K::kMessage, &kTraceAttributes},
};
constexpr ProtoTextMessage kTraceConfig = TW_MESSAGE(kTraceConfigFields);

#undef TW_MESSAGE
#undef TW_ENUM

}  // namespace

const ProtoTextMessage& TraceConfigSchema() { return kTraceConfig; }

}  // namespace tw
