#pragma once
// Helpers for the stdlib module tests: a database over hand-built storage, and query results as
// text cells so expectations read like the diff tests' CSV.

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "libs/trace/query/trace_database.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw::stdlib_testing {

using Table = std::vector<std::vector<std::string>>;

// "NULL" for NULL; doubles printed with %g so 1.5 reads "1.5" and 2.0 reads "2".
inline std::string Cell(const SqlValue& v) {
  switch (v.type) {
    case SqlValue::Type::kNull: return "NULL";
    case SqlValue::Type::kInt: return std::to_string(v.int_value);
    case SqlValue::Type::kDouble: {
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%g", v.double_value);
      return buf;
    }
    case SqlValue::Type::kString: return v.string_value;
  }
  return "?";
}

// Runs `sql` and returns its rows as text, failing the test on error.
inline Table Rows(TraceDatabase& db, std::string_view sql) {
  auto r = db.Execute(sql);
  EXPECT_TRUE(r.ok()) << r.status() << "\n" << sql;
  Table out;
  if (!r.ok()) return out;
  for (const auto& row : r->rows) {
    std::vector<std::string> cells;
    for (const SqlValue& v : row) cells.push_back(Cell(v));
    out.push_back(std::move(cells));
  }
  return out;
}

// The single value of a one-row, one-column query.
inline std::string Scalar(TraceDatabase& db, std::string_view sql) {
  Table t = Rows(db, sql);
  if (t.size() != 1 || t[0].size() != 1) {
    ADD_FAILURE() << "expected one cell from: " << sql;
    return "";
  }
  return t[0][0];
}

inline std::unique_ptr<TraceDatabase> OpenOrDie(TraceStorage* storage) {
  auto db = TraceDatabase::Open(storage);
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? std::move(*db) : nullptr;
}

// Storage plus shorthands for the rows these tests need.
struct TraceBuilder {
  std::unique_ptr<TraceStorage> storage = std::make_unique<TraceStorage>();
  TraceStorage& s = *storage;

  uint32_t Process(int64_t pid, std::string_view name, std::optional<uint32_t> parent = {}) {
    const uint32_t upid = s.process.Insert({.pid = pid});
    if (!name.empty()) s.process.name.Set(upid, s.Intern(name));
    if (parent) s.process.parent_upid.Set(upid, *parent);
    return upid;
  }
  uint32_t Thread(int64_t tid, std::string_view name, std::optional<uint32_t> upid = {}) {
    const uint32_t utid = s.thread.Insert({.tid = tid});
    if (!name.empty()) s.thread.name.Set(utid, s.Intern(name));
    if (upid) s.thread.upid.Set(utid, *upid);
    return utid;
  }
  uint32_t ThreadTrack(uint32_t utid, std::string_view name = "") {
    const uint32_t id = s.track.Insert({.name = name.empty() ? kNullStringId : s.Intern(name),
                                        .type = s.Intern("thread"),
                                        .event_type = s.Intern("slice")});
    s.track.utid.Set(id, utid);
    return id;
  }
  uint32_t ProcessTrack(uint32_t upid, std::string_view name = "") {
    const uint32_t id = s.track.Insert({.name = name.empty() ? kNullStringId : s.Intern(name),
                                        .type = s.Intern("process_track"),
                                        .event_type = s.Intern("slice")});
    s.track.upid.Set(id, upid);
    return id;
  }
  uint32_t GlobalTrack(std::string_view name = "") {
    return s.track.Insert({.name = name.empty() ? kNullStringId : s.Intern(name),
                           .type = s.Intern("global"),
                           .event_type = s.Intern("slice")});
  }
  uint32_t CpuCounterTrack(uint32_t cpu, std::string_view name) {
    const uint32_t id =
        s.track.Insert({.name = s.Intern(name),
                        .type = s.Intern(name == "cpufreq" ? "cpu_frequency" : "cpu_idle"),
                        .event_type = s.Intern("counter")});
    s.track.cpu.Set(id, cpu);
    return id;
  }
  // A counter track of `type`; scope it with the returned id (s.track.cpu / upid / utid.Set).
  uint32_t CounterTrack(std::string_view name, std::string_view type = "global") {
    return s.track.Insert({.name = s.Intern(name),
                           .type = s.Intern(type),
                           .event_type = s.Intern("counter")});
  }
  uint32_t ProcessCounterTrack(uint32_t upid, std::string_view name) {
    const uint32_t id = CounterTrack(name, "process_counter");
    s.track.upid.Set(id, upid);
    return id;
  }
  uint32_t Counter(uint32_t track, int64_t ts, double value) {
    return s.counter.Insert({.ts = ts, .track_id = track, .value = value});
  }
  // A stretch of `utid` running on `cpu` (the cpu row is created if missing).
  uint32_t Sched(uint32_t cpu, int64_t ts, int64_t dur, uint32_t utid) {
    while (s.cpu.row_count() <= cpu) s.cpu.Insert({.cpu = s.cpu.row_count()});
    return s.sched_slice.Insert(
        {.ts = ts, .dur = dur, .utid = utid, .end_state = s.Intern("S"), .priority = 120,
         .ucpu = cpu});
  }
  // A slice; depth and parent are taken from `parent` (NULL: a root).
  uint32_t Slice(uint32_t track, int64_t ts, int64_t dur, std::string_view name,
                 std::optional<uint32_t> parent = {}, std::string_view category = "") {
    const uint32_t depth = parent ? s.slice.depth[*parent] + 1 : 0;
    return s.slice.Insert({.ts = ts,
                           .dur = dur,
                           .track_id = track,
                           .category = category.empty() ? kNullStringId : s.Intern(category),
                           .name = name.empty() ? kNullStringId : s.Intern(name),
                           .depth = depth,
                           .parent_id = parent});
  }
  // A thread state running from ts for dur.
  uint32_t State(uint32_t utid, int64_t ts, int64_t dur, std::string_view state,
                 std::optional<uint32_t> waker_utid = {}, std::optional<int8_t> irq = {}) {
    const uint32_t id = s.thread_state.Insert({.ts = ts,
                                               .utid = utid,
                                               .state = s.Intern(state),
                                               .waker_utid = waker_utid,
                                               .irq_context = irq});
    s.thread_state.dur.Set(id, dur);
    return id;
  }

  // Bounds and finalisation; returns the open database.
  std::unique_ptr<TraceDatabase> Open(int64_t start = 0, int64_t end = 1000) {
    s.ExtendBounds(start);
    s.ExtendBounds(end);
    s.FinalizeStatsAndMetadata();
    return OpenOrDie(storage.get());
  }
};

}  // namespace tw::stdlib_testing
