-- The battery_stats.* state counters and +/- event markers that
-- system_server's BatteryStats history writes to atrace, as states and event spans.

-- The readable names of BatteryStats' enumerated states, keyed by (counter name, value).
-- Counters not listed here read as their number.
CREATE PERFETTO TABLE _android_battery_stats_state_names(
  track STRING, value LONG, name STRING
) AS
WITH
  on_off_tracks(track) AS (
    VALUES ('battery_stats.wifi_scan'), ('battery_stats.wifi_radio'),
           ('battery_stats.mobile_radio'), ('battery_stats.audio'), ('battery_stats.video'),
           ('battery_stats.camera'), ('battery_stats.power_save'),
           ('battery_stats.phone_in_call')
  ),
  signal_tracks(track) AS (
    VALUES ('battery_stats.phone_signal_strength'), ('battery_stats.wifi_signal_strength')
  ),
  signal_levels(value) AS (VALUES (0), (1), (2), (3), (4)),
  named(track, value, name) AS (
    SELECT track, 0, 'inactive' FROM on_off_tracks
    UNION ALL SELECT track, 1, 'active' FROM on_off_tracks
    UNION ALL SELECT track, value, value || '/4' FROM signal_tracks, signal_levels
    UNION ALL VALUES ('battery_stats.wifi', 0, 'off'), ('battery_stats.wifi', 1, 'on')
    UNION ALL VALUES
      ('battery_stats.phone_state', 0, 'in'), ('battery_stats.phone_state', 1, 'out'),
      ('battery_stats.phone_state', 2, 'emergency'), ('battery_stats.phone_state', 3, 'off')
    UNION ALL VALUES
      ('battery_stats.wifi_suppl', 0, 'invalid'),
      ('battery_stats.wifi_suppl', 1, 'disconnected'),
      ('battery_stats.wifi_suppl', 2, 'disabled'),
      ('battery_stats.wifi_suppl', 3, 'inactive'),
      ('battery_stats.wifi_suppl', 4, 'scanning'),
      ('battery_stats.wifi_suppl', 5, 'authenticating'),
      ('battery_stats.wifi_suppl', 6, 'associating'),
      ('battery_stats.wifi_suppl', 7, 'associated'),
      ('battery_stats.wifi_suppl', 8, '4-way-handshake'),
      ('battery_stats.wifi_suppl', 9, 'group-handshake'),
      ('battery_stats.wifi_suppl', 10, 'completed'),
      ('battery_stats.wifi_suppl', 11, 'dormant'),
      ('battery_stats.wifi_suppl', 12, 'uninitialized')
    UNION ALL VALUES
      ('battery_stats.data_conn', 0, 'Out of service'),
      ('battery_stats.data_conn', 1, '2.5G (GPRS)'),
      ('battery_stats.data_conn', 2, '2.7G (EDGE)'),
      ('battery_stats.data_conn', 3, '3G (UMTS)'),
      ('battery_stats.data_conn', 4, '3G (CDMA)'),
      ('battery_stats.data_conn', 5, '3G (EVDO Rel 0)'),
      ('battery_stats.data_conn', 6, '3G (EVDO Rev A)'),
      ('battery_stats.data_conn', 7, '3G (LXRTT)'),
      ('battery_stats.data_conn', 8, '3.5G (HSDPA)'),
      ('battery_stats.data_conn', 9, '3.5G (HSUPA)'),
      ('battery_stats.data_conn', 10, '3.5G (HSPA)'),
      ('battery_stats.data_conn', 11, '2G (IDEN)'),
      ('battery_stats.data_conn', 12, '3G (EVDO Rev B)'),
      ('battery_stats.data_conn', 13, '4G (LTE)'),
      ('battery_stats.data_conn', 14, '3.5G (eHRPD)'),
      ('battery_stats.data_conn', 15, '3.7G (HSPA+)'),
      ('battery_stats.data_conn', 16, '2G (GSM)'),
      ('battery_stats.data_conn', 17, '3G (TD SCDMA)'),
      ('battery_stats.data_conn', 18, 'Wifi calling (IWLAN)'),
      ('battery_stats.data_conn', 19, '4.5G (LTE CA)'),
      ('battery_stats.data_conn', 20, '5G (NR)'),
      ('battery_stats.data_conn', 21, 'Emergency calls only'),
      ('battery_stats.data_conn', 22, 'Other')
  )
SELECT track, value, name FROM named;

-- The readable form of a battery_stats counter value: the state's name for the enumerated
-- counters ("unknown" for a value outside the enumeration), else the number as text.
CREATE PERFETTO FUNCTION android_battery_stats_counter_to_string(
  -- The battery_stats track's name (battery_stats.audio, ...).
  track STRING,
  -- A value of that track.
  value DOUBLE
)
RETURNS STRING AS
SELECT CASE
  WHEN NOT EXISTS (SELECT 1 FROM _android_battery_stats_state_names WHERE track = $track)
    THEN cast_string!($value)
  ELSE coalesce(
    (SELECT name FROM _android_battery_stats_state_names
     WHERE track = $track AND value = $value),
    'unknown')
END;

-- One row per battery_stats counter sample: the state it entered and how long it held. dur is
-- -1 for the last state of a counter (still held at trace end); safe_dur runs to trace end.
CREATE PERFETTO VIEW android_battery_stats_state(
  -- When the state began (trace clock, ns).
  ts TIMESTAMP,
  -- How long it held, in ns; -1 for the last state of a track.
  dur DURATION,
  -- dur, with the last state running to the trace's end instead of -1.
  safe_dur DURATION,
  -- The battery_stats track (battery_stats.screen_on, battery_stats.plugged, ...).
  track_name STRING,
  -- The raw value.
  value LONG,
  -- The value as a readable string (e.g. "on", "charging").
  value_name STRING
) AS
SELECT
  c.ts,
  coalesce(LEAD(c.ts) OVER (PARTITION BY t.name ORDER BY c.ts) - c.ts, -1) AS dur,
  LEAD(c.ts, 1, trace_end()) OVER (PARTITION BY t.name ORDER BY c.ts) - c.ts AS safe_dur,
  t.name AS track_name,
  cast_int!(c.value) AS value,
  android_battery_stats_counter_to_string(t.name, c.value) AS value_name
FROM counter AS c
JOIN counter_track AS t ON c.track_id = t.id
WHERE t.name GLOB 'battery_stats.*';

-- One row per battery_stats event span ("+job=456:\"mail_job\"" opens, "-job=..." closes).
-- A close without an earlier open started before the trace: it spans from trace start. An
-- open never closed has dur -1 and safe_dur to trace end. str_value is the quoted name,
-- int_value the uid before the colon.
CREATE PERFETTO VIEW android_battery_stats_event_slices(
  -- When the event began (trace clock, ns).
  ts TIMESTAMP,
  -- How long it lasted, in ns; -1 when it never ended.
  dur DURATION,
  -- dur, with an unended event running to the trace's end instead of -1.
  safe_dur DURATION,
  -- The battery_stats event track (battery_stats.top, battery_stats.job, ...).
  track_name STRING,
  -- What the event is about (e.g. the package or job name).
  str_value STRING,
  -- The uid the event is about.
  int_value LONG
) AS
WITH
  markers AS (
    SELECT
      s.ts,
      t.name AS track_name,
      str_split(s.name, '=', 1) AS key,
      substr(s.name, 1, 1) = '+' AS is_open
    FROM slice AS s
    JOIN track AS t ON s.track_id = t.id
    WHERE t.name GLOB 'battery_stats.*' AND substr(s.name, 1, 1) IN ('+', '-')
  ),
  ordered AS (
    SELECT
      *,
      LAG(ts) OVER (PARTITION BY track_name, key ORDER BY ts) AS prev_ts,
      LEAD(ts) OVER (PARTITION BY track_name, key ORDER BY ts) AS next_ts
    FROM markers
  ),
  spans AS (
    SELECT
      track_name,
      key,
      IIF(is_open, ts, trace_start()) AS ts,
      IIF(is_open, next_ts, ts) AS end_ts
    FROM ordered
    WHERE is_open OR prev_ts IS NULL
  )
SELECT
  ts,
  coalesce(end_ts - ts, -1) AS dur,
  coalesce(end_ts, trace_end()) - ts AS safe_dur,
  track_name,
  str_split(key, '"', 1) AS str_value,
  cast_int!(str_split(key, ':', 0)) AS int_value
FROM spans;
