// Network ftrace events (KernelEventTracker's net handlers), as trace_processor reads them:
//   netif_receive_skb / net_dev_xmit → "<dev> Received KB" / "<dev> Transmitted KB" counters of
//       the bytes so far per interface (in KiB, rounded down; a transmit the driver refused,
//       rc != 0, is skipped), each sample with args cpu and len;
//   napi_gro_receive_entry / _exit → "napi_gro" slices named after the device on
//       "Napi Gro Cpu <cpu>" tracks, args len (entry) and ret (exit);
//   inet_sock_set_state → per TCP socket (numbered in order of first sight) a "TCP stream#<n>"
//       track whose slices are its states, each ending where the next starts;
//   tcp_retransmit_skb → instants "sport=<p>,dport=<p>" on "TCP Retransmit Skb";
//   kfree_skb → the running count of freed IPv4/IPv6 packets, "Kfree Skb IP Prot", with the
//       packet's protocol ("IP" / "IPV6") as arg.

#include <string>

#include "libs/trace/trackers/kernel_event_tracker.h"
#include "libs/trace/trackers/raw_event_args.h"

namespace tw {
namespace {

// Linux constants (include/linux/socket.h, in.h, if_ether.h, net/tcp_states.h).
constexpr int64_t kAfInet = 2, kAfInet6 = 10;
constexpr int64_t kIpProtoTcp = 6;
constexpr int64_t kEthPIp = 0x800, kEthPIpv6 = 0x86DD;
constexpr int64_t kTcpEstablished = 1, kTcpSynSent = 2, kTcpMaxStates = 13;
constexpr const char* kTcpStateNames[] = {
    "TCP_UNKNOWN",   "TCP_ESTABLISHED", "TCP_SYN_SENT",     "TCP_SYN_RECV", "TCP_FIN_WAIT1",
    "TCP_FIN_WAIT2", "TCP_TIME_WAIT",   "TCP_CLOSE",        "TCP_CLOSE_WAIT", "TCP_LAST_ACK",
    "TCP_LISTEN",    "TCP_CLOSING",     "TCP_NEW_SYN_RECV"};

}  // namespace

void KernelEventTracker::NetworkBytes(int64_t ts, const FtraceRawData& raw, bool received) {
  const StringId device = Str(raw, "name");
  const int64_t len = Int(raw, "len");
  uint64_t& total = (received ? nic_received_bytes_ : nic_transmitted_bytes_)[device];
  total += static_cast<uint64_t>(len);
  const std::string name =
      std::string(storage_->Str(device)) + (received ? " Received KB" : " Transmitted KB");
  const uint32_t track =
      ctx_->tracks.InternTrack(received ? "net_receive" : "net_transmit", "counter",
                               storage_->Intern(name),
                               {ctx_->tracks.DimString("network_interface", device)});
  const std::optional<uint32_t> args =
      ctx_->args.AddArgSet({ctx_->args.MakeArg("cpu", ArgValue::Uint(raw.cpu)),
                            ctx_->args.MakeArg("len", ArgValue::Uint(static_cast<uint64_t>(len)))});
  storage_->counter.Insert({.ts = ts,
                            .track_id = track,
                            .value = static_cast<double>(total / 1024),
                            .arg_set_id = args});
  storage_->ExtendBounds(ts);
}

void KernelEventTracker::NetifReceiveSkb(int64_t ts, const FtraceRawData& raw) {
  NetworkBytes(ts, raw, /*received=*/true);
}

void KernelEventTracker::NetDevXmit(int64_t ts, const FtraceRawData& raw) {
  if (Int(raw, "rc") != 0) return;  // the driver did not take the packet
  NetworkBytes(ts, raw, /*received=*/false);
}

uint32_t KernelEventTracker::NapiGroTrack(uint32_t cpu) {
  return ctx_->tracks.InternTrack("cpu_napi_gro", "slice",
                                  storage_->Intern("Napi Gro Cpu " + std::to_string(cpu)),
                                  {ctx_->tracks.Dim("cpu", cpu)});
}

void KernelEventTracker::NapiGroReceiveEntry(int64_t ts, const FtraceRawData& raw) {
  ctx_->slices.Begin(ts, NapiGroTrack(raw.cpu), storage_->Intern("napi_gro"), Str(raw, "name"),
                     {ctx_->args.MakeArg("len", ArgValue::Int(Int(raw, "len")))});
}

void KernelEventTracker::NapiGroReceiveExit(int64_t ts, const FtraceRawData& raw) {
  ctx_->slices.End(ts, NapiGroTrack(raw.cpu), storage_->Intern("napi_gro"), kNullStringId,
                   {ctx_->args.MakeArg("ret", ArgValue::Int(Int(raw, "ret")))});
}

void KernelEventTracker::InetSockSetState(int64_t ts, const FtraceRawData& raw) {
  if (Int(raw, "protocol") != kIpProtoTcp) return;
  const int64_t family = Int(raw, "family");
  if (family != kAfInet && family != kAfInet6) return;
  const int64_t new_state = Int(raw, "newstate"), old_state = Int(raw, "oldstate");
  if (new_state < 0 || new_state >= kTcpMaxStates || old_state < 0 ||
      old_state >= kTcpMaxStates) {
    return;
  }
  auto [it, inserted] = tcp_streams_.try_emplace(Int(raw, "skaddr"), tcp_streams_.size() + 1);
  std::string name = kTcpStateNames[new_state];
  if (new_state == kTcpSynSent) {
    name += "(pid=" + std::to_string(static_cast<uint32_t>(raw.pid)) + ")";
  } else if (new_state == kTcpEstablished) {
    name += "(sport=" + std::to_string(static_cast<uint32_t>(Int(raw, "sport"))) +
            ",dport=" + std::to_string(static_cast<uint32_t>(Int(raw, "dport"))) + ")";
  }
  const uint32_t track = ctx_->tracks.InternTrack(
      "net_socket_set_state", "slice",
      storage_->Intern("TCP stream#" + std::to_string(it->second)),
      {ctx_->tracks.DimUint("tcp_stream_idx", it->second)});
  // A socket is in one state at a time: the new one ends the previous.
  ctx_->slices.End(ts, track, kNullStringId, kNullStringId, {});
  ctx_->slices.Begin(ts, track, storage_->Intern("tcp_state"), storage_->Intern(name), {});
}

void KernelEventTracker::TcpRetransmitSkb(int64_t ts, const FtraceRawData& raw) {
  const std::string name =
      "sport=" + std::to_string(static_cast<uint32_t>(Int(raw, "sport"))) +
      ",dport=" + std::to_string(static_cast<uint32_t>(Int(raw, "dport")));
  const uint32_t track = ctx_->tracks.InternTrack(
      "net_tcp_retransmit_skb", "slice", storage_->Intern("TCP Retransmit Skb"), {});
  ctx_->slices.Scoped(ts, track, storage_->Intern("tcp_event"), storage_->Intern(name), 0, {});
}

void KernelEventTracker::KfreeSkb(int64_t ts, const FtraceRawData& raw) {
  const int64_t protocol = Int(raw, "protocol");
  if (protocol != kEthPIp && protocol != kEthPIpv6) return;
  ++kfree_skb_ip_count_;
  const uint32_t track = ctx_->tracks.InternTrack("net_kfree_skb", "counter",
                                                  storage_->Intern("Kfree Skb IP Prot"), {});
  const std::optional<uint32_t> args = ctx_->args.AddArgSet({ctx_->args.MakeArg(
      "protocol", ArgValue::String(storage_->Intern(protocol == kEthPIp ? "IP" : "IPV6")))});
  storage_->counter.Insert({.ts = ts,
                            .track_id = track,
                            .value = static_cast<double>(kfree_skb_ip_count_),
                            .arg_set_id = args});
  storage_->ExtendBounds(ts);
}

}  // namespace tw
