// Android dumpstate text and BatteryStats checkin dumps as traces: every dumpstate line is a row
// of android_dumpstate with its section and service, and the battery history becomes counters,
// event instants and wake lock slices on REALTIME.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libs/trace/trace_loader.h"

namespace tw {
namespace {

using Grid = std::vector<std::vector<std::string>>;

Grid Rows(LoadedTrace& t, const std::string& sql) {
  Grid out;
  auto r = t.Query(sql);
  EXPECT_TRUE(r.ok()) << r.status() << "\n" << sql;
  if (!r.ok()) return out;
  for (const auto& row : r->rows) {
    std::vector<std::string> cells;
    for (const SqlValue& v : row) {
      switch (v.type) {
        case SqlValue::Type::kNull: cells.push_back("NULL"); break;
        case SqlValue::Type::kInt: cells.push_back(std::to_string(v.int_value)); break;
        case SqlValue::Type::kDouble: cells.push_back(std::to_string(static_cast<int64_t>(v.double_value))); break;
        case SqlValue::Type::kString: cells.push_back(v.string_value); break;
      }
    }
    out.push_back(std::move(cells));
  }
  return out;
}

std::unique_ptr<LoadedTrace> Load(const std::string& text) {
  auto t = LoadTraceBytes(text);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

constexpr const char* kBanner =
    "========================================================\n"
    "== dumpstate: 2024-05-01 10:00:00\n"
    "========================================================\n";

TEST(DumpstateTest, LinesKeepTheirSectionAndService) {
  const std::string text = std::string(kBanner) +
                           "Build: test\n"
                           "------ UPTIME (uptime) ------\n"
                           "up 3 days\n"
                           "------ 0.010s was the duration of 'UPTIME' ------\n"
                           "------ BLOCK STAT (/sys/block/sda/stat) ------\n"
                           "1 2 3\n"
                           "------ DUMPSYS CRITICAL (/system/bin/dumpsys) ------\n"
                           "----------------------------------------------------------------\n"
                           "DUMP OF SERVICE CRITICAL cpuinfo:\n"
                           "Load: 1.0\n"
                           "--------- 0.002s was the duration of dumpsys cpuinfo, ending at: x\n"
                           "between services\n";
  auto t = Load(text);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT section, service, line FROM android_dumpstate ORDER BY id"),
            (Grid{{"NULL", "NULL", "========================================================"},
                  {"NULL", "NULL", "== dumpstate: 2024-05-01 10:00:00"},
                  {"NULL", "NULL", "========================================================"},
                  {"NULL", "NULL", "Build: test"},
                  {"UPTIME (uptime)", "NULL", "up 3 days"},
                  {"BLOCK STAT", "NULL", "1 2 3"},
                  {"DUMPSYS CRITICAL (/system/bin/dumpsys)", "cpuinfo",
                   "DUMP OF SERVICE CRITICAL cpuinfo:"},
                  {"DUMPSYS CRITICAL (/system/bin/dumpsys)", "cpuinfo", "Load: 1.0"},
                  {"DUMPSYS CRITICAL (/system/bin/dumpsys)", "NULL", "between services"}}));
  EXPECT_EQ(Rows(*t, "SELECT str_value FROM metadata WHERE name = 'trace_type'"),
            (Grid{{"android_dumpstate"}}));
}

// A checkin dump: version 36, a string pool, and a history starting at a wall-clock time.
std::string Checkin(const std::string& history) {
  return "9,0,i,vers,36,214,AP1A,AP2A\n"
         "9,hsp,0,10216,\"com.example.app\"\n"
         "9,hsp,1,1000,\"*alarm*\"\n"
         "9,hsp,2,1001,\"radio, with comma\"\n"
         "9,h,0:RESET:TIME:1700000000000\n" +
         history;
}

TEST(DumpstateTest, CheckinWakeLocksOverlapOnSeparateTracks) {
  auto t = Load(Checkin("9,h,0,Bl=80,+r,Etp=0\n"
                        "9,h,10,+w=1\n"
                        "9,h,5,+w=2\n"
                        "9,h,10,-w=1\n"
                        "9,h,20,-w=2,-r\n"));
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT s.ts, s.dur, s.name FROM slice s JOIN track t ON s.track_id = t.id "
                     "WHERE t.name = 'WakeLocks' ORDER BY s.ts"),
            (Grid{{"1700000000010000000", "15000000", "*alarm*"},
                  {"1700000000015000000", "30000000", "radio, with comma"}}));
  // Two wake locks held at once need two tracks of the set.
  EXPECT_EQ(Rows(*t, "SELECT count(DISTINCT track_id) FROM slice s JOIN track t ON "
                     "s.track_id = t.id WHERE t.name = 'WakeLocks'"),
            (Grid{{"2"}}));
  EXPECT_EQ(Rows(*t, "SELECT t.name, c.ts, c.value FROM counter c JOIN track t ON "
                     "c.track_id = t.id ORDER BY t.name, c.ts"),
            (Grid{{"batt.capacity_pct", "1700000000000000000", "80"},
                  {"battery_stats.running", "1700000000000000000", "1"},
                  {"battery_stats.running", "1700000000045000000", "0"}}));
  EXPECT_EQ(Rows(*t, "SELECT s.name, t.name FROM slice s JOIN track t ON s.track_id = t.id "
                     "WHERE t.name GLOB 'battery_stats.*'"),
            (Grid{{"top=10216:\"com.example.app\"", "battery_stats.top"}}));
}

TEST(DumpstateTest, CheckinStatesAndBatteryCounters) {
  auto t = Load(Checkin("9,h,0,Bs=d,Bp=u,Bcc=3000,Bv=4200,Pcn=lte,Wsp=compl,+S\n"
                        "9,h,100,-S,Bh=g\n"));
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT t.name, t.type, c.value FROM counter c JOIN track t ON "
                     "c.track_id = t.id ORDER BY t.name, c.ts"),
            (Grid{{"BatteryStatus", "battery_status", "3"},
                  {"PlugType", "battery_plugged_status", "2"},
                  {"ScreenState", "screen_state", "2"},
                  {"ScreenState", "screen_state", "1"},
                  {"batt.charge_uah", "battery_counter", "3000000"},
                  {"batt.voltage_uv", "battery_counter", "4200000"},
                  {"battery_stats.data_conn", "battery_stats", "13"},
                  {"battery_stats.screen", "battery_stats", "1"},
                  {"battery_stats.screen", "battery_stats", "0"},
                  {"battery_stats.wifi_suppl", "battery_stats", "10"}}));
}

TEST(DumpstateTest, MalformedCheckinLinesAreCountedNotFatal) {
  auto t = Load(Checkin("9,h,abc,+r\n"
                        "8,h,10,+r\n"
                        "9,h,10,+r\n"));
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT value FROM stats WHERE name = 'android_br_parse_errors'"),
            (Grid{{"2"}}));
  EXPECT_EQ(Rows(*t, "SELECT count(*) FROM counter"), (Grid{{"1"}}));
}

}  // namespace
}  // namespace tw
