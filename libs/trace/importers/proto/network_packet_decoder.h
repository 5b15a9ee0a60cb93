#pragma once
// Decodes the android.network_packets data source (TracePacket network_packet = 88 and
// network_packet_bundle = 92): a NetworkPacketEvent is one packet; a bundle carries one
// context (inline, or interned as InternedData packet_context = 30) and either the totals of
// an aggregate (total_packets / total_length / total_duration: one event) or each packet's
// time offset and length (one event per packet, at the bundle's time plus its offset).

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class NetworkPacketDecoder {
 public:
  explicit NetworkPacketDecoder(ImportContext* ctx) : ctx_(ctx) {}

  void DecodeEvent(const PacketContext& packet, const proto::Field& field);
  void DecodeBundle(const PacketContext& packet, const proto::Field& field);

 private:
  void Push(const PacketContext& packet, int64_t ts, NetworkPacketData data);

  ImportContext* ctx_;
};

}  // namespace tw
