-- Binder transactions paired client↔server (android_binder_txns), with the
-- client/server threads, timings, AIDL method, oom scores and per-txn thread-state breakdowns.

INCLUDE PERFETTO MODULE android.process_metadata;
INCLUDE PERFETTO MODULE android.suspend;

-- How many binder slices each process's threads have, per slice name.
CREATE PERFETTO VIEW android_binder_metrics_by_process(
  -- The process.
  process_name STRING,
  -- Its pid.
  pid LONG,
  -- A binder slice name (binder transaction, binder reply, ...).
  slice_name STRING,
  -- How many such slices the process has.
  event_count LONG
) AS
SELECT p.name AS process_name, p.pid, s.name AS slice_name, COUNT(*) AS event_count
FROM slice AS s
JOIN thread_track AS tt ON s.track_id = tt.id
JOIN thread AS t USING (utid)
JOIN process AS p ON p.upid = t.upid
WHERE s.name GLOB 'binder*'
GROUP BY process_name, slice_name;

-- A binder slice with its thread and process.
CREATE PERFETTO VIEW _binder_slice_with_thread AS
SELECT
  s.id, s.ts, s.dur, s.name, s.track_id,
  t.utid, t.tid, t.name AS thread_name, t.is_main_thread,
  p.upid, p.pid, p.name AS process_name
FROM slice AS s
JOIN thread_track AS tt ON s.track_id = tt.id
JOIN thread AS t USING (utid)
LEFT JOIN process AS p ON p.upid = t.upid
WHERE s.name IN ('binder transaction', 'binder reply', 'binder transaction async',
                 'binder async rcv');

-- Synchronous transactions: the client's "binder transaction" joined through its flow to the
-- server's "binder reply". A transaction that has children but no flow of its own was never
-- answered (its slice stayed open over later work) and is left out; so are unfinished slices
-- and replies longer than their transaction. aidl_name is the server's AIDL/HIDL slice inside
-- the reply.
CREATE PERFETTO TABLE _binder_txn_merged AS
WITH
  txn AS MATERIALIZED (
    SELECT * FROM _binder_slice_with_thread WHERE name = 'binder transaction'
  ),
  unanswered AS (
    SELECT txn.id FROM txn
    WHERE EXISTS (SELECT 1 FROM slice AS c WHERE c.parent_id = txn.id)
      AND NOT EXISTS (SELECT 1 FROM flow AS f WHERE f.slice_out = txn.id)
  ),
  paired AS (
    SELECT
      txn.*,
      r.id AS reply_id, r.ts AS reply_ts, r.dur AS reply_dur, r.utid AS reply_utid,
      r.tid AS reply_tid, r.thread_name AS reply_thread, r.upid AS reply_upid,
      r.pid AS reply_pid, r.process_name AS reply_process
    FROM txn
    JOIN flow AS f ON f.slice_out = txn.id
    JOIN _binder_slice_with_thread AS r ON r.id = f.slice_in AND r.name = 'binder reply'
    WHERE txn.id NOT IN (SELECT id FROM unanswered)
  )
SELECT
  (SELECT MIN(a.name) FROM slice AS a
   WHERE a.parent_id = p.reply_id
     AND (a.name GLOB 'AIDL::*Server' OR a.name GLOB 'AIDL::*server'
          OR a.name GLOB 'HIDL::*server')) AS aidl_name,
  (SELECT a.ts FROM slice AS a
   WHERE a.parent_id = p.reply_id
     AND (a.name GLOB 'AIDL::*Server' OR a.name GLOB 'AIDL::*server'
          OR a.name GLOB 'HIDL::*server')
   ORDER BY a.name LIMIT 1) AS aidl_ts,
  (SELECT a.dur FROM slice AS a
   WHERE a.parent_id = p.reply_id
     AND (a.name GLOB 'AIDL::*Server' OR a.name GLOB 'AIDL::*server'
          OR a.name GLOB 'HIDL::*server')
   ORDER BY a.name LIMIT 1) AS aidl_dur,
  p.id AS binder_txn_id,
  p.process_name AS client_process,
  p.thread_name AS client_thread,
  p.upid AS client_upid,
  p.utid AS client_utid,
  p.tid AS client_tid,
  p.pid AS client_pid,
  p.is_main_thread,
  p.ts AS client_ts,
  p.dur AS client_dur,
  p.reply_id AS binder_reply_id,
  p.reply_process AS server_process,
  p.reply_thread AS server_thread,
  p.reply_upid AS server_upid,
  p.reply_utid AS server_utid,
  p.reply_tid AS server_tid,
  p.reply_pid AS server_pid,
  p.reply_ts AS server_ts,
  p.reply_dur AS server_dur
FROM paired AS p
WHERE p.dur != -1 AND p.reply_dur != -1 AND p.dur >= p.reply_dur
ORDER BY binder_txn_id;

-- oom_score_adj of each process as intervals [ts, end_ts).
CREATE PERFETTO TABLE _oom_score AS
SELECT
  t.upid,
  cast_int!(c.value) AS value,
  c.ts,
  COALESCE(LEAD(c.ts) OVER (PARTITION BY t.upid ORDER BY c.ts), trace_end()) AS end_ts
FROM counter AS c
JOIN process_counter_track AS t ON c.track_id = t.id
WHERE t.name = 'oom_score_adj';

CREATE PERFETTO VIEW _sync_binder_metrics_by_txn AS
SELECT
  b.*,
  (SELECT o.value FROM _oom_score AS o
   WHERE o.upid = b.client_upid AND b.client_ts BETWEEN o.ts AND o.end_ts
   ORDER BY o.ts LIMIT 1) AS client_oom_score,
  (SELECT o.value FROM _oom_score AS o
   WHERE o.upid = b.server_upid AND b.server_ts BETWEEN o.ts AND o.end_ts
   ORDER BY o.ts LIMIT 1) AS server_oom_score
FROM _binder_txn_merged AS b;

-- Oneway transactions: "binder transaction async" joined through its flow to the receiver's
-- "binder async rcv". The next AIDL/HIDL server slice on the receiving thread, if it comes
-- before the next receipt, names the method.
-- Receipts and the AIDL/HIDL server slices that may follow them, with what follows each on its
-- track. A table of its own: as a CTE of the join below, SQLite took ~5x longer.
CREATE PERFETTO TABLE _binder_async_server_side AS
SELECT
  id, ts, dur, track_id, name,
  LEAD(name) OVER (PARTITION BY track_id ORDER BY ts) AS next_name,
  LEAD(ts) OVER (PARTITION BY track_id ORDER BY ts) AS next_ts,
  LEAD(dur) OVER (PARTITION BY track_id ORDER BY ts) AS next_dur
FROM slice
WHERE name = 'binder async rcv' OR name GLOB 'AIDL::*Server' OR name GLOB 'AIDL::*server'
  OR name GLOB 'HIDL::*server';

CREATE PERFETTO TABLE _binder_async_txn AS
SELECT
  IIF(r.next_name = 'binder async rcv', NULL, r.next_name) AS aidl_name,
  IIF(r.next_name = 'binder async rcv', NULL, r.next_ts) AS aidl_ts,
  IIF(r.next_name = 'binder async rcv', NULL, r.next_dur) AS aidl_dur,
  c.id AS binder_txn_id,
  cp.name AS client_process,
  ct.name AS client_thread,
  ct.upid AS client_upid,
  ct.utid AS client_utid,
  ct.tid AS client_tid,
  cp.pid AS client_pid,
  ct.is_main_thread,
  c.ts AS client_ts,
  c.dur AS client_dur,
  r.id AS binder_reply_id,
  rp.name AS server_process,
  rth.name AS server_thread,
  rth.upid AS server_upid,
  rth.utid AS server_utid,
  rth.tid AS server_tid,
  rp.pid AS server_pid,
  r.ts AS server_ts,
  r.dur AS server_dur
-- From the (few) receipts outwards, each side's thread and process by id, in this order: left
-- to the planner (or through the _binder_slice_with_thread view) it picked loops over every
-- thread track or flow per receipt.
FROM _binder_async_server_side AS r
CROSS JOIN flow AS f ON f.slice_in = r.id
CROSS JOIN slice AS c ON c.id = f.slice_out
CROSS JOIN thread_track AS ctt ON ctt.id = c.track_id
CROSS JOIN thread AS ct ON ct.utid = ctt.utid
LEFT JOIN process AS cp ON cp.upid = ct.upid
CROSS JOIN slice AS rs ON rs.id = r.id
CROSS JOIN thread_track AS rtt ON rtt.id = rs.track_id
CROSS JOIN thread AS rth ON rth.utid = rtt.utid
LEFT JOIN process AS rp ON rp.upid = rth.upid
WHERE r.name = 'binder async rcv' AND c.name = 'binder transaction async'
ORDER BY binder_txn_id;

CREATE PERFETTO VIEW _async_binder_metrics_by_txn AS
SELECT
  b.*,
  (SELECT o.value FROM _oom_score AS o
   WHERE o.upid = b.client_upid AND b.client_ts BETWEEN o.ts AND o.end_ts
   ORDER BY o.ts LIMIT 1) AS client_oom_score,
  (SELECT o.value FROM _oom_score AS o
   WHERE o.upid = b.server_upid AND b.server_ts BETWEEN o.ts AND o.end_ts
   ORDER BY o.ts LIMIT 1) AS server_oom_score
FROM _binder_async_txn AS b;

-- Every binder transaction with both ends: one row per transaction (sync or oneway).
-- interface / method_name split an AIDL name "AIDL::java::IFoo::bar::server"; the monotonic
-- durations leave out time the device was suspended.
CREATE PERFETTO TABLE android_binder_txns(
  -- The AIDL method slice's name (AIDL::java::IFoo::bar::server), if any.
  aidl_name STRING,
  -- The AIDL interface.
  interface STRING,
  -- The AIDL method.
  method_name STRING,
  -- When the AIDL slice began (trace clock, ns).
  aidl_ts TIMESTAMP,
  -- How long it lasted, in ns.
  aidl_dur DURATION,
  -- The client's "binder transaction" slice (slice.id).
  binder_txn_id JOINID(slice.id),
  -- The calling process's name.
  client_process STRING,
  -- The calling thread's name.
  client_thread STRING,
  -- The calling process (process.id).
  client_upid JOINID(process.id),
  -- The calling thread (thread.id).
  client_utid JOINID(thread.id),
  -- The calling thread's tid.
  client_tid LONG,
  -- The calling process's pid.
  client_pid LONG,
  -- 1 when the call came from the client's main thread.
  is_main_thread BOOL,
  -- When the client's transaction began (trace clock, ns).
  client_ts TIMESTAMP,
  -- How long the client waited, in ns.
  client_dur DURATION,
  -- The server's "binder reply" slice (slice.id).
  binder_reply_id JOINID(slice.id),
  -- The serving process's name.
  server_process STRING,
  -- The serving thread's name.
  server_thread STRING,
  -- The serving process (process.id).
  server_upid JOINID(process.id),
  -- The serving thread (thread.id).
  server_utid JOINID(thread.id),
  -- The serving thread's tid.
  server_tid LONG,
  -- The serving process's pid.
  server_pid LONG,
  -- When the server began handling it (trace clock, ns).
  server_ts TIMESTAMP,
  -- How long the server took, in ns.
  server_dur DURATION,
  -- The client's oom_score_adj at the time.
  client_oom_score LONG,
  -- The server's oom_score_adj at the time.
  server_oom_score LONG,
  -- 1 for a synchronous call, 0 for oneway.
  is_sync BOOL,
  -- client_dur without time the device spent suspended.
  client_monotonic_dur DURATION,
  -- server_dur without time the device spent suspended.
  server_monotonic_dur DURATION,
  -- The client package's version code.
  client_package_version_code LONG,
  -- The server package's version code.
  server_package_version_code LONG,
  -- 1 when the client's package is debuggable.
  is_client_package_debuggable BOOL,
  -- 1 when the server's package is debuggable.
  is_server_package_debuggable BOOL
) AS
WITH
  all_binder AS (
    SELECT *, 1 AS is_sync FROM _sync_binder_metrics_by_txn
    UNION ALL
    SELECT *, 0 AS is_sync FROM _async_binder_metrics_by_txn
  )
SELECT
  b.aidl_name,
  str_split(b.aidl_name, '::', 2) AS interface,
  str_split(b.aidl_name, '::', 3) AS method_name,
  b.aidl_ts, b.aidl_dur, b.binder_txn_id, b.client_process, b.client_thread, b.client_upid,
  b.client_utid, b.client_tid, b.client_pid, b.is_main_thread, b.client_ts, b.client_dur,
  b.binder_reply_id, b.server_process, b.server_thread, b.server_upid, b.server_utid,
  b.server_tid, b.server_pid, b.server_ts, b.server_dur, b.client_oom_score,
  b.server_oom_score, b.is_sync,
  _extract_duration_without_suspend(b.client_ts, b.client_dur) AS client_monotonic_dur,
  _extract_duration_without_suspend(b.server_ts, b.server_dur) AS server_monotonic_dur,
  cm.version_code AS client_package_version_code,
  sm.version_code AS server_package_version_code,
  cm.debuggable AS is_client_package_debuggable,
  sm.debuggable AS is_server_package_debuggable
FROM all_binder AS b
LEFT JOIN android_process_metadata AS cm ON cm.upid = b.client_upid
LEFT JOIN android_process_metadata AS sm ON sm.upid = b.server_upid
ORDER BY b.binder_txn_id;

-- Thread states overlapping each side of each synchronous transaction, clipped to it.
CREATE PERFETTO TABLE _binder_txn_side_states AS
WITH sides AS (
  SELECT binder_txn_id, client_ts, client_tid, binder_reply_id, server_ts, server_tid,
         'binder_txn' AS thread_state_type, client_utid AS utid, client_ts AS ts,
         client_dur AS dur
  FROM _sync_binder_metrics_by_txn
  UNION ALL
  SELECT binder_txn_id, client_ts, client_tid, binder_reply_id, server_ts, server_tid,
         'binder_reply', server_utid, server_ts, server_dur
  FROM _sync_binder_metrics_by_txn
)
SELECT
  s.binder_txn_id, s.client_ts, s.client_tid, s.binder_reply_id, s.server_ts, s.server_tid,
  s.thread_state_type, ts.state, ts.blocked_function,
  MIN(ts.ts + ts.dur, s.ts + s.dur) - MAX(ts.ts, s.ts) AS dur
FROM sides AS s
JOIN thread_state AS ts
  ON ts.utid = s.utid AND ts.ts < s.ts + s.dur AND ts.ts + ts.dur > s.ts;

-- Per transaction and side ('binder_txn' = client, 'binder_reply' = server): time in each
-- thread state.
CREATE PERFETTO VIEW android_sync_binder_thread_state_by_txn(
  -- The client's transaction slice (slice.id).
  binder_txn_id LONG,
  -- When the transaction began (trace clock, ns).
  client_ts TIMESTAMP,
  -- The calling thread's tid.
  client_tid LONG,
  -- The server's reply slice (slice.id).
  binder_reply_id LONG,
  -- When the server began (trace clock, ns).
  server_ts TIMESTAMP,
  -- The serving thread's tid.
  server_tid LONG,
  -- Whose time it is: binder_txn (the client) or binder_reply (the server).
  thread_state_type STRING,
  -- A thread state (Running, R, S, D, ...).
  thread_state STRING,
  -- Time spent in it during the transaction, in ns.
  thread_state_dur DURATION,
  -- How many stretches of it.
  thread_state_count LONG
) AS
SELECT
  binder_txn_id, client_ts, client_tid, binder_reply_id, server_ts, server_tid,
  thread_state_type, state AS thread_state, SUM(dur) AS thread_state_dur,
  COUNT(dur) AS thread_state_count
FROM _binder_txn_side_states
GROUP BY binder_txn_id, binder_reply_id, thread_state_type, thread_state;

-- Per transaction and side: time blocked in each kernel function.
CREATE PERFETTO VIEW android_sync_binder_blocked_functions_by_txn(
  -- The client's transaction slice (slice.id).
  binder_txn_id LONG,
  -- When the transaction began (trace clock, ns).
  client_ts TIMESTAMP,
  -- The calling thread's tid.
  client_tid LONG,
  -- The server's reply slice (slice.id).
  binder_reply_id LONG,
  -- When the server began (trace clock, ns).
  server_ts TIMESTAMP,
  -- The serving thread's tid.
  server_tid LONG,
  -- Whose time it is: binder_txn (the client) or binder_reply (the server).
  thread_state_type STRING,
  -- A kernel function the thread blocked in (sched_blocked_reason).
  blocked_function STRING,
  -- Time blocked in it during the transaction, in ns.
  blocked_function_dur DURATION,
  -- How many times.
  blocked_function_count LONG
) AS
SELECT
  binder_txn_id, client_ts, client_tid, binder_reply_id, server_ts, server_tid,
  thread_state_type, blocked_function, SUM(dur) AS blocked_function_dur,
  COUNT(dur) AS blocked_function_count
FROM _binder_txn_side_states
WHERE blocked_function IS NOT NULL
GROUP BY binder_txn_id, binder_reply_id, thread_state_type, blocked_function;
