-- Power entity state residency (AndroidPowerConfig's entity_state_residency polling): how long
-- each power entity (a radio, a bus, a subsystem) has spent in each of its states.

-- One row per residency sample of an "Entity residency: <entity> is <state>" counter track
-- (type 'entity_state', values cumulative milliseconds in the state).
CREATE PERFETTO TABLE android_entity_state_residency(
  -- The sample (counter.id).
  id ID(counter.id),
  -- When the sample was taken (trace clock, ns).
  ts TIMESTAMP,
  -- Until the track's next sample, in ns; NULL for its last sample.
  dur DURATION,
  -- The power entity (Bluetooth, PCIe-Modem, ...).
  entity_name STRING,
  -- The entity's state (Idle, Active, UP, ...).
  state_name STRING,
  -- The track's name.
  raw_name STRING,
  -- Time spent in the state since boot at this sample, in ns.
  state_time_since_boot DURATION,
  -- Time spent in the state since boot at the track's next sample, in ns.
  state_time_since_boot_at_end DURATION,
  -- Share of the interval up to the next sample spent in the state (0..1); NULL at the end.
  state_time_ratio DOUBLE,
  -- The counter track (track.id).
  track_id JOINID(track.id)
) AS
WITH
  residency_tracks AS (
    SELECT
      id AS track_id,
      name AS raw_name,
      CASE WHEN name LIKE 'Entity residency: % is %' THEN instr(name, ' is ') END AS sep
    FROM counter_track
    WHERE type = 'entity_state'
  ),
  named AS (
    SELECT
      track_id,
      raw_name,
      CASE WHEN sep IS NOT NULL
        THEN substr(raw_name, length('Entity residency: ') + 1,
                    sep - length('Entity residency: ') - 1)
      END AS entity_name,
      CASE WHEN sep IS NOT NULL THEN substr(raw_name, sep + 4) END AS state_name
    FROM residency_tracks
  ),
  samples AS (
    SELECT
      c.id,
      c.ts,
      lead(c.ts) OVER w - c.ts AS dur,
      n.entity_name,
      n.state_name,
      n.raw_name,
      CAST(c.value * 1e6 AS INT) AS state_time_since_boot,
      CAST(lead(c.value) OVER w * 1e6 AS INT) AS state_time_since_boot_at_end,
      c.track_id
    FROM counter c
    JOIN named n USING (track_id)
    WINDOW w AS (PARTITION BY c.track_id ORDER BY c.ts)
  )
SELECT
  id, ts, dur, entity_name, state_name, raw_name, state_time_since_boot,
  state_time_since_boot_at_end,
  (state_time_since_boot_at_end - state_time_since_boot) * 1.0 / dur AS state_time_ratio,
  track_id
FROM samples;
