#pragma once
// AndroidSystemProperty packets: the debug.tracing.* properties the android.sysprops data
// source polls, which Android writes to mark state that atrace also reports. As
// trace_processor reads them:
//   device_state               → an instant named by the value on the "DeviceStateChanged"
//                                track (the track atrace's N|pid|DeviceStateChanged|... uses);
//   screen_state               → the "ScreenState" counter (atrace's C|pid|ScreenState|... one);
//   battery_stats.<x>          → the global counter "battery_stats.<x>" (atrace's too);
//   mcc, mnc, desktop_mode_visible_tasks, battery_status ("BatteryStatus"),
//   plug_type ("PlugType")     → sysprop counters;
//   profile_boot_classpath,
//   profile_system_server      → metadata android_profile_boot_classpath / _system_server.
// Every value but device_state's must be an integer; others are ignored.

#include "libs/trace/importers/proto/counter_emitter.h"
#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class AndroidSystemPropertyDecoder {
 public:
  explicit AndroidSystemPropertyDecoder(ImportContext* ctx) : ctx_(ctx), counters_(ctx) {}

  void Decode(const PacketContext& packet, const proto::Field& field);

 private:
  void DecodeValue(const PacketContext& packet, std::string_view name, std::string_view value);

  ImportContext* ctx_;
  CounterEmitter counters_;
};

}  // namespace tw
