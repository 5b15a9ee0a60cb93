#include "libs/trace/importers/proto/network_packet_decoder.h"

#include <string>
#include <utility>
#include <vector>

#include "libs/trace/importers/proto/repeated_varints.h"

namespace tw {
namespace {

// NetworkPacketEvent, NetworkPacketBundle and NetworkPacketContext field numbers, and
// InternedData's packet_context (wire-format facts).
namespace event {
constexpr uint32_t kDirection = 1, kInterface = 2, kLength = 3, kUid = 4, kTag = 5, kIpProto = 6,
                   kTcpFlags = 7, kLocalPort = 8, kRemotePort = 9, kIcmpType = 10, kIcmpCode = 11;
}
namespace bundle {
constexpr uint32_t kIid = 1, kCtx = 2, kTimestamps = 3, kLengths = 4, kTotalPackets = 5,
                   kTotalDuration = 6, kTotalLength = 7;
}
constexpr uint32_t kContextCtx = 2;
constexpr uint32_t kInternedPacketContext = 30;

// The context fields of a NetworkPacketEvent; `length` is set only by a single packet.
NetworkPacketData ParseEvent(std::string_view bytes, int64_t* length) {
  NetworkPacketData d;
  proto::Decoder dec(bytes);
  proto::Field f;
  while (dec.Next(&f)) {
    const uint32_t v = f.as_uint32();
    switch (f.id) {
      case event::kDirection: d.direction = v; break;
      case event::kInterface: d.iface = std::string(f.as_string()); break;
      case event::kLength: *length = v; break;
      case event::kUid: d.uid = v; break;
      case event::kTag: d.tag = v; break;
      case event::kIpProto: d.ip_proto = v; break;
      case event::kTcpFlags: d.tcp_flags = v; break;
      case event::kLocalPort: d.local_port = v; break;
      case event::kRemotePort: d.remote_port = v; break;
      case event::kIcmpType: d.icmp_type = v; break;
      case event::kIcmpCode: d.icmp_code = v; break;
    }
  }
  return d;
}

}  // namespace

void NetworkPacketDecoder::Push(const PacketContext& packet, int64_t ts, NetworkPacketData data) {
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(ts, EventType::kNetworkPacket, std::move(data)));
}

void NetworkPacketDecoder::DecodeEvent(const PacketContext& packet, const proto::Field& field) {
  int64_t length = 0;
  NetworkPacketData d = ParseEvent(field.as_string(), &length);
  d.length = length;
  Push(packet, packet.ts, std::move(d));
}

void NetworkPacketDecoder::DecodeBundle(const PacketContext& packet, const proto::Field& field) {
  std::string_view context;
  std::optional<uint64_t> iid;
  std::vector<uint64_t> offsets, lengths;
  std::optional<uint64_t> total_length;
  uint64_t total_packets = 0, total_duration = 0;
  bool malformed = false;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case bundle::kIid: iid = f.int_value; break;
      case bundle::kCtx: context = f.as_string(); break;
      case bundle::kTimestamps:
        malformed |= !proto::ForEachVarint(f, [&](uint64_t v) { offsets.push_back(v); });
        break;
      case bundle::kLengths:
        malformed |= !proto::ForEachVarint(f, [&](uint64_t v) { lengths.push_back(v); });
        break;
      case bundle::kTotalPackets: total_packets = f.int_value; break;
      case bundle::kTotalDuration: total_duration = f.int_value; break;
      case bundle::kTotalLength: total_length = f.int_value; break;
    }
  }
  if (iid) {
    // The context the sequence interned; without it the inline one (usually none) stands.
    const std::string* interned =
        packet.sequence ? packet.sequence->Lookup(kInternedPacketContext, *iid) : nullptr;
    if (!interned) {
      ctx_->storage->IncrementStat("network_trace_intern_errors");
    } else {
      proto::Decoder cd(*interned);
      proto::Field cf;
      while (cd.Next(&cf)) {
        if (cf.id == kContextCtx && cf.type == proto::kLengthDelimited) context = cf.as_string();
      }
    }
  }
  int64_t unused = 0;
  const NetworkPacketData shared = ParseEvent(context, &unused);
  if (total_length) {
    NetworkPacketData aggregate = shared;
    aggregate.dur = static_cast<int64_t>(total_duration);
    aggregate.length = static_cast<int64_t>(*total_length);
    aggregate.count = static_cast<int64_t>(total_packets);
    Push(packet, packet.ts, std::move(aggregate));
    return;
  }
  if (malformed) {
    ctx_->storage->IncrementStat("network_trace_parse_errors");
    return;
  }
  for (size_t i = 0; i < offsets.size() && i < lengths.size(); ++i) {
    NetworkPacketData one = shared;
    one.length = static_cast<int64_t>(lengths[i]);
    Push(packet, packet.ts + static_cast<int64_t>(offsets[i]), std::move(one));
  }
}

}  // namespace tw
