-- Window manager dumps of a winscope trace.

-- One row per window manager dump: when it was taken, the focused display, whether the dump's
-- own elapsed-realtime stamp was missing, and its fields as args.
CREATE PERFETTO VIEW android_windowmanager(
  -- Row id.
  id LONG,
  -- When the dump was taken (trace clock, ns).
  ts TIMESTAMP,
  -- The dump's fields, as args.
  arg_set_id ARGSETID,
  -- The raw dump proto (base64), a string id.
  base64_proto_id LONG,
  -- The focused display.
  focused_display_id LONG,
  -- Whether the dump's own elapsed-realtime stamp was missing.
  has_invalid_elapsed_ts BOOL
) AS
SELECT id, ts, arg_set_id, base64_proto_id, focused_display_id, has_invalid_elapsed_ts
FROM __intrinsic_windowmanager;
