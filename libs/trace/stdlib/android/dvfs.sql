-- Frequency residency of the devfreq / DVFS domains (buses, DSU, memory
-- latency governors) reported as "<domain> Frequency" counters.

-- Each DVFS counter sample with how long the value held (until the next one or trace end).
CREATE PERFETTO VIEW android_dvfs_counters(
  -- The domain's counter name ('<domain> Frequency').
  name STRING,
  -- When the domain changed to this frequency (trace clock, ns).
  ts TIMESTAMP,
  -- The frequency.
  value DOUBLE,
  -- How long it held: until the next sample, or the trace's end.
  dur DURATION
) AS
SELECT
  t.name,
  c.ts,
  c.value,
  LEAD(c.ts, 1, trace_end()) OVER (PARTITION BY t.id ORDER BY c.ts) - c.ts AS dur
FROM counter AS c
JOIN counter_track AS t ON c.track_id = t.id
WHERE t.name IN (
  'domain@0 Frequency', 'domain@1 Frequency', 'domain@2 Frequency',
  '17000010.devfreq_mif Frequency', '17000020.devfreq_int Frequency',
  '17000090.devfreq_dsu Frequency', '170000a0.devfreq_bci Frequency',
  'dsu_throughput Frequency', 'bus_throughput Frequency',
  'cpu0dsu Frequency', 'cpu1dsu Frequency', 'cpu2dsu Frequency', 'cpu3dsu Frequency',
  'cpu4dsu Frequency', 'cpu5dsu Frequency', 'cpu6dsu Frequency', 'cpu7dsu Frequency',
  'cpu8dsu Frequency',
  'gs_memlat_devfreq:devfreq_mif_cpu0_memlat@17000010 Frequency',
  'gs_memlat_devfreq:devfreq_mif_cpu1_memlat@17000010 Frequency',
  'gs_memlat_devfreq:devfreq_mif_cpu2_memlat@17000010 Frequency',
  'gs_memlat_devfreq:devfreq_mif_cpu3_memlat@17000010 Frequency',
  'gs_memlat_devfreq:devfreq_mif_cpu4_memlat@17000010 Frequency',
  'gs_memlat_devfreq:devfreq_mif_cpu5_memlat@17000010 Frequency',
  'gs_memlat_devfreq:devfreq_mif_cpu6_memlat@17000010 Frequency',
  'gs_memlat_devfreq:devfreq_mif_cpu7_memlat@17000010 Frequency',
  'gs_memlat_devfreq:devfreq_mif_cpu8_memlat@17000010 Frequency')
ORDER BY c.ts;

-- Per domain: highest, lowest and time-weighted average frequency, and the span covered.
CREATE PERFETTO TABLE android_dvfs_counter_stats(
  -- The domain's counter name.
  name STRING,
  -- The highest frequency seen.
  max DOUBLE,
  -- The lowest frequency seen.
  min DOUBLE,
  -- From the first to the last sample, in ns.
  dur DURATION,
  -- The time-weighted average frequency.
  wgt_avg DOUBLE
) AS
SELECT
  name, MAX(value) AS max, MIN(value) AS min, MAX(ts) - MIN(ts) AS dur,
  SUM(dur * value) / SUM(dur) AS wgt_avg
FROM android_dvfs_counters
WHERE dur > 0
GROUP BY name;

-- Per domain and frequency: time spent there and its share of the domain's time.
CREATE PERFETTO VIEW android_dvfs_counter_residency(
  -- The domain's counter name.
  name STRING,
  -- A frequency.
  value DOUBLE,
  -- Time spent at it, in ns.
  dur DURATION,
  -- Its share of the domain's time, in percent.
  pct DOUBLE
) AS
WITH total AS (
  SELECT name, SUM(dur) AS dur FROM android_dvfs_counters WHERE dur > 0 GROUP BY name
)
SELECT c.name, c.value, SUM(c.dur) AS dur, SUM(c.dur) * 100.0 / total.dur AS pct
FROM android_dvfs_counters AS c
JOIN total USING (name)
WHERE c.dur > 0
GROUP BY 1, 2;
