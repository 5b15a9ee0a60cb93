// KernelEventTracker's device events: counters and slices that drivers' ftrace events describe.

#include <iterator>
#include <optional>
#include <string>
#include <tuple>

#include "libs/trace/trackers/kernel_event_tracker.h"
#include "libs/trace/trackers/track_spec.h"

namespace tw {
namespace {

// f2fs reports its block device as the kernel's dev_t: major in bits 8-15, minor in 0-7.
std::string DeviceName(int64_t dev) {
  return std::to_string((dev & 0xff00) >> 8) + ":" + std::to_string(dev & 0xff);
}

// The Adreno GPU's always-on counter runs at the 19.2 MHz crystal clock.
constexpr int64_t kAdrenoXoHz = 19200000;

}  // namespace

void KernelEventTracker::DeviceCounter(int64_t ts, std::string_view type, const std::string& name,
                                       const std::vector<Arg>& dims, double value,
                                       std::vector<Arg> args) {
  const uint32_t track = ctx_->tracks.InternTrack(type, "counter", storage_->Intern(name), dims);
  const uint32_t row = storage_->counter.Insert({.ts = ts, .track_id = track, .value = value});
  if (auto set = ctx_->args.AddArgSet(args)) storage_->counter.arg_set_id.Set(row, *set);
  storage_->ExtendBounds(ts);
}

void KernelEventTracker::ThermalExynosAcpm(int64_t ts, const FtraceRawData& raw) {
  // The ACPM firmware numbers its thermal zones in this order. For thermal_exynos_acpm_bulk,
  // `ts` is the sample time the event carries (the decoder pushes this copy there).
  static constexpr const char* kZones[] = {"BIG", "MID", "LITTLE", "GPU", "ISP", "TPU", "AUR"};
  const int64_t tz_id = Int(raw, "tz_id");
  if (tz_id < 0 || tz_id >= static_cast<int64_t>(std::size(kZones))) {
    storage_->IncrementStat("ftrace_thermal_exynos_acpm_unknown_tz_id");
    return;
  }
  const std::string zone = kZones[tz_id];
  const std::vector<Arg> dims = {ctx_->tracks.DimString("thermal_zone", storage_->Intern(zone))};
  for (const auto& [type, name, field] :
       {std::tuple{"acpm_thermal_temperature", zone + " Temperature", "current_temp"},
        std::tuple{"acpm_cooling_device_counter", "Tj-" + zone + " Cooling Device",
                   "cdev_state"}}) {
    DeviceCounter(ts, type, name, dims, static_cast<double>(Int(raw, field)),
                  {ctx_->args.MakeArg("thermal_zone_id", ArgValue::Int(tz_id))});
  }
}

void KernelEventTracker::CrosEcSensorhubData(int64_t ts, const FtraceRawData& raw) {
  // One counter per sensor: how late the sample reached the kernel (current_time minus the
  // sample's timestamp), with the EC's own view of the delay and the sample time as args.
  const int64_t sensor = Int(raw, "ec_sensor_num");
  const int64_t sample_ts = Int(raw, "current_timestamp");
  DeviceCounter(ts, "cros_ec_sensorhub_data",
                "cros_ec.cros_ec_sensorhub_data." + std::to_string(sensor),
                {ctx_->tracks.DimUint("ec_sensor_num", static_cast<uint64_t>(sensor))},
                static_cast<double>(Int(raw, "current_time") - sample_ts),
                {ctx_->args.MakeArg("ec_num", ArgValue::Int(sensor)),
                 ctx_->args.MakeArg("ec_delta", ArgValue::Int(Int(raw, "fifo_timestamp") - sample_ts)),
                 ctx_->args.MakeArg("sample_ts", ArgValue::Int(sample_ts))});
}

void KernelEventTracker::F2fsIostat(int64_t ts, const FtraceRawData& raw) {
  // Counter name per field, in trace_processor's order.
  static constexpr std::pair<const char*, const char*> kCounters[] = {
      {"write_app_total", "app_wio"},    {"write_app_direct", "app_dio"},
      {"write_app_buffered", "app_bio"}, {"write_app_mapped", "app_mio"},
      {"write_fs_data", "fs_dio"},       {"write_fs_node", "fs_nio"},
      {"write_fs_meta", "fs_mio"},       {"write_gc_data", "fs_gc_dio"},
      {"write_gc_node", "fs_gc_nio"},    {"write_cp_data", "fs_cp_dio"},
      {"write_cp_node", "fs_cp_nio"},    {"write_cp_meta", "fs_cp_mio"},
      {"read_app_total", "app_rio"},     {"read_app_direct", "app_drio"},
      {"read_app_buffered", "app_brio"}, {"read_app_mapped", "app_mrio"},
      {"read_fs_data", "fs_drio"},       {"read_fs_gdata", "fs_gdrio"},
      {"read_fs_cdata", "fs_cdrio"},     {"read_fs_node", "fs_nrio"},
      {"read_fs_meta", "fs_mrio"},       {"other_fs_discard", "fs_discard"},
  };
  const std::string device = DeviceName(Int(raw, "dev"));
  const StringId device_id = storage_->Intern(device);
  for (const auto& [counter, field] : kCounters) {
    DeviceCounter(ts, "f2fs_iostat", "f2fs_iostat.[" + device + "]." + counter,
                  {ctx_->tracks.DimString("linux_device", device_id),
                   ctx_->tracks.DimString("counter_key", storage_->Intern(counter))},
                  static_cast<double>(static_cast<uint64_t>(Int(raw, field))), {});
  }
}

void KernelEventTracker::F2fsIostatLatency(int64_t ts, const FtraceRawData& raw) {
  // Peak, average and count per request kind: data (d), node (n) and meta (m) reads, sync and
  // async writes.
  static constexpr std::pair<const char*, const char*> kKinds[] = {
      {"read_data", "d_rd"},        {"read_node", "n_rd"},        {"read_meta", "m_rd"},
      {"write_sync_data", "d_wr_s"},  {"write_sync_node", "n_wr_s"},  {"write_sync_meta", "m_wr_s"},
      {"write_async_data", "d_wr_as"}, {"write_async_node", "n_wr_as"},
      {"write_async_meta", "m_wr_as"},
  };
  const std::string device = DeviceName(Int(raw, "dev"));
  const StringId device_id = storage_->Intern(device);
  for (const auto& [kind, prefix] : kKinds) {
    for (const char* stat : {"peak", "avg", "cnt"}) {
      const std::string counter = std::string(kind) + "_" + stat;
      DeviceCounter(ts, "f2fs_iostat_latency", "f2fs_iostat_latency.[" + device + "]." + counter,
                    {ctx_->tracks.DimString("linux_device", device_id),
                     ctx_->tracks.DimString("counter_key", storage_->Intern(counter))},
                    static_cast<double>(
                        static_cast<uint64_t>(Int(raw, std::string(prefix) + "_" + stat))),
                    {});
    }
  }
}

void KernelEventTracker::AdrenoCmdbatchQueued(int64_t, const FtraceRawData& raw) {
  adreno_context_tid_[Int(raw, "id")] = raw.pid;
}

void KernelEventTracker::AdrenoCmdbatchRetired(int64_t ts, const FtraceRawData& raw) {
  // One "GPU" slice per batch: from its start on the GPU (`ts`: the decoder places this copy
  // there through the batch's sync event) to its retirement, read on the GPU's always-on
  // counter.
  const uint64_t start = static_cast<uint64_t>(Int(raw, "start"));
  const uint64_t retire = static_cast<uint64_t>(Int(raw, "retire"));
  if (retire < start) return;
  const int64_t dur = static_cast<int64_t>(retire - start) * 1000000000 / kAdrenoXoHz;
  const uint64_t context = static_cast<uint64_t>(Int(raw, "id"));
  const uint64_t prio = static_cast<uint64_t>(Int(raw, "prio"));

  // Named after the process that queued the context, when known.
  std::string process;
  if (auto it = adreno_context_tid_.find(static_cast<int64_t>(context));
      it != adreno_context_tid_.end()) {
    const uint32_t utid = ctx_->processes.GetOrCreateThread(it->second);
    if (const std::optional<uint32_t> upid = storage_->thread.upid.Get(utid)) {
      const StringId pname = storage_->process.name[*upid];
      if (pname != kNullStringId) process = std::string(storage_->Str(pname));
    }
  }
  const std::string suffix =
      "(Ctx=" + std::to_string(context) + ", Prio=" + std::to_string(prio) + ")";
  const StringId name = storage_->Intern(process.empty() ? "GPU " + suffix
                                                         : "GPU " + process + " " + suffix);
  const uint32_t set =
      adreno_tracks_.SetFor("adreno:" + std::to_string(context) + ":" + std::to_string(prio));
  const uint32_t track =
      adreno_tracks_.Scoped(set, ts, dur, [&](uint32_t index, int64_t group) {
        TrackSpec spec;
        spec.name = name;
        spec.type = "adreno_gpu_cmdbatch";
        spec.dimensions = {ctx_->args.MakeArg("context_id", ArgValue::Uint(context)),
                           ctx_->args.MakeArg("prio", ArgValue::Uint(prio)),
                           ctx_->args.MakeArg("track_compressor_idx", ArgValue::Uint(index))};
        spec.track_group_id = group;
        return CreateTrack(storage_, &ctx_->args, spec);
      });
  // A track made before the process was known takes its name now.
  if (!process.empty()) storage_->track.name.Set(track, name);
  ctx_->slices.Scoped(ts, track, kNullStringId, storage_->Intern("GPU"), dur, {});
  storage_->ExtendBounds(ts);
}

}  // namespace tw
