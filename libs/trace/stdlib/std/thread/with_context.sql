-- Every thread with its process's identity, ready for one INNER JOIN.

-- One row per thread, carrying its process (NULL columns when the thread has none). A table,
-- so views built on it join with INNER JOINs that SQLite may reorder freely.
CREATE PERFETTO TABLE _thread_with_process(
  utid JOINID(thread.id), tid LONG, thread_name STRING, is_main_thread BOOL,
  upid JOINID(process.id), pid LONG, process_name STRING
) AS
SELECT
  t.utid,
  t.tid,
  t.name AS thread_name,
  t.is_main_thread,
  p.upid,
  p.pid,
  p.name AS process_name
FROM thread AS t
LEFT JOIN process AS p ON p.upid = t.upid
ORDER BY t.utid;
