// Google Benchmark: the scrolling skill set (what the scrolling strategy runs) over a large
// Android scroll trace built directly in storage: N app frames at 60 Hz, every 10th one late
// (binder, lock or runnable in turn), with the main thread and RenderThread changing state every
// 0.5 ms and slices on both. At the default 12,000 frames the trace holds ~1.1 M rows
// (thread states, slices, args). Import time is not included: this measures the skills.
//
//   build-<dir>/tests/skills/tw_scrolling_skills_benchmark [--benchmark_filter=...]

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

#include "libs/skills/skill_executor.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/trace/query/trace_database.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw::skills {
namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kFramePeriod = 16'666'667;

struct ScrollTrace {
  std::unique_ptr<TraceStorage> storage;
  std::unique_ptr<TraceDatabase> db;
  int64_t rows = 0;
};

ScrollTrace BuildScrollTrace(int frames) {
  ScrollTrace out;
  out.storage = std::make_unique<TraceStorage>();
  TraceStorage& s = *out.storage;
  uint32_t next_set = 1;
  auto arg = [&](uint32_t set, std::string_view key, std::optional<int64_t> i,
                 std::optional<std::string_view> str) {
    s.args.Insert({.arg_set_id = set,
                   .flat_key = s.Intern(key),
                   .key = s.Intern(key),
                   .int_value = i,
                   .string_value = str ? s.Intern(*str) : kNullStringId,
                   .value_type = s.Intern(i ? "int" : "string")});
    ++out.rows;
  };
  const uint32_t app = s.process.Insert({.pid = 4000});
  s.process.name.Set(app, s.Intern("com.example.feed"));
  s.process.uid.Set(app, 10123);
  const uint32_t main = s.thread.Insert({.tid = 4000});
  s.thread.name.Set(main, s.Intern("example.feed"));
  s.thread.upid.Set(main, app);
  s.thread.is_main_thread.Set(main, 1);
  const uint32_t render = s.thread.Insert({.tid = 4020});
  s.thread.name.Set(render, s.Intern("RenderThread"));
  s.thread.upid.Set(render, app);
  const uint32_t actual = s.track.Insert({.name = s.Intern("Actual Timeline"),
                                          .type = s.Intern("android_actual_frame_timeline"),
                                          .event_type = s.Intern("slice")});
  s.track.upid.Set(actual, app);
  const uint32_t expected = s.track.Insert({.name = s.Intern("Expected Timeline"),
                                            .type = s.Intern("android_expected_frame_timeline"),
                                            .event_type = s.Intern("slice")});
  s.track.upid.Set(expected, app);
  const uint32_t main_track = s.track.Insert(
      {.name = s.Intern("main"), .type = s.Intern("thread"), .event_type = s.Intern("slice")});
  s.track.utid.Set(main_track, main);
  const uint32_t rt_track = s.track.Insert(
      {.name = s.Intern("rt"), .type = s.Intern("thread"), .event_type = s.Intern("slice")});
  s.track.utid.Set(rt_track, render);

  const int64_t start = 10'000 * kMs;
  const StringId layer = s.Intern("com.example.feed/FeedActivity#0");
  for (int f = 0; f < frames; ++f) {
    const int64_t ts = start + f * kFramePeriod;
    const bool late = f % 10 == 9;
    const int64_t dur = late ? 3 * kFramePeriod : kFramePeriod - kMs;
    const int64_t token = 100000 + f;
    for (int kind = 0; kind < 2; ++kind) {
      const uint32_t id = s.slice.Insert({.ts = ts,
                                          .dur = kind == 0 ? kFramePeriod : dur,
                                          .track_id = kind == 0 ? expected : actual,
                                          .name = s.Intern(std::to_string(token)),
                                          .depth = 0});
      const uint32_t set = next_set++;
      arg(set, "Display frame token", token + 7, std::nullopt);
      arg(set, "Surface frame token", token, std::nullopt);
      arg(set, "Layer name", std::nullopt, "com.example.feed/FeedActivity#0");
      if (kind == 1) {
        arg(set, "Present type", std::nullopt, late ? "Late Present" : "On-time Present");
        arg(set, "On time finish", late ? 0 : 1, std::nullopt);
        arg(set, "GPU composition", 0, std::nullopt);
        arg(set, "Jank type", std::nullopt, late ? "App Deadline Missed" : "None");
      }
      s.slice.arg_set_id.Set(id, set);
      out.rows += 1;
    }
    (void)layer;
  }
  // Thread slices after the frame slices (each track's slices in time order).
  const StringId do_frame = s.Intern("Choreographer#doFrame");
  const StringId draw = s.Intern("DrawFrame");
  const StringId binder = s.Intern("binder transaction");
  const StringId lock = s.Intern("Lock contention on a monitor lock (owner tid: 4031)");
  const StringId inflate = s.Intern("inflate");
  for (int f = 0; f < frames; ++f) {
    const int64_t ts = start + f * kFramePeriod;
    const bool late = f % 10 == 9;
    const int64_t work = late ? 40 * kMs : 8 * kMs;
    const uint32_t root = s.slice.Insert(
        {.ts = ts, .dur = work, .track_id = main_track, .name = do_frame, .depth = 0});
    for (int k = 0; k < 6; ++k) {
      s.slice.Insert({.ts = ts + k * kMs,
                      .dur = kMs / 2,
                      .track_id = main_track,
                      .name = inflate,
                      .depth = 1,
                      .parent_id = root});
    }
    if (late && (f / 10) % 3 == 0) {
      s.slice.Insert({.ts = ts + 8 * kMs,
                      .dur = 25 * kMs,
                      .track_id = main_track,
                      .name = binder,
                      .depth = 1,
                      .parent_id = root});
    } else if (late && (f / 10) % 3 == 1) {
      s.slice.Insert({.ts = ts + 8 * kMs,
                      .dur = 25 * kMs,
                      .track_id = main_track,
                      .name = lock,
                      .depth = 1,
                      .parent_id = root});
    }
    s.slice.Insert(
        {.ts = ts + work, .dur = 4 * kMs, .track_id = rt_track, .name = draw, .depth = 0});
    out.rows += 9;
  }
  // Thread states: both threads alternate every 0.5 ms; a late frame's main thread sleeps (binder
  // / lock) or waits for a CPU (runnable) for 25 ms.
  const StringId running = s.Intern("Running"), sleeping = s.Intern("S"), runnable = s.Intern("R");
  for (uint32_t utid : {main, render}) {
    int64_t t = start;
    const int64_t end = start + frames * kFramePeriod;
    while (t < end) {
      const int f = static_cast<int>((t - start) / kFramePeriod);
      const int64_t in_frame = (t - start) % kFramePeriod;
      StringId st = ((t / (kMs / 2)) % 2 == 0) ? running : sleeping;
      int64_t d = kMs / 2;
      if (utid == main && f % 10 == 9 && in_frame >= 8 * kMs && in_frame < 8 * kMs + kMs / 2) {
        st = (f / 10) % 3 == 2 ? runnable : sleeping;
        d = 25 * kMs;
      }
      const uint32_t id = s.thread_state.Insert({.ts = t, .utid = utid, .state = st, .ucpu = 0u});
      s.thread_state.dur.Set(id, d);
      t += d;
      ++out.rows;
    }
  }
  auto db = TraceDatabase::Open(out.storage.get());
  if (db.ok()) out.db = std::move(*db);
  return out;
}

// The scrolling strategy's skills, in its order, with the parameters it would pass.
void RunScrollingSet(SkillExecutor& executor, const SkillLibrary& library, benchmark::State& state) {
  auto run = [&](const char* name, std::map<std::string, std::string> params) {
    SkillRunResult r = executor.Run(*library.Find(name), params);
    if (std::getenv("TW_BENCH_VERBOSE")) {
      std::fprintf(stderr, "%-24s %8.1f ms  %s\n", name, r.elapsed_ns / 1e6, SkillOutcomeName(r.outcome));
      for (const auto& st : r.steps) {
        std::fprintf(stderr, "    %-22s %8.1f ms\n", st->step.c_str(), st->elapsed_ns / 1e6);
      }
    }
    if (r.outcome != SkillOutcome::kOk && r.outcome != SkillOutcome::kNotSupported) {
      state.SkipWithError((std::string(name) + ": " + r.message).c_str());
    }
    return r;
  };
  run("trace_overview", {});
  SkillRunResult focus = run("focus_app", {});
  const std::string upid = std::to_string(focus.Output()->rows.at(0).at(0).int_value);
  run("refresh_rate", {});
  run("rendering_architecture", {{"upid", upid}});
  run("frame_overview", {{"upid", upid}});
  run("janky_frames", {{"upid", upid}});
  SkillRunResult causes = run("jank_root_causes", {{"upid", upid}});
  const StepResult* c = causes.Output();
  const int worst = c->ColumnIndex("worst_frame_id");
  for (size_t i = 0; i < c->rows.size() && i < 3; ++i) {
    run("frame_detail", {{"upid", upid}, {"frame_id", std::to_string(c->rows[i][worst].int_value)}});
  }
  run("binder_slow_calls", {{"upid", upid}});
  run("cpu_frequency", {});
  run("thread_state_breakdown", {{"upid", upid}});
}

void BM_ScrollingSkillSet(benchmark::State& state) {
  ScrollTrace trace = BuildScrollTrace(static_cast<int>(state.range(0)));
  if (!trace.db) {
    state.SkipWithError("cannot open the database");
    return;
  }
  if (const char* sql_file = std::getenv("TW_BENCH_SQL")) {  // ad-hoc: time one query
    std::ifstream in(sql_file);
    std::stringstream ss;
    ss << in.rdbuf();
    for (absl::string_view piece : absl::StrSplit(ss.str(), "\n;;\n")) {
      const std::string part(piece);
      auto r = trace.db->Execute(part);
      std::fprintf(stderr, "%.1f ms  %s\n", r.ok() ? r->elapsed_ns / 1e6 : -1.0,
                   r.ok() ? absl::StrCat(r->rows.size(), " rows").c_str()
                          : std::string(r.status().message()).c_str());
    }
  }
  std::vector<Diagnostic> diags;
  SkillLibrary library = SkillLibrary::LoadDirectory(TW_SOURCE_DIR "/skills", &diags);
  TraceDatabaseRunner runner(trace.db.get());
  SkillExecutor executor(library, runner);
  for (auto _ : state) RunScrollingSet(executor, library, state);
  state.counters["trace_rows"] = static_cast<double>(trace.rows);
}
BENCHMARK(BM_ScrollingSkillSet)->Arg(1200)->Arg(12000)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace tw::skills

BENCHMARK_MAIN();
