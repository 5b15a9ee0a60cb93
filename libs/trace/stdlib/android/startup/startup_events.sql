-- System_server's "launching: <package>" async slices.

INCLUDE PERFETTO MODULE slices.with_context;

-- One row per "launching: <package>" slice that ActivityMetricsLogger opens in system_server
-- while an activity launches (or with no process, for traces without process data).
CREATE PERFETTO TABLE _startup_events AS
SELECT ts, dur, ts + dur AS ts_end, str_split(name, ': ', 1) AS package_name
FROM process_slice
WHERE name GLOB 'launching: *' AND (process_name IS NULL OR process_name = 'system_server');
