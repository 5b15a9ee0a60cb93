#include "libs/agent/context_probes.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "libs/common/units.h"

namespace tw::agent {
namespace {

// The first cell of the first row as an int, or `fallback` when the probe fails or is empty.
int64_t Scalar(skills::SkillQueryRunner& sql, const char* query, int64_t fallback = 0) {
  auto r = sql.Query(query, {}, 1);
  if (!r.ok() || r->rows.empty() || r->rows[0].empty()) return fallback;
  const SqlValue& v = r->rows[0][0];
  if (v.type == SqlValue::Type::kInt) return v.int_value;
  if (v.type == SqlValue::Type::kDouble) return static_cast<int64_t>(v.double_value);
  return fallback;
}

}  // namespace

absl::StatusOr<TraceContext> ProbeTraceContext(skills::SkillQueryRunner& sql) {
  TraceContext c;
  auto bounds = sql.Query("SELECT start_ts, end_ts FROM trace_bounds", {}, 1);
  if (!bounds.ok()) return bounds.status();
  if (!bounds->rows.empty() && bounds->rows[0].size() == 2) {
    c.start_ns = bounds->rows[0][0].int_value;
    c.end_ns = bounds->rows[0][1].int_value;
  }
  c.cpus = Scalar(sql, "SELECT COUNT(DISTINCT cpu) FROM sched");
  c.processes = Scalar(sql, "SELECT COUNT(*) FROM process WHERE pid != 0");
  c.threads = Scalar(sql, "SELECT COUNT(*) FROM thread WHERE tid != 0");
  c.sched_slices = Scalar(sql, "SELECT COUNT(*) FROM sched");
  c.thread_states = Scalar(sql, "SELECT COUNT(*) FROM thread_state");
  c.slices = Scalar(sql, "SELECT COUNT(*) FROM slice");
  c.frames = Scalar(sql, "SELECT COUNT(*) FROM actual_frame_timeline_slice");
  c.cpu_freq_samples = Scalar(
      sql, "SELECT COUNT(*) FROM counter JOIN cpu_counter_track t ON counter.track_id = t.id "
           "WHERE t.name = 'cpufreq'");
  c.log_lines = Scalar(sql, "SELECT COUNT(*) FROM android_logs");

  // Focus app: most frames, else most slices among app processes (package-like names).
  auto focus = sql.Query(
      c.frames > 0
          // SurfaceFlinger's display frames are in the same table and outnumber any app's.
          ? "SELECT p.upid, p.name FROM actual_frame_timeline_slice f JOIN process p USING (upid) "
            "WHERE p.name IS NULL OR p.name NOT GLOB '*surfaceflinger*' "
            "GROUP BY p.upid ORDER BY COUNT(*) DESC LIMIT 1"
          : "SELECT p.upid, p.name FROM slice s JOIN thread_track tt ON s.track_id = tt.id "
            "JOIN thread USING (utid) JOIN process p USING (upid) "
            "WHERE p.name LIKE '%.%' AND p.name NOT LIKE '/%' AND p.name != 'system_server' "
            "GROUP BY p.upid ORDER BY COUNT(*) DESC LIMIT 1",
      {}, 1);
  if (focus.ok() && !focus->rows.empty()) {
    c.focus_upid = focus->rows[0][0].int_value;
    if (focus->rows[0][1].type == SqlValue::Type::kString) c.focus_app = focus->rows[0][1].string_value;
  }
  if (c.frames > 0) {
    const int64_t median_ns = Scalar(
        sql, "SELECT dur FROM expected_frame_timeline_slice WHERE dur > 0 ORDER BY dur LIMIT 1 "
             "OFFSET (SELECT COUNT(*) / 2 FROM expected_frame_timeline_slice WHERE dur > 0)");
    if (median_ns > 0) c.refresh_hz = 1e9 / static_cast<double>(median_ns);
  }
  if (c.sched_slices == 0) c.missing.push_back("no scheduling data (sched_switch)");
  if (c.slices == 0) c.missing.push_back("no slices (atrace / track events)");
  if (c.frames == 0) c.missing.push_back("no frame timeline (jank attribution must use atrace)");
  if (c.cpu_freq_samples == 0) c.missing.push_back("no CPU frequency counters");
  return c;
}

std::string TraceContext::Describe() const {
  std::string out = absl::StrCat("- Duration: ", FormatDurationNs(duration_ns()), " (", start_ns,
                                 " .. ", end_ns, " ns)\n");
  absl::StrAppend(&out, "- CPUs seen in sched: ", cpus, "; processes: ", processes,
                  "; threads: ", threads, "\n");
  absl::StrAppend(&out, "- Data: ", sched_slices, " sched slices, ", thread_states,
                  " thread states, ", slices, " slices, ", frames, " frames, ", cpu_freq_samples,
                  " cpufreq samples, ", log_lines, " log lines\n");
  if (!focus_app.empty()) {
    absl::StrAppend(&out, "- Likely focus app: ", focus_app, " (upid ", focus_upid, ")\n");
  }
  if (refresh_hz > 0) {
    absl::StrAppend(&out, "- Display refresh: ", absl::StrFormat("%.0f", refresh_hz),
                    " Hz (from expected frame durations)\n");
  }
  if (!missing.empty()) absl::StrAppend(&out, "- Missing: ", absl::StrJoin(missing, "; "), "\n");
  return out;
}

}  // namespace tw::agent
