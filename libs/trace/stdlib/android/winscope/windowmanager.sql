-- Window manager dumps of a winscope trace and the window containers of each.

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

-- The window containers of each window manager dump, in hierarchy order (depth first): the
-- root, displays, display areas, tasks, task fragments, activities, window tokens, windows.
CREATE PERFETTO VIEW android_windowmanager_windowcontainer(
  -- Row id.
  id LONG,
  -- The dump (android_windowmanager.id).
  snapshot_id LONG,
  -- The container's own fields (not its children), as args.
  arg_set_id ARGSETID,
  -- The container's proto without its children (base64), a string id.
  base64_proto_id LONG,
  -- The container's title (a window token's hash code in hex).
  title STRING,
  -- The container's token (its hash code).
  token LONG,
  -- The parent container's token (NULL for the root).
  parent_token LONG,
  -- Its index among the parent's children.
  child_index LONG,
  -- Whether the container is visible.
  is_visible BOOL,
  -- Displays' and windows' rect as drawn (android_winscope_trace_rect.id).
  window_rect_id LONG,
  -- RootWindowContainer, DisplayContent, DisplayArea, Task, TaskFragment, Activity,
  -- WindowToken, WindowState or WindowContainer.
  container_type STRING,
  -- A better name for some containers (a task's id and name; the app a starting window stands
  -- for).
  name_override STRING
) AS
SELECT id, snapshot_id, arg_set_id, base64_proto_id, title, token, parent_token, child_index,
  is_visible, window_rect_id, container_type, name_override
FROM __intrinsic_windowmanager_windowcontainer;
