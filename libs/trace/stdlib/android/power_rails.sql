-- Power rails (ODPM, the on-device power monitor of Pixel phones): the energy each rail has
-- used since boot, sampled as counters of type power_rails, turned into average power between
-- samples, and what each rail is.

INCLUDE PERFETTO MODULE counters.intervals;

-- One row per energy sample of a power rail, lasting until the rail's next sample.
CREATE PERFETTO TABLE android_power_rails_counters(
  -- The sample (counter.id).
  id ID(counter.id),
  -- When it was measured (trace clock, ns).
  ts TIMESTAMP,
  -- Time to the rail's next sample, in ns (to the trace's end for the last).
  dur DURATION,
  -- The rail's track name ("power.rails.gpu", or "power.<raw name>_uws").
  power_rail_name STRING,
  -- The rail's name as the hardware reports it ("S2S_VDD_G3D").
  raw_power_rail_name STRING,
  -- Energy the rail used since boot, in microwatt-seconds (microjoules).
  energy_since_boot DOUBLE,
  -- The same at the next sample (NULL for the last).
  energy_since_boot_at_end DOUBLE,
  -- Average power from ts to the next sample, in mW.
  average_power DOUBLE,
  -- Energy used since the previous sample, in microjoules (NULL for the first).
  energy_delta DOUBLE,
  -- The rail's counter track (track.id).
  track_id JOINID(track.id),
  -- Deprecated: energy_since_boot.
  value DOUBLE
) AS
SELECT
  c.id,
  c.ts,
  c.dur,
  t.name AS power_rail_name,
  EXTRACT_ARG(t.source_arg_set_id, 'raw_name') AS raw_power_rail_name,
  c.value AS energy_since_boot,
  c.next_value AS energy_since_boot_at_end,
  1e6 * ((c.next_value - c.value) / c.dur) AS average_power,
  c.delta_value AS energy_delta,
  c.track_id,
  c.value
FROM counter_leading_intervals!((
  SELECT c.id, c.ts, c.track_id, c.value
  FROM counter AS c
  JOIN counter_track AS t ON t.id = c.track_id
  WHERE t.type = 'power_rails'
)) AS c
JOIN counter_track AS t ON t.id = c.track_id;

-- One row per power rail: its names and the subsystem it powers.
CREATE PERFETTO TABLE android_power_rails_metadata(
  -- The rail's track name ("power.rails.gpu", or "power.<raw name>_uws").
  power_rail_name STRING,
  -- The rail's name as the hardware reports it ("S2S_VDD_G3D").
  raw_power_rail_name STRING,
  -- The readable part of a "power.rails.<name>" track name ("gpu"); NULL for other names.
  friendly_name STRING,
  -- The rail's counter track (track.id).
  track_id JOINID(track.id),
  -- The subsystem the rail powers, as the hardware reports it ("gpu", "cpu", ...).
  subsystem_name STRING,
  -- The device the rail belongs to (machine.id).
  machine_id JOINID(machine.id)
) AS
SELECT
  t.name AS power_rail_name,
  EXTRACT_ARG(t.source_arg_set_id, 'raw_name') AS raw_power_rail_name,
  IIF(t.name GLOB 'power.rails.*', SUBSTR(t.name, LENGTH('power.rails.') + 1), NULL)
    AS friendly_name,
  t.id AS track_id,
  EXTRACT_ARG(t.source_arg_set_id, 'subsystem_name') AS subsystem_name,
  t.machine_id
FROM counter_track AS t
WHERE t.type = 'power_rails';
