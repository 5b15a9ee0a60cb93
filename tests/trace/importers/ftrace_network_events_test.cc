// Network ftrace events → counters and slices: bytes per interface (KiB so far), NAPI GRO
// slices per cpu, TCP socket state slices per stream, retransmit instants, freed IP packets.
// FtraceEvent field numbers: netif_receive_skb 360, net_dev_xmit 361, inet_sock_set_state 362,
// tcp_retransmit_skb 363, napi_gro_receive_entry 365, napi_gro_receive_exit 366, kfree_skb 367.

#include <gtest/gtest.h>

#include "libs/trace/importers/proto/proto_writer.h"
#include "tests/trace/importers/ftrace_test_trace.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using importer_testing::AddFtraceEvent;
using importer_testing::LoadOrFail;
using stdlib_testing::Rows;
using stdlib_testing::Table;

constexpr uint32_t kNetifReceiveSkb = 360, kNetDevXmit = 361, kInetSockSetState = 362,
                   kTcpRetransmitSkb = 363, kNapiGroEntry = 365, kNapiGroExit = 366,
                   kKfreeSkb = 367;

proto::Writer Bytes(uint64_t len, std::string_view device, std::optional<int64_t> rc = {}) {
  proto::Writer w;
  w.Varint(1, len);
  w.String(2, device);
  if (rc) w.Int(3, *rc);
  return w;
}

TEST(FtraceNetworkEvents, BytesPerInterfaceInKibSoFar) {
  proto::Writer trace;
  AddFtraceEvent(trace, 0, 100, 1, kNetifReceiveSkb, Bytes(700, "eth0"));
  AddFtraceEvent(trace, 1, 200, 1, kNetifReceiveSkb, Bytes(700, "eth0"));
  AddFtraceEvent(trace, 0, 300, 1, kNetifReceiveSkb, Bytes(5000, "wlan1"));
  AddFtraceEvent(trace, 2, 400, 1, kNetDevXmit, Bytes(4096, "eth0", 0));
  AddFtraceEvent(trace, 2, 500, 1, kNetDevXmit, Bytes(4096, "eth0", -1));  // refused: skipped
  auto t = LoadOrFail(trace);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), "SELECT c.ts, t.name, t.type, c.value, EXTRACT_ARG(c.arg_set_id, 'cpu'), "
                          "EXTRACT_ARG(c.arg_set_id, 'len') FROM counter c "
                          "JOIN counter_track t ON c.track_id = t.id ORDER BY c.ts"),
            (Table{{"100", "eth0 Received KB", "net_receive", "0", "0", "700"},
                   {"200", "eth0 Received KB", "net_receive", "1", "1", "700"},
                   {"300", "wlan1 Received KB", "net_receive", "4", "0", "5000"},
                   {"400", "eth0 Transmitted KB", "net_transmit", "4", "2", "4096"}}));
}

TEST(FtraceNetworkEvents, NapiGroSlicesPerCpu) {
  proto::Writer trace;
  proto::Writer entry;
  entry.Varint(7, 1500);   // len
  entry.String(10, "eth0");  // name
  proto::Writer exit;
  exit.Int(1, 3);  // ret
  AddFtraceEvent(trace, 3, 100, 1, kNapiGroEntry, entry);
  AddFtraceEvent(trace, 3, 130, 1, kNapiGroExit, exit);
  auto t = LoadOrFail(trace);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), "SELECT s.ts, s.dur, s.category, s.name, t.name, "
                          "EXTRACT_ARG(s.arg_set_id, 'len'), EXTRACT_ARG(s.arg_set_id, 'ret') "
                          "FROM slice s JOIN track t ON s.track_id = t.id"),
            (Table{{"100", "30", "napi_gro", "eth0", "Napi Gro Cpu 3", "1500", "3"}}));
}

proto::Writer SockState(uint64_t skaddr, int64_t old_state, int64_t new_state,
                        uint64_t protocol = 6) {
  proto::Writer w;
  w.Varint(2, 443);  // dport
  w.Varint(3, 10);   // family: AF_INET6
  w.Int(4, new_state);
  w.Int(5, old_state);
  w.Varint(6, protocol);
  w.Varint(8, skaddr);
  w.Varint(9, 40000);  // sport
  return w;
}

TEST(FtraceNetworkEvents, TcpStatesAreSlicesPerSocket) {
  proto::Writer trace;
  AddFtraceEvent(trace, 0, 100, 55, kInetSockSetState, SockState(0xA, 7, 2));  // → SYN_SENT
  AddFtraceEvent(trace, 0, 150, 55, kInetSockSetState, SockState(0xB, 7, 2));  // 2nd socket
  AddFtraceEvent(trace, 0, 200, 0, kInetSockSetState, SockState(0xA, 2, 1));   // → ESTABLISHED
  AddFtraceEvent(trace, 0, 250, 0, kInetSockSetState, SockState(0xC, 7, 2, 17));  // UDP: no
  AddFtraceEvent(trace, 0, 300, 0, kInetSockSetState, SockState(0xA, 1, 99));  // invalid state
  proto::Writer retransmit;
  retransmit.Varint(2, 443);    // dport
  retransmit.Varint(6, 40000);  // sport
  AddFtraceEvent(trace, 0, 400, 0, kTcpRetransmitSkb, retransmit);
  auto t = LoadOrFail(trace);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), "SELECT s.ts, s.dur, s.category, s.name, t.name FROM slice s "
                          "JOIN track t ON s.track_id = t.id ORDER BY s.ts"),
            (Table{{"100", "100", "tcp_state", "TCP_SYN_SENT(pid=55)", "TCP stream#1"},
                   {"150", "-1", "tcp_state", "TCP_SYN_SENT(pid=55)", "TCP stream#2"},
                   {"200", "-1", "tcp_state", "TCP_ESTABLISHED(sport=40000,dport=443)",
                    "TCP stream#1"},
                   {"400", "0", "tcp_event", "sport=40000,dport=443", "TCP Retransmit Skb"}}));
}

TEST(FtraceNetworkEvents, FreedIpPacketsAreCounted) {
  proto::Writer trace;
  for (auto [ts, protocol] : {std::pair<int64_t, uint64_t>{10, 0x800}, {20, 0x806}, {30, 0x86DD}}) {
    proto::Writer w;
    w.Varint(2, protocol);
    AddFtraceEvent(trace, 0, ts, 1, kKfreeSkb, w);
  }
  auto t = LoadOrFail(trace);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), "SELECT c.ts, c.value, EXTRACT_ARG(c.arg_set_id, 'protocol') FROM counter c "
                          "JOIN counter_track t ON c.track_id = t.id "
                          "WHERE t.name = 'Kfree Skb IP Prot' ORDER BY c.ts"),
            (Table{{"10", "1", "IP"}, {"30", "2", "IPV6"}}));
}

}  // namespace
}  // namespace tw
