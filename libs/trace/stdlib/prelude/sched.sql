-- CPUs and scheduling: what ran where (sched) and what state each thread was in
-- (thread_state).

-- One row per CPU of the trace's machines.
CREATE PERFETTO VIEW cpu(
  -- The CPU's id in this trace (same as ucpu).
  id ID,
  -- The CPU's id in this trace, unique across machines: what ucpu columns point at.
  ucpu ID,
  cpu LONG,
  cluster_id LONG,
  processor STRING,
  machine_id JOINID(machine.id),
  capacity LONG,
  arg_set_id ARGSETID
) AS
SELECT id, id AS ucpu, cpu, cluster_id, processor, machine_id, capacity, arg_set_id
FROM __intrinsic_cpu
WHERE cpu IS NOT NULL;

-- The frequencies each CPU can run at, one row per (CPU, frequency).
CREATE PERFETTO VIEW cpu_available_frequencies(
  -- Row id.
  id ID,
  -- The CPU number.
  cpu LONG,
  freq LONG,
  ucpu LONG
) AS
SELECT id, ucpu AS cpu, freq, ucpu
FROM __intrinsic_cpu_freq;

-- One row per stretch of a thread running on a CPU (from sched_switch): each CPU's rows tile
-- its timeline, the idle task (utid 0) filling the gaps. Same rows as sched_slice, plus ts_end.
CREATE PERFETTO VIEW sched(
  -- Row id.
  id ID,
  ts TIMESTAMP,
  dur DURATION,
  -- The CPU number it ran on.
  cpu LONG,
  utid JOINID(thread.id),
  end_state STRING,
  priority LONG,
  ucpu LONG,
  -- When it stopped running: ts + dur.
  ts_end LONG
) AS
SELECT id, ts, dur, ucpu AS cpu, utid, end_state, priority, ucpu, ts + dur AS ts_end
FROM __intrinsic_sched_slice;

-- One row per stretch of a thread running on a CPU (from sched_switch): each CPU's rows tile
-- its timeline, the idle task (utid 0) filling the gaps.
CREATE PERFETTO VIEW sched_slice(
  -- Row id.
  id ID,
  ts TIMESTAMP,
  dur DURATION,
  -- The CPU number it ran on.
  cpu LONG,
  utid JOINID(thread.id),
  end_state STRING,
  priority LONG,
  ucpu LONG
) AS
SELECT id, ts, dur, ucpu AS cpu, utid, end_state, priority, ucpu
FROM __intrinsic_sched_slice;

-- One row per stretch of a thread in one scheduling state: Running, R (runnable, waiting for
-- a CPU), R+ (preempted), S (sleeping), D (uninterruptible, often I/O), ... A thread's rows
-- tile its timeline from the first event the trace has about it.
CREATE PERFETTO VIEW thread_state(
  -- Row id.
  id ID,
  ts TIMESTAMP,
  dur DURATION,
  -- The CPU number: where it ran (Running) or was woken to (R); NULL otherwise.
  cpu LONG,
  utid JOINID(thread.id),
  state STRING,
  io_wait LONG,
  blocked_function STRING,
  waker_utid JOINID(thread.id),
  waker_id JOINID(thread_state.id),
  irq_context LONG,
  ucpu JOINID(cpu.id)
) AS
SELECT
  id, ts, dur, ucpu AS cpu, utid, state, io_wait, blocked_function, waker_utid, waker_id,
  irq_context, ucpu
FROM __intrinsic_thread_state;
