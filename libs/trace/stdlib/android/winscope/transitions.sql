-- The windows and layers each shell transition changed, and its raw protos.

-- One row per window or layer a transition changed: its mode and flags, the displays and
-- rotations it went from and to, and its bounds before and after (android_winscope_rect ids).
CREATE PERFETTO VIEW android_window_manager_shell_transition_participants(
  -- The transition.
  transition_id LONG,
  -- The layer, for layer participants.
  layer_id LONG,
  -- The window, for window participants.
  window_id LONG,
  -- The change mode (open, close, to front, ...).
  mode LONG,
  -- The change flags.
  flags LONG,
  -- The display before.
  start_display_id LONG,
  -- The display after.
  end_display_id LONG,
  -- The rotation before.
  start_rotation LONG,
  -- The rotation after.
  end_rotation LONG,
  -- Bounds before (android_winscope_rect.id).
  start_abs_bounds_rect_id LONG,
  -- Bounds after (android_winscope_rect.id).
  end_abs_bounds_rect_id LONG
) AS
SELECT transition_id, layer_id, window_id, mode, flags, start_display_id, end_display_id,
  start_rotation, end_rotation, start_abs_bounds_rect_id, end_abs_bounds_rect_id
FROM __intrinsic_window_manager_shell_transition_participants;

-- The raw proto of each packet of a transition (transitions arrive in parts).
CREATE PERFETTO VIEW android_window_manager_shell_transition_protos(
  -- The transition.
  transition_id LONG,
  -- The raw packet proto (base64), a string id.
  base64_proto_id LONG
) AS
SELECT transition_id, base64_proto_id FROM __intrinsic_window_manager_shell_transition_protos;
