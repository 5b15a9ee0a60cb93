#include "tools/tracegen/ground_truth.h"

#include "nlohmann/json.hpp"

namespace tw::tracegen {

std::string GroundTruth::ToJson() const {
  using nlohmann::json;
  json j;
  j["scenario"] = scenario;
  j["seed"] = seed;
  j["params"] = {{"duration_s", duration_s},
                 {"fps", fps},
                 {"severity", severity},
                 {"compact_sched", compact_sched}};
  j["trace"] = {{"start_ns", trace_start_ns}, {"end_ns", trace_end_ns}, {"bytes", bytes},
                {"ftrace_events", ftrace_events}, {"sched_events", sched_events}};
  j["app"] = {{"package", app_package},
              {"pid", app_pid},
              {"main_tid", app_main_tid},
              {"render_thread_tid", app_render_tid},
              {"system_server_pid", system_server_pid},
              {"surfaceflinger_pid", surfaceflinger_pid}};
  json frames = {{"total", frames_total},
                 {"janky", frames_janky},
                 {"app_deadline_missed", frames_app_deadline_missed},
                 {"injected_tokens", injected_frame_tokens}};
  json janky = json::array();
  for (const JankyFrame& f : janky_frames) {
    janky.push_back({{"surface_frame_token", f.surface_token},
                     {"display_frame_token", f.display_token},
                     {"ts", f.ts},
                     {"dur", f.dur},
                     {"jank_type", f.jank_type},
                     {"cause", f.cause}});
  }
  frames["janky_frames"] = janky;
  j["frames"] = frames;
  json binder = json::array();
  for (const InjectedBinder& b : injected_binder) {
    binder.push_back({{"client_tid", b.client_tid},
                      {"client_pid", b.client_pid},
                      {"client_thread", b.client_thread},
                      {"server_tid", b.server_tid},
                      {"server_pid", b.server_pid},
                      {"server_process", b.server_process},
                      {"aidl", b.aidl},
                      {"ts", b.ts},
                      {"dur", b.dur}});
  }
  j["binder"] = {{"injected_count", injected_binder.size()},
                 {"injected", binder},
                 {"transactions_total", binder_transactions_total}};
  if (!startup_type.empty()) {
    j["startup"] = {{"type", startup_type},
                    {"ts", startup_ts},
                    {"dur", startup_dur},
                    {"main_thread_d_state_ns", startup_main_thread_d_state_ns}};
  }
  if (cpu_hog_threads > 0) {
    j["cpu_contention"] = {{"from_ns", cpu_contention_from_ns},
                           {"to_ns", cpu_contention_to_ns},
                           {"hog_process", cpu_hog_process},
                           {"hog_threads", cpu_hog_threads}};
  }
  if (memory_polls > 0) {
    j["memory"] = {{"polls", memory_polls},
                   {"app_rss_first_bytes", app_rss_first_bytes},
                   {"app_rss_last_bytes", app_rss_last_bytes},
                   {"app_rss_peak_bytes", app_rss_peak_bytes}};
  }
  if (!input_events.empty()) {
    json events = json::array();
    for (const InputEventTruth& e : input_events) {
      events.push_back({{"type", e.type},
                        {"seq", e.seq},
                        {"action", e.action},
                        {"dispatch_ts", e.dispatch_ts},
                        {"receive_ts", e.receive_ts},
                        {"finish_ts", e.finish_ts},
                        {"ack_ts", e.ack_ts}});
    }
    j["input"] = {{"events", events}};
  }
  j["gc_events"] = gc_events;
  j["monitor_contentions"] = monitor_contentions;
  j["main_thread_runnable_ns_in_contention"] = main_thread_runnable_ns;
  if (thermal_cap_ts > 0) {
    j["thermal"] = {{"cap_ts", thermal_cap_ts},
                    {"cap_khz", thermal_cap_khz},
                    {"cpus", thermal_capped_cpus},
                {"hottest_zone", thermal_hottest_zone},
                {"hottest_c", thermal_hottest_c},
                {"samples_per_zone", thermal_samples_per_zone}};
  }
  if (!anr_type.empty()) {
    j["anr"] = {{"type", anr_type},
                {"ts", anr_ts},
                {"blocking_tid", anr_blocking_tid},
                {"blocking_chain", anr_blocking_chain}};
  }
  j["planted_causes"] = planted_causes;
  j["decoys"] = decoys;
  if (problem_to_ns > 0) j["problem_window"] = {{"from_ns", problem_from_ns}, {"to_ns", problem_to_ns}};
  if (!startup_blocking.empty()) {
    json blocking = json::array();
    for (const auto& [cause, ns] : startup_blocking) blocking.push_back({{"cause", cause}, {"planted_ns", ns}});
    j["startup_blocking"] = blocking;
  }
  if (!lmk_victims.empty() || direct_reclaims > 0) {
    j["memory_pressure"] = {{"lmk_victims", lmk_victims},
                            {"direct_reclaims", direct_reclaims},
                            {"direct_reclaim_ns", direct_reclaim_ns}};
  }
  if (wakeups_planted > 0 || oneway_calls > 0) {
    j["power"] = {{"wakeup_process", wakeup_process}, {"wakeup_thread", wakeup_thread},
                  {"wakeups", wakeups_planted}, {"oneway_method", oneway_method},
                  {"oneway_calls", oneway_calls}, {"fsync_thread", fsync_thread}, {"fsyncs", fsyncs}};
  }
  if (slow_input_events > 0) {
    j["slow_input"] = {{"events", slow_input_events}, {"slice", slow_input_slice}};
  }
  // How exact the numbers above are against what an analysis measures from the trace.
  j["tolerances"] = {
      {"frames_janky", "exact (same frame timeline)"},
      {"startup_dur_ns", 1'000'000},
      {"binder_dur_ns", 100'000},
      {"main_thread_runnable_ns", "±10%"},
  };
  return j.dump(2) + "\n";
}

}  // namespace tw::tracegen
