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
  ArgTable& a = st.args;
  a.arg_set_id.Append(set);
  a.flat_key.Append(st.Intern(key));
  a.key.Append(st.Intern(key));
  a.int_value.Append(i);
  a.string_value.Append(s ? st.Intern(*s) : kNullStringId);
  a.real_value.Append(r);
  a.value_type.Append(st.Intern(type));
  a.CommitRow();
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
  const uint32_t id = st.track.Insert(st.Intern(name), st.Intern("thread"), st.Intern("slice"));
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
  const uint32_t p0 = s.process.Insert(100);
  s.process.name.Set(p0, s.Intern("com.example.app"));
  const uint32_t p1 = s.process.Insert(200);
  s.process.name.Set(p1, s.Intern("system_server"));
  s.process.uid.Set(p1, 1000);

  const uint32_t t0 = s.thread.Insert(100);
  s.thread.name.Set(t0, s.Intern("main"));
  s.thread.upid.Set(t0, p0);
  s.thread.is_main_thread.Set(t0, 1);
  const uint32_t t1 = s.thread.Insert(101);
  s.thread.name.Set(t1, s.Intern("RenderThread"));
  s.thread.upid.Set(t1, p0);
  const uint32_t t2 = s.thread.Insert(201);
  s.thread.name.Set(t2, s.Intern("binder:200_1"));
  s.thread.upid.Set(t2, p1);

  const uint32_t tr0 = AddThreadTrack(s, "main", t0);
  const uint32_t tr1 = AddThreadTrack(s, "RenderThread", t1);
  const uint32_t tr2 = s.track.Insert(s.Intern("async"), s.Intern("process"), s.Intern("slice"));
  s.track.upid.Set(tr2, p0);
  const uint32_t tr3 =
      s.track.Insert(s.Intern("cpufreq"), s.Intern("cpu_frequency"), s.Intern("counter"));
  s.track.cpu.Set(tr3, 1);
  s.track.counter_unit.Set(tr3, s.Intern("kHz"));
  const uint32_t tr4 =
      s.track.Insert(s.Intern("mem.rss"), s.Intern("process_memory"), s.Intern("counter"));
  s.track.upid.Set(tr4, p1);
  s.track.counter_unit.Set(tr4, s.Intern("bytes"));
  const uint32_t tr5 = s.track.Insert(s.Intern("irq"), s.Intern("cpu_irq"), s.Intern("slice"));
  s.track.cpu.Set(tr5, 1);

  const StringId cat = s.Intern("gfx");
  const uint32_t s0 = s.slice.Insert(100, 50, tr0, cat, s.Intern("doFrame"), 0, std::nullopt);
  s.slice.arg_set_id.Set(s0, 1);
  s.slice.Insert(110, 20, tr0, cat, s.Intern("measure"), 1, s0);
  s.slice.Insert(135, 10, tr0, cat, s.Intern("layout"), 1, s0);
  s.slice.Insert(150, 30, tr1, cat, s.Intern("DrawFrame"), 0, std::nullopt);
  s.slice.Insert(160, 0, tr2, kNullStringId, s.Intern("mark"), 0, std::nullopt);
  s.slice.Insert(200, 10, tr5, kNullStringId, s.Intern("irq"), 0, std::nullopt);
  s.flow.Insert(s0, 3, std::nullopt);

  // Arg set 1 (slice 0), arg set 2: sets are contiguous and in order, as importers write them.
  AddIntArg(s, 1, "frame_id", 42);
  AddStringArg(s, 1, "layer", "app#0");
  AddRealArg(s, 1, "ratio", 0.5);
  AddIntArg(s, 1, "debug.visible", 1, "bool");
  AddIntArg(s, 1, "big", -1, "uint");
  AddIntArg(s, 1, "ptr", 255, "pointer");
  AddIntArg(s, 2, "frame_id", 43);

  s.cpu.Insert(0);
  s.cpu.Insert(1);
  s.cpu_freq.Insert(0, 300000);
  s.cpu_freq.Insert(0, 1800000);

  const StringId running = s.Intern("R");
  s.sched_slice.Insert(100, 40, t0, running, 120, 0);
  s.sched_slice.Insert(140, 60, t1, s.Intern("S"), 120, 1);
  s.sched_slice.Insert(200, 100, t2, running, 110, 0);
  s.thread_state.Insert(100, t0, s.Intern("Running"), 0u, std::nullopt, std::nullopt, std::nullopt);

  s.counter.Insert(100, tr3, 300000);
  s.counter.Insert(200, tr3, 1800000);
  s.counter.Insert(150, tr4, 4096);

  s.logs.ts.Append(120);
  s.logs.utid.Append(t0);
  s.logs.prio.Append(4u);
  s.logs.log_source.Append(s.Intern("android_logcat"));
  s.logs.tag.Append(s.Intern("ActivityManager"));
  s.logs.msg.Append(s.Intern("Start proc"));
  s.logs.arg_set_id.Append(OptU32());
  s.logs.CommitRow();

  s.ftrace_event.Insert(130, s.Intern("sched_wakeup"), 1, t1, std::nullopt, 0);

  s.clock_snapshot.ts.Append(0);
  s.clock_snapshot.clock_id.Append(1);  // REALTIME
  s.clock_snapshot.clock_name.Append(kNullStringId);
  s.clock_snapshot.clock_value.Append(1000000000);
  s.clock_snapshot.snapshot_id.Append(0u);
  s.clock_snapshot.machine_id.Append(OptU32());
  s.clock_snapshot.CommitRow();

  s.machine.raw_id.Append(0u);
  s.machine.sysname.Append(s.Intern("Linux"));
  s.machine.release.Append(s.Intern("6.1"));
  s.machine.version.Append(kNullStringId);
  s.machine.arch.Append(s.Intern("aarch64"));
  s.machine.num_cpus.Append(OptI64(2));
  s.machine.android_build_fingerprint.Append(kNullStringId);
  s.machine.android_device_manufacturer.Append(kNullStringId);
  s.machine.android_sdk_version.Append(OptI64());
  s.machine.trace_id.Append(OptU32());
  s.machine.CommitRow();

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
