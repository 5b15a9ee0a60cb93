-- Each CPU's frequency as intervals of constant value.

INCLUDE PERFETTO MODULE counters.intervals;

-- One row per cpufreq sample: the frequency (kHz) a CPU ran at from ts for dur.
CREATE PERFETTO TABLE cpu_frequency_counters(
  -- The counter sample (counter.id).
  id LONG,
  -- The CPU's cpufreq track (counter_track.id).
  track_id JOINID(track.id),
  -- When the CPU started running at this frequency (trace clock, ns).
  ts TIMESTAMP,
  -- How long it stayed at it: until the next sample, or the trace's end.
  dur DURATION,
  -- The frequency, in kHz.
  freq LONG,
  -- The CPU's id (cpu.id).
  ucpu LONG,
  -- The CPU number.
  cpu LONG
) AS
SELECT
  iv.id,
  iv.track_id,
  iv.ts,
  iv.dur,
  cast_int!(iv.value) AS freq,
  c.ucpu,
  t.cpu
FROM counter_leading_intervals!((
  SELECT cn.id, cn.ts, cn.track_id, cn.value
  FROM counter AS cn
  JOIN cpu_counter_track AS ct ON ct.id = cn.track_id
  WHERE ct.name = 'cpufreq'
)) AS iv
JOIN cpu_counter_track AS t ON t.id = iv.track_id
JOIN cpu AS c ON c.cpu = t.cpu AND c.machine_id IS t.machine_id;
