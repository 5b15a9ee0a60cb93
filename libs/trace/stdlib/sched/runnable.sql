-- For each running state, the runnable state on the same thread that preceded it.

-- For every finished 'Running' thread state: the latest earlier runnable state ('R' or 'R+') on
-- the thread (prev_runnable_id), and the latest earlier one that has a waker outside an
-- interrupt (prev_wakeup_runnable_id). Only 'R', 'R+' and 'Running' states with a known
-- duration take part, in id order per thread.
CREATE PERFETTO VIEW sched_previous_runnable_on_thread(
  -- The Running state (thread_state.id).
  id JOINID(thread_state.id),
  -- The latest runnable state before it on the thread (thread_state.id).
  prev_runnable_id JOINID(thread_state.id),
  -- The latest runnable state before it that a thread (not an interrupt) woke
  -- (thread_state.id).
  prev_wakeup_runnable_id JOINID(thread_state.id)
) AS
-- One pass over thread_state in C++ (query/derived_tables.h), filled when first used: the
-- window over every thread's states this replaces took seconds on a million-event trace.
SELECT thread_state_id AS id, prev_runnable_id, prev_wakeup_runnable_id
FROM __intrinsic_sched_previous_runnable;
