// android.* modules about the system as a whole: battery, device, oom adjuster, low-memory
// kills and app process starts, over hand-built traces.

#include <gtest/gtest.h>

#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

TEST(AndroidBattery, OneRowPerSampleTimeWithEveryGauge) {
  TraceBuilder b;
  const uint32_t capacity = b.CounterTrack("batt.capacity_pct", "battery");
  const uint32_t charge = b.CounterTrack("batt.charge_uah", "battery");
  const uint32_t current = b.CounterTrack("batt.current_ua", "battery");
  const uint32_t other = b.CounterTrack("mem.free");
  b.Counter(capacity, 100, 80);
  b.Counter(charge, 100, 3000000);
  b.Counter(current, 100, -250000);
  b.Counter(capacity, 200, 79);
  b.Counter(other, 150, 1);
  auto db = b.Open();
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE android.battery;"
                 "SELECT ts, capacity_percent, charge_uah, current_ua, voltage_uv "
                 "FROM android_battery_charge"),
            (Table{{"100", "80", "3e+06", "-250000", "NULL"}, {"200", "79", "NULL", "NULL", "NULL"}}));
}

TEST(AndroidDevice, CodeNameFromTheBuildFingerprint) {
  TraceBuilder b;
  b.s.machine.Insert(
      {.raw_id = 0,
       .android_build_fingerprint =
           b.s.Intern("google/raven/raven:14/UQ1A.240105.004/11206848:user/release-keys")});
  auto db = b.Open();
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE android.device;"
                 "SELECT name, machine_id FROM android_device_name"),
            (Table{{"raven", "0"}}));
  EXPECT_EQ(Scalar(*db, "SELECT android_device_name_from_fingerprint('no-fingerprint')"), "NULL");
}

// system_server updates oom adj at 100 (updateOomAdj_activityChange, inside a "startActivity"
// slice) and 400 (updateOomAdj_finishReceiver); the app's score changes at 150 and 450.
struct OomTrace {
  TraceBuilder b;
  uint32_t app = 0;
  std::unique_ptr<TraceDatabase> db;
  explicit OomTrace(bool with_kill = false) {
    const uint32_t ss = b.Process(1000, "system_server");
    const uint32_t ss_thread = b.Thread(1000, "system_server", ss);
    b.s.thread.is_main_thread.Set(ss_thread, 1);
    app = b.Process(2000, "com.example");
    b.s.process.android_appid.Set(app, 10050);
    b.s.process.start_ts.Set(app, 10);
    const uint32_t track = b.ThreadTrack(ss_thread);
    const uint32_t start = b.Slice(track, 90, 30, "startActivity");
    b.Slice(track, 100, 10, "updateOomAdj_activityChange", start);
    b.Slice(track, 400, 10, "updateOomAdj_finishReceiver");
    const uint32_t score = b.ProcessCounterTrack(app, "oom_score_adj");
    b.Counter(score, 50, 900);
    b.Counter(score, 150, 0);
    b.Counter(score, 450, 250);
    if (with_kill) {  // lmkd's oldest form: the killed pid as a counter value
      const uint32_t kills = b.CounterTrack("kill_one_process");
      b.Counter(kills, 600, 2000);
      b.Counter(kills, 601, 0);
    }
    db = b.Open(0, 1000);
  }
};

TEST(AndroidOomAdjuster, IntervalsWithTheUpdateThatCausedThem) {
  OomTrace t;
  EXPECT_EQ(Rows(*t.db,
                 "INCLUDE PERFETTO MODULE android.oom_adjuster;"
                 "SELECT ts, dur, score, bucket, process_name, oom_adj_reason, oom_adj_trigger "
                 "FROM android_oom_adj_intervals ORDER BY ts"),
            (Table{{"50", "100", "900", "cached", "com.example", "NULL", "NULL"},
                   {"150", "300", "0", "foreground", "com.example", "activityChange",
                    "startActivity"},
                   {"450", "550", "250", "background", "com.example", "finishReceiver", "NULL"}}));
}

TEST(AndroidOomAdjuster, Buckets) {
  OomTrace t;
  EXPECT_EQ(Rows(*t.db,
                 "INCLUDE PERFETTO MODULE android.oom_adjuster;"
                 "SELECT android_oom_adj_score_to_bucket_name(-900), "
                 "android_oom_adj_score_to_bucket_name(100), "
                 "android_oom_adj_score_to_bucket_name(200), "
                 "android_oom_adj_score_to_bucket_name(249), "
                 "android_oom_adj_score_to_bucket_name(950), "
                 "android_oom_adj_score_to_detailed_bucket_name(700, 10050), "
                 "android_oom_adj_score_to_detailed_bucket_name(42, 1000)"),
            (Table{{"system", "bfgs", "foreground_service", "job", "cached", "previous_app",
                    "unknown_native"}}));
}

TEST(AndroidLmk, MarkerSlicesNameTheVictimAndReason) {
  TraceBuilder b;
  const uint32_t victim = b.Process(2000, "com.example");
  b.s.process.start_ts.Set(victim, 10);
  const uint32_t lmkd = b.Process(300, "lmkd");
  const uint32_t lmkd_thread = b.Thread(300, "lmkd", lmkd);
  b.Slice(b.ThreadTrack(lmkd_thread), 500, 5, "lmk,2000,8,905");
  auto db = b.Open();
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE android.memory.lmk;"
                 "SELECT ts, upid, pid, process_name, oom_score_adj, kill_reason, kill_reason_raw "
                 "FROM android_lmk_events"),
            (Table{{"500", "0", "2000", "com.example", "905", "LOW_MEM", "8"}}));
}

TEST(AndroidLmk, InstantsWinOverOlderForms) {
  TraceBuilder b;
  b.Process(2000, "com.example");
  const uint32_t lmkd = b.Process(300, "lmkd");
  const uint32_t instants = b.ProcessTrack(lmkd, "lowmemorykiller");
  b.Slice(instants, 700, 0, "lmk,2000,4,999");
  const uint32_t lmkd_thread = b.Thread(300, "lmkd", lmkd);
  b.Slice(b.ThreadTrack(lmkd_thread), 500, 5, "lmk,2000,8,905");
  auto db = b.Open();
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE android.memory.lmk;"
                 "SELECT ts, pid, kill_reason FROM android_lmk_events"),
            (Table{{"700", "2000", "LOW_MEM_AND_THRASHING"}}));
}

TEST(AndroidLmk, KillOneProcessCounterTakesTheScoreFromOomAdj) {
  OomTrace t(/*with_kill=*/true);  // com.example (pid 2000) is at score 250 from 450 on
  TraceDatabase* db = t.db.get();
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE android.memory.lmk;"
                 "SELECT ts, pid, process_name, oom_score_adj, kill_reason FROM android_lmk_events"),
            // The counter carries no reason code: lmkd's mapping names that UNKNOWN, as for any
            // code it does not define.
            (Table{{"600", "2000", "com.example", "250", "UNKNOWN"}}));
}

// system_server dispatches three starts; each app's main thread binds and then creates an
// activity, a service, or nothing (a provider start).
TEST(AndroidAppProcessStarts, ReasonAndTimings) {
  TraceBuilder b;
  const uint32_t ss = b.Process(1000, "system_server");
  const uint32_t ss_track = b.ThreadTrack(b.Thread(1000, "system_server", ss));
  b.Slice(ss_track, 100, 10, "Start proc: com.example.a");
  b.Slice(ss_track, 200, 10, "Start proc: com.example.b");
  b.Slice(ss_track, 300, 10, "Start proc: com.example.c");
  auto app = [&](int64_t pid, const char* name) {
    const uint32_t upid = b.Process(pid, name);
    return b.ThreadTrack(b.Thread(pid, name, upid));
  };
  const uint32_t a = app(2001, "com.example.a");
  b.Slice(a, 120, 30, "bindApplication");
  b.Slice(a, 160, 20, "performCreate:com.example.a.MainActivity");
  const uint32_t c2 = app(2002, "com.example.b");
  b.Slice(c2, 220, 30, "bindApplication");
  b.Slice(c2, 260, 10, "serviceCreate: CreateServiceData{token=x className=com.example.b.Sync "
                       "packageName=com.example.b intent=null}");
  const uint32_t c3 = app(2003, "com.example.c");
  b.Slice(c3, 320, 40, "bindApplication");
  auto db = b.Open();
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE android.app_process_starts;"
                 "SELECT process_name, reason, intent, proc_start_ts, proc_start_dur, bind_app_ts, "
                 "bind_app_dur, intent_ts, intent_dur, total_dur "
                 "FROM android_app_process_starts ORDER BY proc_start_ts"),
            (Table{{"com.example.a", "activity", "com.example.a.MainActivity", "100", "10", "120",
                    "30", "160", "20", "80"},
                   {"com.example.b", "service", "com.example.b.Sync", "200", "10", "220", "30",
                    "260", "10", "70"},
                   {"com.example.c", "provider", "NULL", "300", "10", "320", "40", "NULL", "NULL",
                    "60"}}));
}

TEST(TimeConversion, ToAndFromNanoseconds) {
  TraceBuilder b;
  auto db = b.Open();
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE time.conversion;"
                 "SELECT time_from_ns(7), time_from_us(2), time_from_ms(3), time_from_s(1), "
                 "time_from_min(1), time_from_hours(1), time_from_days(1), time_to_us(2500), "
                 "time_to_ms(2999999), time_to_s(1000000000), time_to_min(120000000000), "
                 "time_to_hours(7200000000000), time_to_days(86400000000000)"),
            (Table{{"7", "2000", "3000000", "1000000000", "60000000000", "3600000000000",
                    "86400000000000", "2", "2", "1", "2", "2", "1"}}));
}

}  // namespace
}  // namespace tw::stdlib_testing
