-- Kernel threads: kthreadd (pid 2) and the threads it spawned.

-- One row per kernel thread. Kernel threads are processes of their own, so each has a process
-- row too.
CREATE PERFETTO TABLE linux_kernel_threads(
  -- The kernel thread's process (process.id).
  upid JOINID(process.id),
  -- The kernel thread (thread.id).
  utid JOINID(thread.id),
  -- Its pid.
  pid LONG,
  -- Its tid (the same number as the pid for kernel threads).
  tid LONG,
  -- Its process's name.
  process_name STRING,
  -- Its thread's name (kworker/0:1, ksoftirqd/3, ...).
  thread_name STRING,
  -- The machine it ran on (machine.id).
  machine_id JOINID(machine.id)
) AS
WITH kernel_processes AS (
  SELECT p.upid, p.pid, p.name, p.machine_id
  FROM process AS p
  WHERE p.pid = 2
     OR p.parent_upid IN (SELECT k.upid FROM process AS k WHERE k.pid = 2)
)
SELECT
  k.upid,
  t.utid,
  k.pid,
  t.tid,
  k.name AS process_name,
  t.name AS thread_name,
  k.machine_id
FROM kernel_processes AS k
JOIN thread AS t ON t.upid = k.upid
ORDER BY k.upid, t.utid;
