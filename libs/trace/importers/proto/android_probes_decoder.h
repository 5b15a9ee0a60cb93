#pragma once
// Android probe packets: android_log (logcat lines → AndroidLogData events at their own
// REALTIME timestamps, plus the android_log_num_* stats), initial_display_state (the
// ScreenState counter's first value), packages_list (the package_list table, first entry per
// package name wins), user_list (the android_user_list table, the last type per user id wins) and
// gpu_mem_total (GpuMemTotalData events) and graphics_frame_event (SurfaceFlinger buffer
// events, GraphicsFrameEventData; those without a buffer id are counted and dropped).

#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "libs/trace/importers/proto/counter_emitter.h"
#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class AndroidProbesDecoder {
 public:
  explicit AndroidProbesDecoder(ImportContext* ctx) : ctx_(ctx), counters_(ctx) {}

  void DecodeAndroidLog(const PacketContext& packet, const proto::Field& field);
  void DecodeInitialDisplayState(const PacketContext& packet, const proto::Field& field);
  void DecodePackagesList(const proto::Field& field);
  void DecodeUserList(const proto::Field& field);
  void DecodeGpuMemTotal(const PacketContext& packet, const proto::Field& field);
  void DecodeGraphicsFrameEvent(const PacketContext& packet, const proto::Field& field);

 private:
  void DecodeLogEvent(const PacketContext& packet, const proto::Field& field);
  void DecodeLogStats(const proto::Field& field);

  ImportContext* ctx_;
  CounterEmitter counters_;
  absl::flat_hash_set<std::string> packages_;
  absl::flat_hash_map<int64_t, uint32_t> user_rows_;  // android user id → android_user_list row
};

}  // namespace tw
