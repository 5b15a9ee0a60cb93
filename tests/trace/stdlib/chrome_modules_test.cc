// chrome.page_loads over hand-built PageLoadMetrics slices of a browser process.

#include <gtest/gtest.h>

#include <string>

#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

// A page-load metric slice on the browser's process track, for navigation `nav` (its
// page_load.* args; the FCP slice also names the URL).
void Metric(TraceBuilder& b, uint32_t track, const std::string& metric, int64_t ts, int64_t dur,
            int64_t nav, std::string_view url = "") {
  TraceStorage& s = b.s;
  const uint32_t set = s.args.row_count() == 0 ? 0 : s.args.arg_set_id[s.args.row_count() - 1] + 1;
  const StringId nav_key = s.Intern("page_load.navigation_id");
  s.args.Insert({.arg_set_id = set, .flat_key = nav_key, .key = nav_key, .int_value = nav,
                 .value_type = s.Intern("int")});
  if (!url.empty()) {
    const StringId url_key = s.Intern("page_load.url");
    s.args.Insert({.arg_set_id = set, .flat_key = url_key, .key = url_key,
                   .string_value = s.Intern(url), .value_type = s.Intern("string")});
  }
  const uint32_t slice = b.Slice(track, ts, dur, "PageLoadMetrics." + metric);
  s.slice.arg_set_id.Set(slice, set);
}

TEST(ChromePageLoads, MilestonesJoinTheirNavigationInTheSameBrowser) {
  TraceBuilder b;
  const uint32_t browser = b.Process(10, "Browser");
  const uint32_t other_browser = b.Process(20, "Browser");
  const uint32_t track = b.ProcessTrack(browser);
  const uint32_t other_track = b.ProcessTrack(other_browser);
  Metric(b, track, "NavigationToFirstContentfulPaint", 100, 50, 1, "https://a.example/");
  Metric(b, track, "NavigationToLargestContentfulPaint", 100, 80, 1);
  Metric(b, track, "NavigationToDOMContentLoadedEventFired", 100, 30, 1);
  Metric(b, track, "UserTimingMarkInteractive", 100, 90, 1);
  // The same navigation id in another browser is another navigation.
  Metric(b, other_track, "NavigationToLargestContentfulPaint", 300, 10, 1);
  Metric(b, track, "NavigationToFirstContentfulPaint", 400, 20, 2, "https://b.example/");
  auto db = b.Open(0, 1000);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE chrome.page_loads;
                         SELECT id, navigation_id, navigation_start_ts, fcp, fcp_ts, lcp, lcp_ts,
                                dom_content_loaded_event_ts, load_event_ts,
                                mark_interactive_ts, url, browser_upid
                         FROM chrome_page_loads ORDER BY id)"),
            (Table{{"1", "1", "100", "50", "150", "80", "180", "100", "NULL", "100",
                    "https://a.example/", std::to_string(browser)},
                   {"2", "2", "400", "20", "420", "NULL", "NULL", "NULL", "NULL", "NULL",
                    "https://b.example/", std::to_string(browser)}}));
}

}  // namespace
}  // namespace tw::stdlib_testing
