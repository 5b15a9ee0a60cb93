-- Callstack profiles: the stack_profile_* tables that callstacks are made of, and CPU profile
-- stack samples.

-- A mapping (binary, library or a placeholder for profilers without addresses) that frames
-- belong to.
CREATE PERFETTO VIEW stack_profile_mapping(
  -- Row id.
  id ID,
  build_id STRING,
  exact_offset LONG,
  start_offset LONG,
  start LONG,
  end LONG,
  load_bias LONG,
  name STRING
) AS
SELECT id, build_id, exact_offset, start_offset, start, "end", load_bias, name
FROM __intrinsic_stack_profile_mapping;

-- A location in a program: a function in a mapping.
CREATE PERFETTO VIEW stack_profile_frame(
  -- Row id.
  id ID,
  name STRING,
  mapping JOINID(stack_profile_mapping.id),
  rel_pc LONG,
  symbol_set_id LONG,
  deobfuscated_name STRING
) AS
SELECT id, name, mapping, rel_pc, symbol_set_id, deobfuscated_name
FROM __intrinsic_stack_profile_frame;

-- A callstack: a frame and the callsite it was called from.
CREATE PERFETTO VIEW stack_profile_callsite(
  -- Row id.
  id ID,
  depth LONG,
  parent_id JOINID(stack_profile_callsite.id),
  frame_id JOINID(stack_profile_frame.id)
) AS
SELECT id, depth, parent_id, frame_id FROM __intrinsic_stack_profile_callsite;

-- Symbol information of frames (function, source file, line).
CREATE PERFETTO VIEW stack_profile_symbol(
  -- Row id.
  id ID,
  symbol_set_id LONG,
  name STRING,
  source_file STRING,
  line_number LONG
) AS
SELECT id, symbol_set_id, name, source_file, line_number FROM __intrinsic_stack_profile_symbol;

-- Stack samples from CPU profiling.
CREATE PERFETTO VIEW cpu_profile_stack_sample(
  -- The id of the row.
  id ID,
  ts TIMESTAMP,
  callsite_id JOINID(stack_profile_callsite.id),
  utid JOINID(thread.id),
  process_priority LONG
) AS
SELECT id, ts, callsite_id, utid, process_priority FROM __intrinsic_cpu_profile_stack_sample;

-- Linux perf sampling sessions (traced_perf data sources): one per source of perf samples,
-- including sessions that recorded only counters.
CREATE PERFETTO VIEW perf_session(
  -- The id of the perf session. Prefer `perf_session_id`.
  id ID,
  -- The id of the perf session.
  perf_session_id LONG,
  cmdline STRING
) AS
SELECT id, id AS perf_session_id, cmdline FROM __intrinsic_perf_session;

-- Samples of Linux perf sampling (traced_perf): one row per sample, including samples of
-- counters only, without a callstack.
CREATE PERFETTO VIEW perf_sample(
  -- Unique identifier of the sample.
  id ID,
  ts TIMESTAMP,
  utid JOINID(thread.id),
  cpu LONG,
  -- Where the sampled thread was executing (kernel, user, hypervisor, guest_kernel,
  -- guest_user), or 'unknown'.
  cpu_mode STRING,
  callsite_id JOINID(stack_profile_callsite.id),
  unwind_error STRING,
  perf_session_id JOINID(perf_session.id)
) AS
SELECT
  id, ts, utid, cpu, COALESCE(cpu_mode, 'unknown') AS cpu_mode, callsite_id, unwind_error,
  perf_session_id
FROM __intrinsic_perf_sample;

-- The heap profiles (heapprofd dumps) of the trace: one row per (process, dump, heap), the
-- window of time the dump covers.
CREATE PERFETTO VIEW heap_profile(
  -- Row id.
  id ID,
  -- Start of the profiling window; equal to ts_end when the producer gave no start.
  ts TIMESTAMP,
  -- When the dump was taken: the ts of its allocations in heap_profile_allocation.
  ts_end TIMESTAMP,
  -- ts_end - ts.
  dur DURATION,
  -- The profiled process.
  upid JOINID(process.id),
  -- The heap dumped (libc.malloc, com.android.art, ...), NULL when the producer named none.
  heap_name STRING
) AS
SELECT id, ts, ts_end, dur, upid, heap_name FROM __intrinsic_heap_profile;

-- Allocations and frees at a callsite between two heapprofd dumps (not sorted by ts).
CREATE PERFETTO VIEW heap_profile_allocation(
  -- Row id.
  id ID,
  -- When the dump that reported them was taken (heap_profile.ts_end).
  ts TIMESTAMP,
  -- The allocating process.
  upid JOINID(process.id),
  -- The heap allocated from; 'unknown' when the producer named none.
  heap_name STRING,
  -- The callstack allocated at.
  callsite_id JOINID(stack_profile_callsite.id),
  -- > 0: allocations since the previous dump; < 0: how many of them were freed.
  count LONG,
  -- > 0: bytes allocated since the previous dump; < 0: bytes of them freed.
  size LONG
) AS
SELECT id, ts, upid, heap_name, callsite_id, count, size FROM __intrinsic_heap_profile_allocation;
