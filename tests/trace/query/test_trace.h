#pragma once
// Hand-built traces for the query-layer tests: storage rows written directly (no importer), so a
// test states exactly what the tables hold.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "libs/trace/query/trace_database.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw::testing {

inline void AddArg(TraceStorage& st, uint32_t set, std::string_view key, std::string_view type,
                   std::optional<int64_t> i, std::optional<std::string_view> s,
                   std::optional<double> r) {
  st.args.Insert({.arg_set_id = set,
                  .flat_key = st.Intern(key),
                  .key = st.Intern(key),
                  .int_value = i,
                  .string_value = s ? st.Intern(*s) : kNullStringId,
                  .real_value = r,
                  .value_type = st.Intern(type)});
}
inline void AddIntArg(TraceStorage& st, uint32_t set, std::string_view key, int64_t v,
                      std::string_view type = "int") {
  AddArg(st, set, key, type, v, std::nullopt, std::nullopt);
}
inline void AddStringArg(TraceStorage& st, uint32_t set, std::string_view key, std::string_view v) {
  AddArg(st, set, key, "string", std::nullopt, v, std::nullopt);
}
inline void AddRealArg(TraceStorage& st, uint32_t set, std::string_view key, double v) {
  AddArg(st, set, key, "real", std::nullopt, std::nullopt, v);
}

inline uint32_t AddThreadTrack(TraceStorage& st, std::string_view name, uint32_t utid) {
  const uint32_t id = st.track.Insert(
      {.name = st.Intern(name), .type = st.Intern("thread"), .event_type = st.Intern("slice")});
  st.track.utid.Set(id, utid);
  return id;
}

// Two processes, three threads, a small slice tree with args, sched, thread states, counters,
// logs, metadata and stats. Trace bounds [100, 1000].
//
//   process 0: pid 100 "com.example.app" (threads utid 0 "main" tid 100, utid 1 "RenderThread")
//   process 1: pid 200 "system_server"   (thread utid 2 "binder:200_1")
//   track 0: thread track of utid 0; track 1: thread track of utid 1;
//   track 2: process track of upid 0 ("async"); track 3: cpu counter track (cpu 1, "cpufreq");
//   track 4: process counter track (upid 1, "mem.rss", unit "bytes"); track 5: cpu slice track
//   slices: 0 doFrame [100,150) d0 args{1}; 1 measure [110,130) d1 <-0; 2 layout [135,145) d1 <-0;
//           3 DrawFrame [150,180) track 1; 4 mark (instant, 160) track 2; 5 irq [200,210) track 5
inline std::unique_ptr<TraceStorage> MakeSmallTrace() {
  auto st = std::make_unique<TraceStorage>();
  TraceStorage& s = *st;
  const uint32_t p0 = s.process.Insert({.pid = 100});
  s.process.name.Set(p0, s.Intern("com.example.app"));
  const uint32_t p1 = s.process.Insert({.pid = 200});
  s.process.name.Set(p1, s.Intern("system_server"));
  s.process.uid.Set(p1, 1000);

  const uint32_t t0 = s.thread.Insert({.tid = 100});
  s.thread.name.Set(t0, s.Intern("main"));
  s.thread.upid.Set(t0, p0);
  s.thread.is_main_thread.Set(t0, 1);
  const uint32_t t1 = s.thread.Insert({.tid = 101});
  s.thread.name.Set(t1, s.Intern("RenderThread"));
  s.thread.upid.Set(t1, p0);
  const uint32_t t2 = s.thread.Insert({.tid = 201});
  s.thread.name.Set(t2, s.Intern("binder:200_1"));
  s.thread.upid.Set(t2, p1);

  const uint32_t tr0 = AddThreadTrack(s, "main", t0);
  const uint32_t tr1 = AddThreadTrack(s, "RenderThread", t1);
  const uint32_t tr2 = s.track.Insert(
      {.name = s.Intern("async"), .type = s.Intern("process"), .event_type = s.Intern("slice")});
  s.track.upid.Set(tr2, p0);
  const uint32_t tr3 = s.track.Insert({.name = s.Intern("cpufreq"),
                                       .type = s.Intern("cpu_frequency"),
                                       .event_type = s.Intern("counter")});
  s.track.cpu.Set(tr3, 1);
  s.track.counter_unit.Set(tr3, s.Intern("kHz"));
  const uint32_t tr4 = s.track.Insert({.name = s.Intern("mem.rss"),
                                       .type = s.Intern("process_memory"),
                                       .event_type = s.Intern("counter")});
  s.track.upid.Set(tr4, p1);
  s.track.counter_unit.Set(tr4, s.Intern("bytes"));
  const uint32_t tr5 = s.track.Insert(
      {.name = s.Intern("irq"), .type = s.Intern("cpu_irq"), .event_type = s.Intern("slice")});
  s.track.cpu.Set(tr5, 1);

  const StringId cat = s.Intern("gfx");
  const uint32_t s0 = s.slice.Insert({.ts = 100,
                                      .dur = 50,
                                      .track_id = tr0,
                                      .category = cat,
                                      .name = s.Intern("doFrame"),
                                      .depth = 0});
  s.slice.arg_set_id.Set(s0, 1);
  s.slice.Insert({.ts = 110,
                  .dur = 20,
                  .track_id = tr0,
                  .category = cat,
                  .name = s.Intern("measure"),
                  .depth = 1,
                  .parent_id = s0});
  s.slice.Insert({.ts = 135,
                  .dur = 10,
                  .track_id = tr0,
                  .category = cat,
                  .name = s.Intern("layout"),
                  .depth = 1,
                  .parent_id = s0});
  s.slice.Insert({.ts = 150,
                  .dur = 30,
                  .track_id = tr1,
                  .category = cat,
                  .name = s.Intern("DrawFrame"),
                  .depth = 0});
  s.slice.Insert({.ts = 160, .dur = 0, .track_id = tr2, .name = s.Intern("mark"), .depth = 0});
  s.slice.Insert({.ts = 200, .dur = 10, .track_id = tr5, .name = s.Intern("irq"), .depth = 0});
  s.flow.Insert({.slice_out = s0, .slice_in = 3});

  // Arg set 1 (slice 0), arg set 2: sets are contiguous and in order, as importers write them.
  AddIntArg(s, 1, "frame_id", 42);
  AddStringArg(s, 1, "layer", "app#0");
  AddRealArg(s, 1, "ratio", 0.5);
  AddIntArg(s, 1, "debug.visible", 1, "bool");
  AddIntArg(s, 1, "big", -1, "uint");
  AddIntArg(s, 1, "ptr", 255, "pointer");
  AddIntArg(s, 2, "frame_id", 43);

  s.cpu.Insert({.cpu = 0});
  s.cpu.Insert({.cpu = 1});
  s.cpu_freq.Insert({.ucpu = 0, .freq = 300000});
  s.cpu_freq.Insert({.ucpu = 0, .freq = 1800000});

  const StringId running = s.Intern("R");
  s.sched_slice.Insert(
      {.ts = 100, .dur = 40, .utid = t0, .end_state = running, .priority = 120, .ucpu = 0});
  s.sched_slice.Insert(
      {.ts = 140, .dur = 60, .utid = t1, .end_state = s.Intern("S"), .priority = 120, .ucpu = 1});
  s.sched_slice.Insert(
      {.ts = 200, .dur = 100, .utid = t2, .end_state = running, .priority = 110, .ucpu = 0});
  s.thread_state.Insert({.ts = 100, .utid = t0, .state = s.Intern("Running"), .ucpu = 0u});

  s.counter.Insert({.ts = 100, .track_id = tr3, .value = 300000});
  s.counter.Insert({.ts = 200, .track_id = tr3, .value = 1800000});
  s.counter.Insert({.ts = 150, .track_id = tr4, .value = 4096});

  s.logs.Insert({.ts = 120,
                 .utid = t0,
                 .prio = 4,
                 .log_source = s.Intern("android_logcat"),
                 .tag = s.Intern("ActivityManager"),
                 .msg = s.Intern("Start proc")});

  s.ftrace_event.Insert(
      {.ts = 130, .name = s.Intern("sched_wakeup"), .utid = t1, .common_flags = 0, .ucpu = 1});

  s.clock_snapshot.Insert({.ts = 0,
                           .clock_id = 1,  // REALTIME
                           .clock_value = 1000000000,
                           .snapshot_id = 0,
                           .machine_id = {}});

  s.machine.Insert({.raw_id = 0,
                    .sysname = s.Intern("Linux"),
                    .release = s.Intern("6.1"),
                    .arch = s.Intern("aarch64"),
                    .num_cpus = 2});

  s.SetMetadata("trace_type", "proto");
  s.SetMetadata("trace_size_bytes", 12345);
  s.IncrementStat("traced_buf_chunks_discarded", 3);
  s.ExtendBounds(100);
  s.ExtendBounds(1000);
  s.FinalizeStatsAndMetadata();
  return st;
}

// Opens a database over `storage`, failing the test on error.
inline std::unique_ptr<TraceDatabase> OpenOrDie(TraceStorage* storage) {
  auto db = TraceDatabase::Open(storage);
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? std::move(*db) : nullptr;
}

// Runs `sql` and returns its rows as text cells ("NULL" for NULL), failing the test on error.
inline std::vector<std::vector<std::string>> Rows(TraceDatabase& db, std::string_view sql) {
  auto r = db.Execute(sql);
  EXPECT_TRUE(r.ok()) << r.status() << "\n" << sql;
  std::vector<std::vector<std::string>> out;
  if (!r.ok()) return out;
  for (const auto& row : r->rows) {
    std::vector<std::string> cells;
    for (const SqlValue& v : row) {
      switch (v.type) {
        case SqlValue::Type::kNull:
          cells.push_back("NULL");
          break;
        case SqlValue::Type::kInt:
          cells.push_back(std::to_string(v.int_value));
          break;
        case SqlValue::Type::kDouble:
          cells.push_back(std::to_string(v.double_value));
          break;
        case SqlValue::Type::kString:
          cells.push_back(v.string_value);
          break;
      }
    }
    out.push_back(std::move(cells));
  }
  return out;
}

// The single cell of a one-row, one-column result.
inline std::string Scalar(TraceDatabase& db, std::string_view sql) {
  auto rows = Rows(db, sql);
  if (rows.size() != 1 || rows[0].size() != 1) {
    ADD_FAILURE() << "expected one cell from " << sql << ", got " << rows.size() << " rows";
    return "";
  }
  return rows[0][0];
}

inline std::vector<std::string> Columns(TraceDatabase& db, std::string_view sql) {
  auto r = db.Execute(sql);
  EXPECT_TRUE(r.ok()) << r.status() << "\n" << sql;
  return r.ok() ? r->columns : std::vector<std::string>();
}

}  // namespace tw::testing
