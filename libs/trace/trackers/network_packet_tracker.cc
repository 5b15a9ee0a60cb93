#include "libs/trace/trackers/network_packet_tracker.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tw {
namespace {

// Android's uids are user_id * 100000 + app id; packages are listed by app id.
constexpr uint32_t kPerUserRange = 100000;

// One letter per TCP header flag bit, lowest first (fin, syn, rst, psh, ack, urg, ece, cwr);
// '.' for a bit that is clear.
std::string TcpFlagLetters(uint32_t flags) {
  static constexpr char kLetters[] = "fsrpauec";
  std::string out;
  for (int bit = 0; bit < 8; ++bit) out.push_back(flags & (1u << bit) ? kLetters[bit] : '.');
  return out;
}

std::string_view DirectionName(uint32_t direction) {
  switch (direction) {
    case 1: return "Received";
    case 2: return "Transmitted";
    default: return "DIR_UNKNOWN";
  }
}

}  // namespace

StringId NetworkPacketTracker::SliceName(uint32_t uid) {
  if (!packages_loaded_) {
    packages_loaded_ = true;
    const PackageListTable& packages = storage_->package_list;
    for (uint32_t i = 0; i < packages.row_count(); ++i) {
      packages_.try_emplace(packages.uid[i], packages.package_name[i]);
    }
  }
  if (uid > 0) {
    auto it = packages_.find(uid % kPerUserRange);
    if (it != packages_.end()) return it->second;
  }
  return storage_->Intern(absl::StrCat("uid=", uid));
}

StringId NetworkPacketTracker::Transport(uint32_t ip_proto) {
  switch (ip_proto) {
    case 1: return storage_->Intern("IPPROTO_ICMP");
    case 6: return storage_->Intern("IPPROTO_TCP");
    case 17: return storage_->Intern("IPPROTO_UDP");
    case 58: return storage_->Intern("IPPROTO_ICMPV6");
    default: return storage_->Intern(absl::StrCat("IPPROTO (", ip_proto, ")"));
  }
}

void NetworkPacketTracker::OnEvent(int64_t ts, const NetworkPacketData& d) {
  const std::string_view direction = DirectionName(d.direction);
  const std::string track_name = d.iface + " " + std::string(direction);
  const uint32_t set = track_sets_.SetFor(track_name);
  auto factory = [&](uint32_t index, int64_t) {
    const StringId name = storage_->Intern(track_name);
    if (index > 0) return ctx_->tracks.CreateTrack(name, "network_packets", "slice");
    return ctx_->tracks.InternTrack(
        "network_packets", "slice", name,
        {ctx_->tracks.DimString("net_interface", storage_->Intern(d.iface)),
         ctx_->tracks.DimString("net_direction", storage_->Intern(direction))});
  };
  const uint32_t track = track_sets_.Scoped(set, ts, d.dur, factory);

  const StringId transport = Transport(d.ip_proto);
  const StringId tag = storage_->Intern(absl::StrFormat("0x%x", d.tag));
  std::optional<StringId> tcp_flags;
  if (d.tcp_flags) tcp_flags = storage_->Intern(TcpFlagLetters(*d.tcp_flags));

  auto arg = [&](std::string_view key, ArgValue v) { return ctx_->args.MakeArg(key, v); };
  std::vector<Arg> args = {arg("packet_transport", ArgValue::String(transport)),
                           arg("socket_uid", ArgValue::Int(d.uid)),
                           arg("socket_tag", ArgValue::String(tag))};
  if (tcp_flags) args.push_back(arg("packet_tcp_flags", ArgValue::String(*tcp_flags)));
  if (d.local_port) args.push_back(arg("local_port", ArgValue::Int(*d.local_port)));
  if (d.remote_port) args.push_back(arg("remote_port", ArgValue::Int(*d.remote_port)));
  if (d.icmp_type) args.push_back(arg("packet_icmp_type", ArgValue::Int(*d.icmp_type)));
  if (d.icmp_code) args.push_back(arg("packet_icmp_code", ArgValue::Int(*d.icmp_code)));
  args.push_back(arg("packet_length", ArgValue::Int(d.length)));
  args.push_back(arg("packet_count", ArgValue::Int(d.count)));

  const auto slice =
      ctx_->slices.Scoped(ts, track, kNullStringId, SliceName(d.uid), d.dur, args);
  storage_->ExtendBounds(ts);
  if (!slice) return;
  auto opt = [](const std::optional<uint32_t>& v) -> std::optional<int64_t> {
    if (!v) return std::nullopt;
    return static_cast<int64_t>(*v);
  };
  storage_->android_network_packets.Insert(
      {.slice_id = *slice,
       .iface = storage_->Intern(d.iface),
       .direction = storage_->Intern(direction),
       .packet_transport = transport,
       .packet_length = d.length,
       .packet_count = d.count,
       .socket_tag = d.tag,
       .socket_tag_str = tag,
       .socket_uid = d.uid,
       .local_port = opt(d.local_port),
       .remote_port = opt(d.remote_port),
       .packet_icmp_type = opt(d.icmp_type),
       .packet_icmp_code = opt(d.icmp_code),
       .packet_tcp_flags = opt(d.tcp_flags),
       .packet_tcp_flags_str = tcp_flags.value_or(kNullStringId)});
}

}  // namespace tw
