-- ART "monitor contention with owner ..." slices parsed into who
-- blocked whom where (android_monitor_contention), chained across threads, with the blocking
-- thread's states.

INCLUDE PERFETTO MODULE android.suspend;

-- The slice names look like:
--   monitor contention with owner <thread> (<tid>) at <ret> <blocking method>(<src>)
--   waiters=<n> blocking from <ret> <blocked method>(<src>)
-- The helpers below cut one field out of such a name.

-- Name of the thread holding the lock.
CREATE PERFETTO FUNCTION android_extract_android_monitor_contention_blocking_thread(
  -- A "monitor contention with owner ..." slice name.
  slice_name STRING
)
RETURNS STRING AS
SELECT str_split(str_split($slice_name, 'with owner ', 1), ' (', 0);

-- Tid of the thread holding the lock.
CREATE PERFETTO FUNCTION android_extract_android_monitor_contention_blocking_tid(
  -- A "monitor contention with owner ..." slice name.
  slice_name STRING
)
RETURNS LONG AS
SELECT cast_int!(str_split(str_split($slice_name, ' (', 1), ')', 0));

-- Method (with return type) holding the lock.
CREATE PERFETTO FUNCTION android_extract_android_monitor_contention_blocking_method(
  -- A "monitor contention with owner ..." slice name.
  slice_name STRING
)
RETURNS STRING AS
SELECT str_split(str_split($slice_name, ') at ', 1), '(', 0) || '('
       || str_split(str_split($slice_name, ') at ', 1), '(', 1);

-- Method holding the lock, without return type and arguments.
CREATE PERFETTO FUNCTION android_extract_android_monitor_contention_short_blocking_method(
  -- A "monitor contention with owner ..." slice name.
  slice_name STRING
)
RETURNS STRING AS
SELECT str_split(
  str_split(android_extract_android_monitor_contention_blocking_method($slice_name), ' ', 1),
  '(', 0);

-- Method (with return type) waiting for the lock.
CREATE PERFETTO FUNCTION android_extract_android_monitor_contention_blocked_method(
  -- A "monitor contention with owner ..." slice name.
  slice_name STRING
)
RETURNS STRING AS
SELECT str_split(str_split($slice_name, 'blocking from ', 1), '(', 0) || '('
       || str_split(str_split($slice_name, 'blocking from ', 1), '(', 1);

-- Method waiting for the lock, without return type and arguments.
CREATE PERFETTO FUNCTION android_extract_android_monitor_contention_short_blocked_method(
  -- A "monitor contention with owner ..." slice name.
  slice_name STRING
)
RETURNS STRING AS
SELECT str_split(
  str_split(android_extract_android_monitor_contention_blocked_method($slice_name), ' ', 1),
  '(', 0);

-- Other threads already waiting for the same lock.
CREATE PERFETTO FUNCTION android_extract_android_monitor_contention_waiter_count(
  -- A "monitor contention with owner ..." slice name.
  slice_name STRING
)
RETURNS LONG AS
SELECT cast_int!(str_split(str_split($slice_name, 'waiters=', 1), ' ', 0));

-- Source location of the method holding the lock.
CREATE PERFETTO FUNCTION android_extract_android_monitor_contention_blocking_src(
  -- A "monitor contention with owner ..." slice name.
  slice_name STRING
)
RETURNS STRING AS
SELECT str_split(str_split($slice_name, ')(', 1), ')', 0);

-- Source location of the method waiting for the lock.
CREATE PERFETTO FUNCTION android_extract_android_monitor_contention_blocked_src(
  -- A "monitor contention with owner ..." slice name.
  slice_name STRING
)
RETURNS STRING AS
SELECT str_split(str_split($slice_name, ')(', 2), ')', 0);

-- Contention slices ART emitted whole: no children except one "Lock contention" slice, and
-- nothing below that (anything else means the slice swallowed unrelated work).
CREATE PERFETTO TABLE _valid_android_monitor_contention AS
SELECT s.id
FROM slice AS s
LEFT JOIN slice AS child ON child.parent_id = s.id
LEFT JOIN slice AS grand_child ON grand_child.parent_id = child.id
WHERE s.name GLOB 'monitor contention*'
  AND (child.name GLOB 'Lock contention*' OR child.name IS NULL)
  AND grand_child.name IS NULL
GROUP BY s.id;

-- One row per finished monitor contention: the blocked and blocking threads and methods, the
-- enclosing binder reply if the wait happened while serving a binder call, and the lock's name
-- when "<lock>_lock_acquire" / "<lock>_lock_held" slices bracket the contention.
CREATE PERFETTO TABLE android_monitor_contention(
  -- The method holding the lock (owner).
  blocking_method STRING,
  -- The method waiting for it.
  blocked_method STRING,
  -- blocking_method without its signature.
  short_blocking_method STRING,
  -- blocked_method without its signature.
  short_blocked_method STRING,
  -- Source file and line of the owner's code.
  blocking_src STRING,
  -- Source file and line of the waiter's code.
  blocked_src STRING,
  -- How many other threads waited on the lock too.
  waiter_count LONG,
  -- The waiting thread (thread.id).
  blocked_utid JOINID(thread.id),
  -- Its name.
  blocked_thread_name STRING,
  -- The owning thread (thread.id).
  blocking_utid JOINID(thread.id),
  -- Its name.
  blocking_thread_name STRING,
  -- Its tid.
  blocking_tid LONG,
  -- The process (process.id).
  upid JOINID(process.id),
  -- Its name.
  process_name STRING,
  -- The contention slice (slice.id).
  id LONG,
  -- When the wait began (trace clock, ns).
  ts TIMESTAMP,
  -- How long it lasted, in ns.
  dur DURATION,
  -- dur without time the device spent suspended.
  monotonic_dur DURATION,
  -- The waiting thread's track.
  track_id JOINID(track.id),
  -- 1 when the waiting thread is the main thread.
  is_blocked_thread_main LONG,
  -- The waiting thread's tid.
  blocked_thread_tid LONG,
  -- 1 when the owning thread is the main thread.
  is_blocking_thread_main LONG,
  -- The owning thread's tid.
  blocking_thread_tid LONG,
  -- When the waiter was serving a binder call: its reply slice (slice.id).
  binder_reply_id LONG,
  -- When that reply began.
  binder_reply_ts TIMESTAMP,
  -- The tid that served it.
  binder_reply_tid LONG,
  -- The process's pid.
  pid LONG,
  -- The contended lock (monitor) as named in the slice, if any.
  lock_name STRING
) AS
WITH
  neighbours AS (
    SELECT
      s.id,
      LAG(s.name) OVER (PARTITION BY s.track_id ORDER BY s.ts) AS prev_name,
      LEAD(s.name, 1) OVER (PARTITION BY s.track_id ORDER BY s.ts) AS next_name_1,
      LEAD(s.name, 2) OVER (PARTITION BY s.track_id ORDER BY s.ts) AS next_name_2
    FROM slice AS s
    WHERE s.track_id IN (SELECT DISTINCT track_id FROM slice
                         WHERE id IN (SELECT id FROM _valid_android_monitor_contention))
  ),
  lock_names AS (
    SELECT
      id,
      CASE
        WHEN substr(prev_name, -13) = '_lock_acquire'
          AND substr(next_name_1, -10) = '_lock_held'
          AND replace(prev_name, '_lock_acquire', '') = replace(next_name_1, '_lock_held', '')
          THEN replace(prev_name, '_lock_acquire', '')
        WHEN substr(prev_name, -13) = '_lock_acquire'
          AND substr(next_name_1, 1, 15) = 'Lock contention'
          AND substr(next_name_2, -10) = '_lock_held'
          AND replace(prev_name, '_lock_acquire', '') = replace(next_name_2, '_lock_held', '')
          THEN replace(prev_name, '_lock_acquire', '')
        ELSE NULL
      END AS lock_name
    FROM neighbours
    WHERE id IN (SELECT id FROM _valid_android_monitor_contention)
  ),
  parsed AS (
    SELECT
      s.*,
      android_extract_android_monitor_contention_blocking_tid(s.name) AS blocking_tid,
      android_extract_android_monitor_contention_short_blocking_method(s.name)
        AS short_blocking_method,
      android_extract_android_monitor_contention_short_blocked_method(s.name)
        AS short_blocked_method,
      (SELECT b.id FROM slice AS b
       WHERE b.name = 'binder reply' AND b.track_id = s.track_id AND b.depth < s.depth
         AND b.ts <= s.ts AND (b.dur = -1 OR b.ts + b.dur >= s.ts + s.dur)
       ORDER BY b.depth DESC LIMIT 1) AS binder_reply_id
    FROM slice AS s
    WHERE s.id IN (SELECT id FROM _valid_android_monitor_contention) AND s.dur != -1
  )
SELECT
  android_extract_android_monitor_contention_blocking_method(p.name) AS blocking_method,
  android_extract_android_monitor_contention_blocked_method(p.name) AS blocked_method,
  p.short_blocking_method,
  p.short_blocked_method,
  android_extract_android_monitor_contention_blocking_src(p.name) AS blocking_src,
  android_extract_android_monitor_contention_blocked_src(p.name) AS blocked_src,
  android_extract_android_monitor_contention_waiter_count(p.name) AS waiter_count,
  t.utid AS blocked_utid,
  t.name AS blocked_thread_name,
  bt.utid AS blocking_utid,
  android_extract_android_monitor_contention_blocking_thread(p.name) AS blocking_thread_name,
  p.blocking_tid,
  t.upid,
  pr.name AS process_name,
  p.id,
  p.ts,
  p.dur,
  _extract_duration_without_suspend(p.ts, p.dur) AS monotonic_dur,
  p.track_id,
  t.is_main_thread AS is_blocked_thread_main,
  t.tid AS blocked_thread_tid,
  bt.is_main_thread AS is_blocking_thread_main,
  bt.tid AS blocking_thread_tid,
  p.binder_reply_id,
  br.ts AS binder_reply_ts,
  brt.tid AS binder_reply_tid,
  pr.pid,
  ln.lock_name
FROM parsed AS p
JOIN thread_track AS tt ON tt.id = p.track_id
LEFT JOIN thread AS t USING (utid)
LEFT JOIN process AS pr ON pr.upid = t.upid
LEFT JOIN thread AS bt
  ON bt.utid = (SELECT MIN(x.utid) FROM thread AS x WHERE x.tid = p.blocking_tid AND x.upid = t.upid)
LEFT JOIN slice AS br ON br.id = p.binder_reply_id
LEFT JOIN thread_track AS brtt ON brtt.id = br.track_id
LEFT JOIN thread AS brt ON brt.utid = brtt.utid
LEFT JOIN lock_names AS ln ON ln.id = p.id
WHERE p.short_blocking_method IS NOT NULL AND p.short_blocked_method IS NOT NULL
ORDER BY p.id;

-- Pairs of contentions where the child began on the thread the parent was waiting for (the
-- parent's blocked thread is the child's blocking thread) while the parent waited.
CREATE PERFETTO VIEW _contention_nesting AS
SELECT parent.id AS parent_id, child.id AS child_id
FROM android_monitor_contention AS parent
JOIN android_monitor_contention AS child
  ON parent.blocked_utid = child.blocking_utid
  AND child.ts BETWEEN parent.ts AND parent.ts + parent.dur;

-- Contentions that happened on the thread another contention was waiting for, while it
-- waited: (parent_id = the waiting contention).
CREATE PERFETTO TABLE _children AS
SELECT n.parent_id, child.*
FROM _contention_nesting AS n
JOIN android_monitor_contention AS child ON child.id = n.child_id
ORDER BY child.id;

-- Per contention that others happened within: the first of them (child_id).
CREATE PERFETTO TABLE _child_of AS
SELECT parent_id AS id, MIN(child_id) AS child_id
FROM _contention_nesting
GROUP BY parent_id;

-- Contentions linked into chains: parent_id is the contention this one delayed (its blocked
-- thread was the blocking thread of the parent), child_id the first one it was delayed by.
CREATE PERFETTO TABLE android_monitor_contention_chain(
  -- The contention this one is nested in, if the waiter was itself blocking others (id).
  parent_id LONG,
  -- The method holding the lock (owner).
  blocking_method STRING,
  -- The method waiting for it.
  blocked_method STRING,
  -- blocking_method without its signature.
  short_blocking_method STRING,
  -- blocked_method without its signature.
  short_blocked_method STRING,
  -- Source file and line of the owner's code.
  blocking_src STRING,
  -- Source file and line of the waiter's code.
  blocked_src STRING,
  -- How many other threads waited on the lock too.
  waiter_count LONG,
  -- The waiting thread (thread.id).
  blocked_utid JOINID(thread.id),
  -- Its name.
  blocked_thread_name STRING,
  -- The owning thread (thread.id).
  blocking_utid JOINID(thread.id),
  -- Its name.
  blocking_thread_name STRING,
  -- Its tid.
  blocking_tid LONG,
  -- The process (process.id).
  upid JOINID(process.id),
  -- Its name.
  process_name STRING,
  -- The contention slice (slice.id).
  id LONG,
  -- When the wait began (trace clock, ns).
  ts TIMESTAMP,
  -- How long it lasted, in ns.
  dur DURATION,
  -- dur without time the device spent suspended.
  monotonic_dur DURATION,
  -- The waiting thread's track.
  track_id JOINID(track.id),
  -- 1 when the waiting thread is the main thread.
  is_blocked_thread_main LONG,
  -- The waiting thread's tid.
  blocked_thread_tid LONG,
  -- 1 when the owning thread is the main thread.
  is_blocking_thread_main LONG,
  -- The owning thread's tid.
  blocking_thread_tid LONG,
  -- When the waiter was serving a binder call: its reply slice (slice.id).
  binder_reply_id LONG,
  -- When that reply began.
  binder_reply_ts TIMESTAMP,
  -- The tid that served it.
  binder_reply_tid LONG,
  -- The process's pid.
  pid LONG,
  -- The contention the owner was itself waiting in at the time (id), if any.
  child_id LONG,
  -- The contended lock (monitor) as named in the slice, if any.
  lock_name STRING
) AS
SELECT
  pc.parent_id, a.blocking_method, a.blocked_method, a.short_blocking_method,
  a.short_blocked_method, a.blocking_src, a.blocked_src, a.waiter_count, a.blocked_utid,
  a.blocked_thread_name, a.blocking_utid, a.blocking_thread_name, a.blocking_tid, a.upid,
  a.process_name, a.id, a.ts, a.dur, a.monotonic_dur, a.track_id, a.is_blocked_thread_main,
  a.blocked_thread_tid, a.is_blocking_thread_main, a.blocking_thread_tid, a.binder_reply_id,
  a.binder_reply_ts, a.binder_reply_tid, a.pid, co.child_id, a.lock_name
FROM android_monitor_contention AS a
LEFT JOIN _children AS pc USING (id)
LEFT JOIN _child_of AS co USING (id);

-- For each first waiter (waiter_count = 0): from its start until the lock holder released
-- the lock (the end of the last contention on the same holder and method within it).
CREATE PERFETTO VIEW _first_blocked_contention AS
SELECT start.id, start.blocking_utid, start.ts, MIN(e.ts + e.dur) - start.ts AS dur
FROM android_monitor_contention_chain AS start
JOIN android_monitor_contention_chain AS e
  ON start.blocking_utid = e.blocking_utid AND start.blocking_method = e.blocking_method
  AND e.ts BETWEEN start.ts AND start.ts + start.dur
WHERE start.waiter_count = 0
GROUP BY start.id;

-- The lock holder's thread states during each first waiter's wait, clipped to it.
CREATE PERFETTO TABLE android_monitor_contention_chain_thread_state(
  -- The contention (android_monitor_contention.id).
  id LONG,
  -- When the owner's state began, clipped to the contention.
  ts TIMESTAMP,
  -- How long, in ns.
  dur DURATION,
  -- The owning thread (thread.id).
  blocking_utid JOINID(thread.id),
  -- The kernel function it blocked in, for D states.
  blocked_function STRING,
  -- Its scheduling state.
  state STRING
) AS
SELECT
  f.id,
  MAX(s.ts, f.ts) AS ts,
  MIN(s.ts + s.dur, f.ts + f.dur) - MAX(s.ts, f.ts) AS dur,
  f.blocking_utid,
  s.blocked_function,
  s.state
FROM _first_blocked_contention AS f
JOIN thread_state AS s
  ON s.utid = f.blocking_utid AND s.ts < f.ts + f.dur AND s.ts + s.dur > f.ts
ORDER BY f.id, ts;

-- Time per state of the lock holder, per first waiter.
CREATE PERFETTO VIEW android_monitor_contention_chain_thread_state_by_txn(
  -- The contention (android_monitor_contention.id).
  id LONG,
  -- A state the owner was in.
  thread_state STRING,
  -- Time spent in it during the contention, in ns.
  thread_state_dur DURATION,
  -- How many stretches.
  thread_state_count LONG
) AS
SELECT id, state AS thread_state, SUM(dur) AS thread_state_dur, COUNT(dur) AS thread_state_count
FROM android_monitor_contention_chain_thread_state
GROUP BY id, thread_state;

-- Time per kernel function the lock holder was blocked in, per first waiter.
CREATE PERFETTO VIEW android_monitor_contention_chain_blocked_functions_by_txn(
  -- The contention (android_monitor_contention.id).
  id LONG,
  -- A kernel function the owner blocked in.
  blocked_function STRING,
  -- Time blocked in it during the contention, in ns.
  blocked_function_dur DURATION,
  -- How many times.
  blocked_function_count LONG
) AS
SELECT id, blocked_function, SUM(dur) AS blocked_function_dur,
       COUNT(dur) AS blocked_function_count
FROM android_monitor_contention_chain_thread_state
WHERE blocked_function IS NOT NULL
GROUP BY id, blocked_function;
