#pragma once
// Network traffic of the android.network_packets data source, as trace_processor shows it:
// each event a slice on the "<interface> <direction>" track (type network_packets; an
// aggregate overlapping an earlier one goes on another track of the same name), named after
// the package owning the socket ("uid=<uid>" when no installed package has its app id), with
// the traffic's description as args and a row of android_network_packets.

#include <cstdint>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/trackers/async_track_sets.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class NetworkPacketTracker {
 public:
  explicit NetworkPacketTracker(TraceContext* ctx) : ctx_(ctx), storage_(ctx->storage) {}

  void OnEvent(int64_t ts, const NetworkPacketData& d);

 private:
  StringId SliceName(uint32_t uid);
  StringId Transport(uint32_t ip_proto);

  TraceContext* ctx_;
  TraceStorage* storage_;
  AsyncTrackSets track_sets_;
  // App id → package name, read from package_list when the first event needs it.
  bool packages_loaded_ = false;
  absl::flat_hash_map<int64_t, StringId> packages_;
};

}  // namespace tw
