-- How long each running interval waited as runnable before it (scheduling latency).

INCLUDE PERFETTO MODULE sched.runnable;

-- The thread_state row matching each sched row (same thread, start and duration).
CREATE PERFETTO VIEW _sched_with_thread_state_join(
  thread_state_id JOINID(thread_state.id), sched_id JOINID(sched.id)
) AS
SELECT st.id AS thread_state_id, sc.id AS sched_id
FROM sched AS sc
JOIN thread_state AS st ON st.utid = sc.utid AND st.ts = sc.ts AND st.dur = sc.dur;

-- For each running interval: its thread_state and sched rows, the thread, the runnable state
-- just before it and that state's duration (the scheduling latency).
CREATE PERFETTO VIEW sched_latency_for_running_interval(
  -- The Running state (thread_state.id).
  thread_state_id JOINID(thread_state.id),
  -- The same interval in sched (sched.id).
  sched_id JOINID(sched.id),
  -- The thread (thread.id).
  utid JOINID(thread.id),
  -- The runnable state that preceded it (thread_state.id).
  runnable_latency_id JOINID(thread_state.id),
  -- How long the thread waited for a CPU: that runnable state's duration, in ns.
  latency_dur LONG
) AS
-- sched_previous_runnable_on_thread joined with thread_state (the runnable state) and
-- _sched_with_thread_state_join (the sched row), in one C++ pass (query/sched_latency_table.h)
-- filled when first used: the join took ~190 ms of CPU on a 1 M-event trace.
SELECT thread_state_id, sched_id, utid, runnable_latency_id, latency_dur
FROM __intrinsic_sched_latency;
