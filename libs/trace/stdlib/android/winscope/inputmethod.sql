-- The input method (IME) dumps of a winscope trace.

-- Dumps of the input method clients (the apps' InputMethodManager side).
CREATE PERFETTO VIEW android_inputmethod_clients(
  -- Row id.
  id LONG,
  -- When the dump was taken (trace clock, ns).
  ts TIMESTAMP,
  -- The dump's fields, as args.
  arg_set_id ARGSETID
) AS
SELECT id, ts, arg_set_id FROM __intrinsic_inputmethod_clients;

-- Dumps of the system's InputMethodManagerService.
CREATE PERFETTO VIEW android_inputmethod_manager_service(
  -- Row id.
  id LONG,
  -- When the dump was taken (trace clock, ns).
  ts TIMESTAMP,
  -- The dump's fields, as args.
  arg_set_id ARGSETID
) AS
SELECT id, ts, arg_set_id FROM __intrinsic_inputmethod_manager_service;

-- Dumps of the input method service (the keyboard app's InputMethodService).
CREATE PERFETTO VIEW android_inputmethod_service(
  -- Row id.
  id LONG,
  -- When the dump was taken (trace clock, ns).
  ts TIMESTAMP,
  -- The dump's fields, as args.
  arg_set_id ARGSETID
) AS
SELECT id, ts, arg_set_id FROM __intrinsic_inputmethod_service;
