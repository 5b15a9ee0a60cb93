-- For each running state, the runnable state on the same thread that preceded it.

-- For every finished 'Running' thread state: the latest earlier runnable state ('R' or 'R+') on
-- the thread (prev_runnable_id), and the latest earlier one that has a waker outside an
-- interrupt (prev_wakeup_runnable_id). Only 'R', 'R+' and 'Running' states with a known
-- duration take part, in id order per thread.
CREATE PERFETTO TABLE sched_previous_runnable_on_thread(
  -- The Running state (thread_state.id).
  id JOINID(thread_state.id),
  -- The latest runnable state before it on the thread (thread_state.id).
  prev_runnable_id JOINID(thread_state.id),
  -- The latest runnable state before it that a thread (not an interrupt) woke
  -- (thread_state.id).
  prev_wakeup_runnable_id JOINID(thread_state.id)
) AS
SELECT id, prev_runnable_id, prev_wakeup_runnable_id
FROM (
  SELECT
    id,
    state,
    MAX(id) FILTER (WHERE state != 'Running') OVER thread_so_far AS prev_runnable_id,
    MAX(id) FILTER (WHERE waker_utid IS NOT NULL AND IFNULL(irq_context, 0) != 1)
      OVER thread_so_far AS prev_wakeup_runnable_id
  FROM thread_state
  WHERE state GLOB 'R*' AND dur != -1
  WINDOW thread_so_far AS (PARTITION BY utid ORDER BY id)
)
WHERE state = 'Running'
ORDER BY id;
