-- App launches on Android 13+ (launchingActivity# slices).

-- The "launchingActivity#<id>" async slice spans launch <id>.
CREATE PERFETTO VIEW _startup_async_events AS
SELECT ts, dur, cast_int!(substr(name, 19)) AS startup_id
FROM slice
WHERE name GLOB 'launchingActivity#*' AND dur > 0 AND instr(name, ':') = 0;

-- "launchingActivity#<id>:completed-<type>:<package>" instants give the type and package
-- (the same-process variant is not a launch of its own).
CREATE PERFETTO VIEW _startup_complete_events AS
SELECT
  cast_int!(str_split(completed, ':', 0)) AS startup_id,
  str_split(completed, ':', 2) AS package_name,
  CASE str_split(completed, ':', 1)
    WHEN 'completed-hot' THEN 'hot'
    WHEN 'completed-warm' THEN 'warm'
    WHEN 'completed-cold' THEN 'cold'
    ELSE NULL
  END AS startup_type,
  MIN(ts) AS ts
FROM (
  SELECT ts, substr(name, 19) AS completed
  FROM slice
  WHERE dur = 0 AND name GLOB 'launchingActivity#*:completed*:*'
    AND NOT name GLOB '*:completed-same-process:*'
)
GROUP BY 1, 2, 3;

CREATE PERFETTO TABLE _startups_minsdk33 AS
SELECT a.startup_id, a.ts, a.ts + a.dur AS ts_end, a.dur, c.package_name AS package,
       c.startup_type
FROM _startup_async_events AS a
JOIN _startup_complete_events AS c USING (startup_id);
