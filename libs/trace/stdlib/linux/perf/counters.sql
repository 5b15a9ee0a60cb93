-- Linux perf sampling with counters: each traced_perf sample joined to the counter values it
-- read (the sampling timebase and every follower counter), so a query can ask what a counter
-- read at a sample, or how two counters relate across samples (instructions per cycle, ...).

-- The value counter `counter_name` read at perf sample `sample_id`.
CREATE PERFETTO FUNCTION linux_perf_counter_for_sample(
  -- The perf sample (perf_sample.id).
  sample_id JOINID(perf_sample.id),
  -- The counter's name as perf names it ('cpu-clock', 'instructions', ...).
  counter_name STRING
)
-- The value it read; NULL when the sample read no counter of that name.
RETURNS DOUBLE AS
SELECT c.value
FROM __intrinsic_perf_sample_counter AS sc
JOIN counter AS c ON c.id = sc.counter_id
JOIN track AS t ON t.id = c.track_id
WHERE sc.sample_id = $sample_id AND t.name = $counter_name;

-- Every perf sample with each counter value it read: one row per (sample, counter), so a
-- sample of a timebase and two followers has three rows. On long traces this is large; filter
-- it by sample, time or counter.
CREATE PERFETTO VIEW linux_perf_sample_with_counters(
  -- The sample (perf_sample.id).
  sample_id JOINID(perf_sample.id),
  -- When the sample was taken.
  ts TIMESTAMP,
  -- The sampled thread.
  utid JOINID(thread.id),
  -- The cpu the sampled thread was running on.
  cpu LONG,
  -- Where the thread was executing (kernel, user, ...), or 'unknown'.
  cpu_mode STRING,
  -- The sampled thread's unwound callstack, if recorded.
  callsite_id JOINID(stack_profile_callsite.id),
  -- Why unwinding stopped early, if it did.
  unwind_error STRING,
  -- The perf session.
  perf_session_id JOINID(perf_session.id),
  -- The counter value's row in `counter`.
  counter_id JOINID(counter.id),
  -- The counter's track: its name is the counter's name.
  track_id JOINID(track.id),
  -- The value the counter read at this sample.
  counter_value DOUBLE
) AS
SELECT
  s.id AS sample_id,
  s.ts,
  s.utid,
  s.cpu,
  s.cpu_mode,
  s.callsite_id,
  s.unwind_error,
  s.perf_session_id,
  sc.counter_id,
  c.track_id,
  c.value AS counter_value
FROM perf_sample AS s
JOIN __intrinsic_perf_sample_counter AS sc ON sc.sample_id = s.id
JOIN counter AS c ON c.id = sc.counter_id;
