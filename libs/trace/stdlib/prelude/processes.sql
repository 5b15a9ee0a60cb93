-- Processes and threads, with trace_processor's columns (upid / utid are their ids).

-- One row per process the trace saw. upid (= id) is unique over the whole trace; pids are
-- reused by the kernel.
CREATE PERFETTO VIEW process(
  -- The process's id in this trace (same as upid).
  id ID,
  -- The process's id in this trace: what other tables' upid columns point at.
  upid JOINID(process.id),
  pid LONG,
  name STRING,
  start_ts TIMESTAMP,
  end_ts TIMESTAMP,
  parent_upid JOINID(process.id),
  uid LONG,
  android_appid LONG,
  android_user_id LONG,
  cmdline STRING,
  arg_set_id ARGSETID,
  machine_id JOINID(machine.id)
) AS
SELECT
  id, id AS upid, pid, name, start_ts, end_ts, parent_upid, uid, android_appid,
  android_user_id, cmdline, arg_set_id, machine_id
FROM __intrinsic_process;

-- One row per thread the trace saw. utid (= id) is unique over the whole trace; tids are
-- reused by the kernel.
CREATE PERFETTO VIEW thread(
  -- The thread's id in this trace (same as utid).
  id ID,
  -- The thread's id in this trace: what other tables' utid columns point at.
  utid ID,
  tid LONG,
  name STRING,
  start_ts TIMESTAMP,
  end_ts TIMESTAMP,
  upid JOINID(process.id),
  is_main_thread BOOL,
  is_idle BOOL,
  machine_id JOINID(machine.id),
  arg_set_id ARGSETID
) AS
SELECT
  id, id AS utid, tid, name, start_ts, end_ts, upid, is_main_thread, is_idle, machine_id,
  arg_set_id
FROM __intrinsic_thread;
