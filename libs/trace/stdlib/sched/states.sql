-- Human-readable names of thread scheduling states ('R' -> 'Runnable', ...).

-- The readable name of a scheduling state as thread_state.state spells it; unknown states are
-- returned unchanged.
CREATE PERFETTO FUNCTION sched_state_to_human_readable_string(
  -- A state as thread_state.state spells it ('R', 'S', 'D', 'Running', ...).
  short_name STRING
)
-- Its readable name ('Runnable', 'Sleeping', 'Uninterruptible Sleep', ...).
RETURNS STRING AS
SELECT CASE $short_name
  WHEN 'Running' THEN 'Running'
  WHEN 'R' THEN 'Runnable'
  WHEN 'R+' THEN 'Runnable (Preempted)'
  WHEN 'S' THEN 'Sleeping'
  WHEN 'D' THEN 'Uninterruptible Sleep'
  WHEN 'T' THEN 'Stopped'
  WHEN 't' THEN 'Traced'
  WHEN 'X' THEN 'Exit (Dead)'
  WHEN 'Z' THEN 'Exit (Zombie)'
  WHEN 'x' THEN 'Task Dead'
  WHEN 'I' THEN 'Idle'
  WHEN 'K' THEN 'Wakekill'
  WHEN 'W' THEN 'Waking'
  WHEN 'P' THEN 'Parked'
  WHEN 'N' THEN 'No Load'
  -- Windows (ETW) thread states pass through under their own names.
  ELSE $short_name
END;

-- The readable state followed by ' (IO)' or ' (non-IO)' when io_wait is known ('' for a NULL
-- state).
CREATE PERFETTO FUNCTION sched_state_io_to_human_readable_string(
  -- A state as thread_state.state spells it.
  sched_state STRING,
  -- thread_state.io_wait: 1 waiting for I/O, 0 not, NULL unknown.
  io_wait BOOL
)
-- The readable name with ' (IO)' or ' (non-IO)' when io_wait is known.
RETURNS STRING AS
SELECT printf(
  '%s%s',
  sched_state_to_human_readable_string($sched_state),
  CASE $io_wait WHEN 1 THEN ' (IO)' WHEN 0 THEN ' (non-IO)' ELSE '' END
);
