-- Chrome page loads: one row per navigation whose first contentful paint Chrome's
-- PageLoadMetrics recorded, with the other page-load milestones of the same navigation.
-- Chrome records each metric as a slice on the browser process's track, from the navigation's
-- start to the milestone, with the navigation's id (and, on the FCP slice, its URL) in the
-- page_load.* args of its track event. Navigation ids are unique within one browser process
-- only, so a navigation is (navigation_id, browser_upid).

INCLUDE PERFETTO MODULE slices.with_context;

-- Every PageLoadMetrics slice with the navigation it measures.
CREATE PERFETTO VIEW _page_load_metric_slices AS
SELECT
  name,
  ts,
  dur,
  upid AS browser_upid,
  EXTRACT_ARG(arg_set_id, 'page_load.navigation_id') AS navigation_id,
  EXTRACT_ARG(arg_set_id, 'page_load.url') AS url
FROM process_slice
WHERE name GLOB 'PageLoadMetrics.*';

-- Chrome page loads, one per first contentful paint, with the navigation's other milestones.
CREATE PERFETTO TABLE chrome_page_loads(
  -- Row number, in order of navigation start.
  id LONG,
  -- The navigation's id (unique within its browser process only).
  navigation_id LONG,
  -- When the navigation started.
  navigation_start_ts TIMESTAMP,
  -- Time from the navigation's start to its first contentful paint (web.dev/fcp), in ns.
  fcp LONG,
  -- When the first contentful paint happened.
  fcp_ts TIMESTAMP,
  -- Time from the navigation's start to its largest contentful paint (web.dev/lcp), in ns.
  lcp LONG,
  -- When the largest contentful paint happened.
  lcp_ts TIMESTAMP,
  -- Start of the navigation's DOMContentLoaded metric slice.
  dom_content_loaded_event_ts TIMESTAMP,
  -- Start of the navigation's main-frame load-event metric slice.
  load_event_ts TIMESTAMP,
  -- Start of the metric slice of the page's performance.mark('mark_fully_loaded').
  mark_fully_loaded_ts TIMESTAMP,
  -- Start of the metric slice of the page's performance.mark('mark_fully_visible').
  mark_fully_visible_ts TIMESTAMP,
  -- Start of the metric slice of the page's performance.mark('mark_interactive').
  mark_interactive_ts TIMESTAMP,
  -- The URL the FCP slice names.
  url STRING,
  -- The browser process the navigation happened in (process.upid).
  browser_upid LONG
) AS
WITH
  fcp AS (
    SELECT * FROM _page_load_metric_slices
    WHERE name = 'PageLoadMetrics.NavigationToFirstContentfulPaint'
  ),
  milestone AS (
    SELECT name, ts, dur, browser_upid, navigation_id FROM _page_load_metric_slices
  )
SELECT
  ROW_NUMBER() OVER (ORDER BY fcp.ts) AS id,
  fcp.navigation_id,
  fcp.ts AS navigation_start_ts,
  fcp.dur AS fcp,
  fcp.ts + fcp.dur AS fcp_ts,
  lcp.dur AS lcp,
  lcp.ts + lcp.dur AS lcp_ts,
  dcl.ts AS dom_content_loaded_event_ts,
  onload.ts AS load_event_ts,
  fully_loaded.ts AS mark_fully_loaded_ts,
  fully_visible.ts AS mark_fully_visible_ts,
  interactive.ts AS mark_interactive_ts,
  fcp.url,
  fcp.browser_upid
FROM fcp
LEFT JOIN milestone AS lcp
  ON lcp.name = 'PageLoadMetrics.NavigationToLargestContentfulPaint'
  AND lcp.navigation_id = fcp.navigation_id AND lcp.browser_upid = fcp.browser_upid
LEFT JOIN milestone AS dcl
  ON dcl.name = 'PageLoadMetrics.NavigationToDOMContentLoadedEventFired'
  AND dcl.navigation_id = fcp.navigation_id AND dcl.browser_upid = fcp.browser_upid
LEFT JOIN milestone AS onload
  ON onload.name = 'PageLoadMetrics.NavigationToMainFrameOnLoad'
  AND onload.navigation_id = fcp.navigation_id AND onload.browser_upid = fcp.browser_upid
LEFT JOIN milestone AS fully_loaded
  ON fully_loaded.name = 'PageLoadMetrics.UserTimingMarkFullyLoaded'
  AND fully_loaded.navigation_id = fcp.navigation_id
  AND fully_loaded.browser_upid = fcp.browser_upid
LEFT JOIN milestone AS fully_visible
  ON fully_visible.name = 'PageLoadMetrics.UserTimingMarkFullyVisible'
  AND fully_visible.navigation_id = fcp.navigation_id
  AND fully_visible.browser_upid = fcp.browser_upid
LEFT JOIN milestone AS interactive
  ON interactive.name = 'PageLoadMetrics.UserTimingMarkInteractive'
  AND interactive.navigation_id = fcp.navigation_id
  AND interactive.browser_upid = fcp.browser_upid;
