-- Winscope tables trace_processor offers without an INCLUDE: SurfaceFlinger transaction
-- entries and shell transitions with their handlers.

-- SurfaceFlinger transaction entries: what SurfaceFlinger committed together at one vsync.
CREATE PERFETTO VIEW surfaceflinger_transactions(
  -- Row id.
  id ID,
  ts TIMESTAMP,
  arg_set_id ARGSETID,
  base64_proto_id LONG,
  vsync_id LONG
) AS
SELECT id, ts, arg_set_id, base64_proto_id, vsync_id FROM __intrinsic_surfaceflinger_transactions;

-- Shell transitions (WM Shell's window transitions), one row per transition id.
CREATE PERFETTO VIEW window_manager_shell_transitions(
  -- Row id.
  id ID,
  ts TIMESTAMP,
  transition_id LONG,
  arg_set_id ARGSETID,
  transition_type LONG,
  send_time_ns LONG,
  dispatch_time_ns LONG,
  duration_ns LONG,
  finish_time_ns LONG,
  shell_abort_time_ns LONG,
  wm_abort_time_ns LONG,
  merge_time_ns LONG,
  create_time_ns LONG,
  handler LONG,
  status STRING,
  flags LONG,
  start_transaction_id LONG,
  finish_transaction_id LONG
) AS
SELECT id, ts, transition_id, arg_set_id, transition_type, send_time_ns, dispatch_time_ns,
  duration_ns, finish_time_ns, shell_abort_time_ns, wm_abort_time_ns, merge_time_ns,
  create_time_ns, handler, status, flags, start_transaction_id, finish_transaction_id
FROM __intrinsic_window_manager_shell_transitions;

-- The shell transition handlers' names by id.
CREATE PERFETTO VIEW window_manager_shell_transition_handlers(
  -- Row id.
  id ID,
  handler_id LONG,
  handler_name STRING,
  base64_proto_id LONG
) AS
SELECT id, handler_id, handler_name, base64_proto_id
FROM __intrinsic_window_manager_shell_transition_handlers;

-- ProtoLog messages (WindowManager / Shell binary logs), formatted with their viewer config.
CREATE PERFETTO VIEW protolog(
  -- Row id.
  id ID,
  -- When the message was logged.
  ts TIMESTAMP,
  -- Log level: DEBUG, VERBOSE, INFO, WARN, ERROR, WTF or UNKNOWN.
  level STRING,
  -- The message's group tag.
  tag STRING,
  -- The formatted message.
  message STRING,
  -- The stack trace logged with it, if any.
  stacktrace STRING,
  -- Its source location, if known.
  location STRING
) AS
SELECT id, ts, level, tag, message, stacktrace, location FROM __intrinsic_protolog;
