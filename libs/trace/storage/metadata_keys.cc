#include "libs/trace/storage/metadata_keys.h"

#include <array>

namespace tw {
namespace {

using S = MetadataScope;
constexpr std::array<MetadataKeyInfo, 51> kKeys = {{
    {"trace_time_clock_id", false, S::kGlobal},
    {"all_data_source_flushed_ns", true, S::kMachineAndTrace},
    {"all_data_source_started_ns", false, S::kMachineAndTrace},
    {"ftrace_latest_data_start_ns", false, S::kMachineAndTrace},
    {"slow_start_data_source", true, S::kMachineAndTrace},
    {"tracing_disabled_ns", false, S::kMachineAndTrace},
    {"tracing_started_ns", false, S::kMachineAndTrace},
    {"android_profile_boot_classpath", false, S::kTrace},
    {"android_profile_system_server", false, S::kTrace},
    {"benchmark_description", false, S::kTrace},
    {"benchmark_had_failures", false, S::kTrace},
    {"benchmark_label", false, S::kTrace},
    {"benchmark_name", false, S::kTrace},
    {"benchmark_start_time_us", false, S::kTrace},
    {"benchmark_story_name", false, S::kTrace},
    {"benchmark_story_run_index", false, S::kTrace},
    {"benchmark_story_run_time_us", false, S::kTrace},
    {"benchmark_story_tags", true, S::kTrace},
    {"range_of_interest_start_us", false, S::kTrace},
    {"statsd_triggering_subscription_id", false, S::kTrace},
    {"trace_config_pbtxt", false, S::kTrace},
    {"trace_size_bytes", false, S::kTrace},
    {"trace_trigger", false, S::kTrace},
    {"trace_type", false, S::kTrace},
    {"trace_uuid", false, S::kTrace},
    {"unique_session_name", false, S::kTrace},
    {"ui_state", false, S::kTrace},
    {"android_build_fingerprint", false, S::kMachine},
    {"android_device_manufacturer", false, S::kMachine},
    {"android_guest_soc_model", false, S::kMachine},
    {"android_hardware_revision", false, S::kMachine},
    {"android_incremental_build", false, S::kMachine},
    {"android_ram_model", false, S::kMachine},
    {"android_sdk_version", false, S::kMachine},
    {"android_serial_console", false, S::kMachine},
    {"android_soc_model", false, S::kMachine},
    {"android_storage_model", false, S::kMachine},
    {"system_machine", false, S::kMachine},
    {"system_name", false, S::kMachine},
    {"system_ram_bytes", false, S::kMachine},
    {"system_ram_gb", false, S::kMachine},
    {"system_release", false, S::kMachine},
    {"system_version", false, S::kMachine},
    {"tracing_service_version", false, S::kMachine},
    {"timezone_off_mins", false, S::kMachine},
    {"page_size", false, S::kMachine},
    {"num_cpus", false, S::kMachine},
    {"cr-a-channel", false, S::kTrace},
    {"cr-a-playstore_version_code", false, S::kTrace},
    {"cr-a-enabled_categories", false, S::kTrace},
    {"trace_corruption", false, S::kTrace},
}};

}  // namespace

MetadataKeyInfo LookupMetadataKey(std::string_view name) {
  for (const MetadataKeyInfo& k : kKeys) {
    if (k.name == name) return k;
  }
  return {name, false, S::kTrace};
}

}  // namespace tw
