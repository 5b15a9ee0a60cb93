-- App launches on Android 10 to 12 (MetricsLogger slices).

INCLUDE PERFETTO MODULE android.startup.startup_events;

-- Each intent start opens a span that lasts until the next one (or the trace end).
CREATE PERFETTO TABLE _activity_intent_recv_spans AS
SELECT ts, LEAD(ts, 1, trace_end()) OVER (ORDER BY ts) - ts AS dur
FROM slice
WHERE name = 'MetricsLogger:launchObserverNotifyIntentStarted'
ORDER BY ts;

-- Spans that hold exactly one "launching:" slice.
CREATE PERFETTO VIEW _startup_partitions AS
SELECT *
FROM _activity_intent_recv_spans AS spans
WHERE (SELECT COUNT(1) FROM _startup_events AS e
       WHERE e.ts BETWEEN spans.ts AND spans.ts + spans.dur) = 1;

-- A launch runs from the intent to the end of its "launching:" slice, when the span also saw
-- launchObserverNotifyActivityLaunchFinished (the launch completed).
CREATE PERFETTO TABLE _startups_minsdk29 AS
SELECT
  p.ts,
  e.ts_end,
  e.ts_end - p.ts AS dur,
  e.package_name AS package,
  NULL AS startup_type
FROM _startup_partitions AS p
JOIN _startup_events AS e
  ON e.ts BETWEEN p.ts AND p.ts + p.dur AND e.ts_end BETWEEN p.ts AND p.ts + p.dur
WHERE EXISTS (
  SELECT 1 FROM slice AS done
  WHERE done.name = 'MetricsLogger:launchObserverNotifyActivityLaunchFinished'
    AND done.ts BETWEEN p.ts AND p.ts + p.dur)
ORDER BY p.ts;
