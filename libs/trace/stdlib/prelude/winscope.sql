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

-- SurfaceFlinger layer snapshots: the whole layer hierarchy and the displays at a time.
CREATE PERFETTO VIEW surfaceflinger_layers_snapshot(
  -- Row id.
  id ID,
  -- When the snapshot was taken (trace clock, ns).
  ts TIMESTAMP,
  -- The snapshot's own fields (where, vsync_id, displays, ...; not its layers), as args.
  arg_set_id ARGSETID,
  -- The raw snapshot proto (base64), a string id.
  base64_proto_id LONG,
  -- The packet sequence that wrote it.
  sequence_id LONG,
  -- Whether the snapshot's own elapsed-realtime stamp was missing.
  has_invalid_elapsed_ts LONG
) AS
SELECT id, ts, arg_set_id, base64_proto_id, sequence_id, has_invalid_elapsed_ts
FROM __intrinsic_surfaceflinger_layers_snapshot;

-- The layers of each SurfaceFlinger snapshot, with the visibility winscope computes for them.
CREATE PERFETTO VIEW surfaceflinger_layer(
  -- Row id.
  id ID,
  -- The snapshot (surfaceflinger_layers_snapshot.id).
  snapshot_id LONG,
  -- The layer's fields, plus visibility_reason[], occluded_by[], partially_occluded_by[] and
  -- covered_by[].
  arg_set_id ARGSETID,
  -- The raw layer proto (base64), a string id.
  base64_proto_id LONG,
  -- The layer's id.
  layer_id LONG,
  -- The layer's name.
  layer_name STRING,
  -- Whether winscope computes the layer as visible.
  is_visible LONG,
  -- The parent layer's id.
  parent LONG,
  -- Top-left corner radius, in pixels.
  corner_radius_tl DOUBLE,
  -- Top-right corner radius, in pixels.
  corner_radius_tr DOUBLE,
  -- Bottom-left corner radius, in pixels.
  corner_radius_bl DOUBLE,
  -- Bottom-right corner radius, in pixels.
  corner_radius_br DOUBLE,
  -- How the hardware composer composed it.
  hwc_composition_type LONG,
  -- Whether it is hidden by its own flag (or is the offscreen root).
  is_hidden_by_policy LONG,
  -- The layer it is z-ordered relative to.
  z_order_relative_of LONG,
  -- Whether that relative-z layer is missing from the snapshot.
  is_missing_z_parent LONG,
  -- Its bounds as drawn (android_winscope_trace_rect.id).
  layer_rect_id LONG,
  -- Its input window's frame as drawn (android_winscope_trace_rect.id).
  input_rect_id LONG
) AS
SELECT id, snapshot_id, arg_set_id, base64_proto_id, layer_id, layer_name, is_visible, parent,
  corner_radius_tl, corner_radius_tr, corner_radius_bl, corner_radius_br, hwc_composition_type,
  is_hidden_by_policy, z_order_relative_of, is_missing_z_parent, layer_rect_id, input_rect_id
FROM __intrinsic_surfaceflinger_layer;

-- The window containers of each window manager dump (also android_windowmanager_windowcontainer
-- in android.winscope.windowmanager).
CREATE PERFETTO VIEW windowmanager_windowcontainer(
  -- Row id.
  id ID,
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
  is_visible LONG,
  -- Displays' and windows' rect as drawn (android_winscope_trace_rect.id).
  window_rect_id LONG,
  -- The container's kind (RootWindowContainer, DisplayContent, Task, WindowState, ...).
  container_type STRING,
  -- A better name for some containers (a task's id and name; a starting window's app).
  name_override STRING
) AS
SELECT id, snapshot_id, arg_set_id, base64_proto_id, title, token, parent_token, child_index,
  is_visible, window_rect_id, container_type, name_override
FROM __intrinsic_windowmanager_windowcontainer;
