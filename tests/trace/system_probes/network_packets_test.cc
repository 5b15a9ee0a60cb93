// android.network_packets: single packets and bundles (interned or inline context, per-packet
// lengths or aggregate totals) → slices on "<iface> <direction>" tracks named after the
// socket's package, their args, android_network_packets and the uptime macros.

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "tests/trace/system_probes/test_packets.h"

namespace tw {
namespace {

using testing::Grid;
using testing::Rows;
using testing::TraceBuilder;
namespace tp = pf::trace_packet;

// TracePacket extension fields, NetworkPacketEvent / NetworkPacketBundle fields, and
// InternedData.packet_context.
constexpr uint32_t kNetworkPacket = 88, kNetworkPacketBundle = 92, kPacketContext = 30;
constexpr uint32_t kIngress = 1, kEgress = 2, kTcp = 6, kUdp = 17;

proto::Writer Context(uint32_t direction, const std::string& iface, uint32_t uid,
                      uint32_t ip_proto) {
  proto::Writer e;
  e.Varint(1, direction);
  e.String(2, iface);
  e.Varint(4, uid);
  e.Varint(5, 0x2a);  // tag
  e.Varint(6, ip_proto);
  return e;
}

proto::Writer PackagesList(const std::string& name, uint64_t uid) {
  proto::Writer package;
  package.String(pf::packages_list_package_info::kName, name);
  package.Varint(pf::packages_list_package_info::kUid, uid);
  proto::Writer packages;
  packages.Message(pf::packages_list::kPackages, package);
  return packages;
}

TEST(NetworkPacketsTest, SinglePacketsAreInstantsNamedAfterThePackage) {
  proto::Writer tcp = Context(kEgress, "wlan0", 1010123, kTcp);  // user 10, app id 10123
  tcp.Varint(3, 1500);  // length
  tcp.Varint(7, 0x12);  // tcp flags: syn, ack
  tcp.Varint(8, 44321);
  tcp.Varint(9, 443);
  proto::Writer udp = Context(kIngress, "wlan0", 5555, kUdp);
  udp.Varint(3, 60);
  auto t = TraceBuilder()
               .Add(tp::kPackagesList, PackagesList("com.example.browser", 10123))
               .Add(kNetworkPacket, tcp, 1000)
               .Add(kNetworkPacket, udp, 2000)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT s.ts, s.dur, s.name, t.name, t.type FROM slice s "
                     "JOIN track t ON t.id = s.track_id ORDER BY s.ts"),
            (Grid{{"1000", "0", "com.example.browser", "wlan0 Transmitted", "network_packets"},
                  {"2000", "0", "uid=5555", "wlan0 Received", "network_packets"}}));
  EXPECT_EQ(Rows(*t, "SELECT a.key, a.display_value FROM slice s JOIN args a USING (arg_set_id) "
                     "WHERE s.ts = 1000 ORDER BY a.id"),
            (Grid{{"packet_transport", "IPPROTO_TCP"},
                  {"socket_uid", "1010123"},
                  {"socket_tag", "0x2a"},
                  {"packet_tcp_flags", ".s..a..."},
                  {"local_port", "44321"},
                  {"remote_port", "443"},
                  {"packet_length", "1500"},
                  {"packet_count", "1"}}));
  EXPECT_EQ(Rows(*t, "INCLUDE PERFETTO MODULE android.network_packets;"
                     "SELECT ts, track_name, package_name, iface, direction, packet_count, "
                     "packet_length, packet_transport, packet_tcp_flags, packet_tcp_flags_int, "
                     "socket_tag, socket_tag_int, local_port, remote_port "
                     "FROM android_network_packets ORDER BY ts"),
            (Grid{{"1000", "wlan0 Transmitted", "com.example.browser", "wlan0", "Transmitted",
                   "1", "1500", "IPPROTO_TCP", ".s..a...", "18", "0x2a", "42", "44321", "443"},
                  {"2000", "wlan0 Received", "uid=5555", "wlan0", "Received", "1", "60",
                   "IPPROTO_UDP", "NULL", "NULL", "0x2a", "42", "NULL", "NULL"}}));
}

TEST(NetworkPacketsTest, BundlesExpandPacketsOrAggregateThem) {
  // An interned context, then a bundle listing two packets by offset and length.
  proto::Writer ctx_entry;
  ctx_entry.Varint(1, 7);  // iid
  ctx_entry.Message(2, Context(kEgress, "rmnet0", 0, 99));
  proto::Writer interned;
  interned.Message(kPacketContext, ctx_entry);
  proto::Writer first;
  first.Varint(tp::kTimestamp, 10000);
  first.Varint(tp::kTrustedPacketSequenceId, 1);
  first.Varint(tp::kSequenceFlags, 1);  // incremental state cleared
  first.Message(tp::kInternedData, interned);
  proto::Writer listed;
  listed.Varint(1, 7);
  listed.Packed(3, std::vector<uint64_t>{0, 300});
  listed.Packed(4, std::vector<uint64_t>{100, 200});
  first.Message(kNetworkPacketBundle, listed);
  // Two aggregates on one interface that overlap: the second needs a second track.
  auto aggregate = [](int64_t dur, uint64_t packets, uint64_t bytes) {
    proto::Writer b;
    b.Message(2, Context(kIngress, "rmnet0", 0, kUdp));
    b.Varint(5, packets);
    b.Varint(6, static_cast<uint64_t>(dur));
    b.Varint(7, bytes);
    return b;
  };
  proto::Writer unknown;
  unknown.Varint(1, 99);  // never interned
  unknown.Varint(7, 1);
  auto t = TraceBuilder()
               .AddRaw(first)
               .Add(kNetworkPacketBundle, aggregate(5000, 10, 4000), 20000)
               .Add(kNetworkPacketBundle, aggregate(1000, 2, 100), 21000)
               .Add(kNetworkPacketBundle, unknown, 30000)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "INCLUDE PERFETTO MODULE android.network_packets;"
                     "SELECT ts, dur, track_name, packet_count, packet_length, packet_transport "
                     "FROM android_network_packets WHERE ts < 30000 ORDER BY ts"),
            (Grid{{"10000", "0", "rmnet0 Transmitted", "1", "100", "IPPROTO (99)"},
                  {"10300", "0", "rmnet0 Transmitted", "1", "200", "IPPROTO (99)"},
                  {"20000", "5000", "rmnet0 Received", "10", "4000", "IPPROTO_UDP"},
                  {"21000", "1000", "rmnet0 Received", "2", "100", "IPPROTO_UDP"}}));
  EXPECT_EQ(Rows(*t, "SELECT COUNT(DISTINCT track_id) FROM slice WHERE ts IN (20000, 21000)"),
            (Grid{{"2"}}));
  EXPECT_EQ(Rows(*t, "SELECT value FROM stats WHERE name = 'network_trace_intern_errors'"),
            (Grid{{"1"}}));
}

// The uptime macros over a table of events (no trace data needed).
constexpr char kEvents[] =
    "WITH ev(id, ts, dur, iface, packet_count, packet_length) AS (VALUES "
    "(1, 0, 0, 'a', 1, 10), (2, 4, 0, 'a', 1, 10), (3, 30, 8, 'a', 3, 30), "
    "(4, 32, 0, 'a', 1, 10), (5, 1, 0, 'b', 2, 20)) ";

TEST(NetworkPacketsTest, UptimeSpansMergeEventsWithinTheTimeout) {
  auto t = TraceBuilder().Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, std::string("INCLUDE PERFETTO MODULE android.network_packets;") + kEvents +
                         "SELECT * FROM android_network_uptime_spans!(ev, (iface), 10) "
                         "ORDER BY iface, ts"),
            (Grid{{"a", "0", "14", "2", "20"},
                  {"a", "30", "18", "4", "40"},
                  {"b", "1", "10", "2", "20"}}));
}

TEST(NetworkPacketsTest, UptimeCostIsTimeSinceTheLastGroupPlusAShareOfTheGroup) {
  auto t = TraceBuilder().Load();
  ASSERT_TRUE(t);
  // a: 1 starts (10); 2 comes 4 later (4); 3 starts an 8-long group after a gap (10 + 8 * 3/4);
  // 4 is inside it (8 * 1/4). b: its first event (10).
  EXPECT_EQ(Rows(*t, std::string("INCLUDE PERFETTO MODULE android.network_packets;") + kEvents +
                         "SELECT id, uptime_cost FROM android_network_uptime_cost!(ev, (iface), "
                         "10) ORDER BY id"),
            (Grid{{"1", "10"}, {"2", "4"}, {"3", "16"}, {"4", "2"}, {"5", "10"}}));
}

}  // namespace
}  // namespace tw
