#include "libs/trace/importers/proto/system_info_decoder.h"

#include <cmath>
#include <string>

#include "libs/trace/importers/proto/android_fingerprint.h"
#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw {
namespace {

namespace si = pf::system_info;

// Metadata keys whose value is a plain string field of SystemInfo.
struct StringKey {
  uint32_t field;
  const char* metadata;
};
constexpr StringKey kStringKeys[] = {
    {si::kTracingServiceVersion, "tracing_service_version"},
    {si::kAndroidSocModel, "android_soc_model"},
    {si::kAndroidGuestSocModel, "android_guest_soc_model"},
    {si::kAndroidHardwareRevision, "android_hardware_revision"},
    {si::kAndroidStorageModel, "android_storage_model"},
    {si::kAndroidRamModel, "android_ram_model"},
    {si::kAndroidSerialConsole, "android_serial_console"},
};

}  // namespace

uint32_t SystemInfoDecoder::Decode(const proto::Field& field, uint32_t row) {
  TraceStorage& s = *ctx_->storage;
  ctx_->MachineRow(0);  // the host's row exists whichever machine describes itself first
  MachineTable& machine = s.machine;
  std::optional<std::string> fingerprint;
  std::optional<int64_t> sdk_version;
  uint32_t page_size = 0;

  // trace_processor applies the fields in a fixed order (utsname first, metadata later), so
  // gather the scalar ones and apply them after the walk.
  std::optional<int64_t> timezone_off_mins, num_cpus, ram_bytes;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case si::kMachineName:
        machine.name.Set(row, s.Intern(f.as_string()));
        break;
      case si::kUtsname:
        if (f.type == proto::kLengthDelimited) DecodeUtsname(f, row);
        break;
      case si::kTimezoneOffMins: timezone_off_mins = f.as_int32(); break;
      case si::kAndroidBuildFingerprint: fingerprint = std::string(f.as_string()); break;
      case si::kAndroidDeviceManufacturer: {
        const std::string_view v = f.as_string();
        s.SetMachineMetadata(row, "android_device_manufacturer", v);
        machine.android_device_manufacturer.Set(row, s.Intern(v));
        break;
      }
      case si::kAndroidSdkVersion: sdk_version = f.as_int64(); break;
      case si::kPageSize: page_size = f.as_uint32(); break;
      case si::kNumCpus: num_cpus = f.as_uint32(); break;
      case si::kSystemRamBytes: ram_bytes = f.as_int64(); break;
      default:
        for (const StringKey& k : kStringKeys) {
          if (k.field == f.id) s.SetMachineMetadata(row, k.metadata, f.as_string());
        }
        break;
    }
  }
  if (d.error()) s.IncrementStat("proto_decode_errors");

  if (timezone_off_mins) s.SetMachineMetadata(row, "timezone_off_mins", *timezone_off_mins);
  if (fingerprint) {
    s.SetMachineMetadata(row, "android_build_fingerprint", std::string_view(*fingerprint));
    machine.android_build_fingerprint.Set(row, s.Intern(*fingerprint));
    const std::optional<AndroidFingerprint> parts = ParseAndroidFingerprint(*fingerprint);
    if (parts) {
      s.SetMachineMetadata(row, "android_incremental_build", std::string_view(parts->incremental));
      // An explicit SDK version wins over the one implied by the release name.
      if (!sdk_version && parts->sdk_version) sdk_version = *parts->sdk_version;
    }
  }
  if (sdk_version) {
    s.SetMachineMetadata(row, "android_sdk_version", *sdk_version);
    machine.android_sdk_version.Set(row, *sdk_version);
  }
  if (num_cpus) machine.num_cpus.Set(row, *num_cpus);
  if (ram_bytes) {
    // system_ram_gb is in decimal gigabytes, rounded.
    const int64_t gb = static_cast<int64_t>(std::round(static_cast<double>(*ram_bytes) / 1e9));
    s.SetMachineMetadata(row, "system_ram_bytes", *ram_bytes);
    s.SetMachineMetadata(row, "system_ram_gb", gb);
    machine.system_ram_bytes.Set(row, *ram_bytes);
    machine.system_ram_gb.Set(row, gb);
  }
  return page_size ? page_size : 4096;
}

void SystemInfoDecoder::DecodeUtsname(const proto::Field& field, uint32_t row) {
  TraceStorage& s = *ctx_->storage;
  MachineTable& machine = s.machine;
  // Absent fields stay NULL (trace_processor interns a null string for them).
  std::optional<std::string_view> sysname, version, release, arch;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case pf::utsname::kSysname: sysname = f.as_string(); break;
      case pf::utsname::kVersion: version = f.as_string(); break;
      case pf::utsname::kRelease: release = f.as_string(); break;
      case pf::utsname::kMachine: arch = f.as_string(); break;
      default: break;
    }
  }
  auto set = [&](const std::optional<std::string_view>& v, StringColumn& column,
                 std::string_view metadata) {
    column.Set(row, v ? s.Intern(*v) : kNullStringId);
    if (v) s.SetMachineMetadata(row, metadata, *v);
  };
  set(sysname, machine.sysname, "system_name");
  set(version, machine.version, "system_version");
  set(release, machine.release, "system_release");
  set(arch, machine.arch, "system_machine");
  // The kernel's version decides how the host's sched data reads.
  if (release && row == 0) ctx_->kernel_release = std::string(*release);
}

}  // namespace tw
