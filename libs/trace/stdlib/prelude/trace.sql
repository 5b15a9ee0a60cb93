-- The trace as a whole: its bounds, metadata, import stats, machines and clock snapshots.

-- The time the trace covers: from its first to its last timestamped event.
CREATE PERFETTO VIEW trace_bounds(
  -- The first event's timestamp (trace clock, ns).
  start_ts TIMESTAMP,
  -- The last event's timestamp (trace clock, ns).
  end_ts TIMESTAMP
) AS
SELECT trace_start() AS start_ts, trace_end() AS end_ts;

-- Facts about the trace as a whole, one row per key (several for multi-valued keys): trace
-- size, clocks, Android build, trace config, ...
CREATE PERFETTO VIEW metadata(
  -- Row id.
  id ID,
  name STRING,
  key_type STRING,
  int_value LONG,
  str_value STRING,
  machine_id JOINID(machine.id),
  trace_id LONG
) AS
SELECT id, name, key_type, int_value, str_value, machine_id, trace_id
FROM __intrinsic_metadata;

-- Counters of what happened while importing the trace: data the recorder lost, events the
-- importer could not use, errors. Check them before trusting a surprising result.
CREATE PERFETTO VIEW stats(
  -- Row id.
  id ID,
  name STRING,
  key LONG,
  idx LONG,
  severity STRING,
  source STRING,
  value LONG,
  description STRING,
  machine_id JOINID(machine.id),
  trace_id LONG
) AS
SELECT id, name, key, idx, severity, source, value, description, machine_id, trace_id
FROM __intrinsic_stats;

-- Problems met while importing that carry details beyond their stat's count, one row each:
-- the stat's name and severity, when and where it happened, and the details as args.
CREATE PERFETTO VIEW _trace_import_logs(
  -- Row id.
  id ID,
  -- The trace file the problem was in.
  trace_id LONG,
  -- When it happened, if known.
  ts TIMESTAMP,
  -- Where in the file it happened, if known.
  byte_offset LONG,
  -- The stat's severity: info, data_loss or error.
  severity STRING,
  -- The stat's name.
  name STRING,
  -- The details, as args.
  arg_set_id ARGSETID
) AS
SELECT l.id, l.trace_id, l.ts, l.byte_offset, s.severity, s.name, l.arg_set_id
FROM __intrinsic_trace_import_logs AS l
JOIN __intrinsic_stats AS s ON s.key = l.stat_key;

-- The machines whose data the trace holds: the host and any remote machine.
CREATE PERFETTO VIEW machine(
  -- Machine id (machine_id elsewhere); 0 is the host.
  id ID,
  raw_id LONG,
  name STRING,
  sysname STRING,
  release STRING,
  version STRING,
  arch STRING,
  num_cpus LONG,
  android_build_fingerprint STRING,
  android_device_manufacturer STRING,
  android_sdk_version LONG,
  system_ram_bytes LONG,
  system_ram_gb LONG,
  -- Numbers the non-host machines 1, 2, ... in id order; the host is 0.
  label_index LONG
) AS
SELECT
  id, raw_id, name, sysname, release, version, arch, num_cpus,
  android_build_fingerprint, android_device_manufacturer, android_sdk_version,
  system_ram_bytes, system_ram_gb,
  CASE WHEN raw_id = 0 THEN 0 ELSE SUM(raw_id != 0) OVER (ORDER BY id) END AS label_index
FROM __intrinsic_machine;

-- The clock snapshots the trace recorded: every clock's reading at one instant, which is how
-- timestamps convert between clocks.
CREATE PERFETTO VIEW clock_snapshot(
  -- Row id.
  id ID,
  ts TIMESTAMP,
  clock_id LONG,
  clock_name STRING,
  clock_value LONG,
  snapshot_id LONG,
  machine_id JOINID(machine.id)
) AS
SELECT id, ts, clock_id, clock_name, clock_value, snapshot_id, machine_id
FROM __intrinsic_clock_snapshot;
