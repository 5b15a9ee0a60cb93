-- Graphics slices, picked out of `slice` by their track's type: SurfaceFlinger buffer phases,
-- GPU work, and the frame timeline's expected and actual frames.

INCLUDE PERFETTO MODULE prelude.events;

-- The slices of SurfaceFlinger's graphics frame events: a layer's buffer going through
-- dequeue, queue, acquire, latch and present.
CREATE PERFETTO VIEW frame_slice(
  -- The slice's id (slice.id).
  id ID(slice.id),
  -- When the phase began (trace clock, ns).
  ts TIMESTAMP,
  -- How long it lasted, in ns.
  dur DURATION,
  -- The layer's track.
  track_id JOINID(track.id),
  -- The category, if any.
  category STRING,
  -- The phase (or buffer event) name.
  name STRING,
  -- Nesting depth on its track.
  depth LONG,
  -- The enclosing slice, if any.
  parent_id JOINID(frame_slice.id),
  -- The slice's args.
  arg_set_id LONG,
  -- The layer the buffer belongs to.
  layer_name STRING,
  -- The buffer's frame number.
  frame_number LONG,
  -- Time from queueing the buffer to its acquire fence signalling, in ns.
  queue_to_acquire_time LONG,
  -- Time from acquire to SurfaceFlinger latching the buffer, in ns.
  acquire_to_latch_time LONG,
  -- Time from latch to the frame being presented, in ns.
  latch_to_present_time LONG
) AS
SELECT
  s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id, s.arg_set_id,
  extract_arg(s.arg_set_id, 'layer_name') AS layer_name,
  extract_arg(s.arg_set_id, 'frame_number') AS frame_number,
  extract_arg(s.arg_set_id, 'queue_to_acquire_time') AS queue_to_acquire_time,
  extract_arg(s.arg_set_id, 'acquire_to_latch_time') AS acquire_to_latch_time,
  extract_arg(s.arg_set_id, 'latch_to_present_time') AS latch_to_present_time
FROM slice AS s
JOIN track AS t ON s.track_id = t.id
WHERE t.type = 'graphics_frame_event';

-- The slices of GPU work: render stages, Vulkan API events, GPU log entries.
CREATE PERFETTO VIEW gpu_slice(
  -- The slice's id (slice.id).
  id ID(slice.id),
  -- When the GPU work began (trace clock, ns).
  ts TIMESTAMP,
  -- How long it took, in ns.
  dur DURATION,
  -- The GPU track (hardware queue or stage).
  track_id JOINID(track.id),
  -- The category, if any.
  category STRING,
  -- The render stage or event name.
  name STRING,
  -- Nesting depth on its track.
  depth LONG,
  -- The enclosing slice, if any.
  parent_id JOINID(frame_slice.id),
  -- The slice's args.
  arg_set_id LONG,
  -- The graphics context.
  context_id LONG,
  -- The render target (a handle).
  render_target LONG,
  -- The render target's debug name, if any.
  render_target_name STRING,
  -- The render pass (a handle).
  render_pass LONG,
  -- The render pass's debug name, if any.
  render_pass_name STRING,
  -- The command buffer (a handle).
  command_buffer LONG,
  -- The command buffer's debug name, if any.
  command_buffer_name STRING,
  -- The frame the work belongs to, if known.
  frame_id LONG,
  -- The submission id.
  submission_id LONG,
  -- The hardware queue.
  hw_queue_id LONG,
  -- The process that submitted the work, if known.
  upid JOINID(process.id),
  -- The render subpasses, if any.
  render_subpasses STRING,
  -- The render stage's category (graphics, compute, ...).
  render_stage_category LONG
) AS
SELECT
  s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id, s.arg_set_id,
  extract_arg(s.arg_set_id, 'context_id') AS context_id,
  extract_arg(s.arg_set_id, 'render_target') AS render_target,
  extract_arg(s.arg_set_id, 'render_target_name') AS render_target_name,
  extract_arg(s.arg_set_id, 'render_pass') AS render_pass,
  extract_arg(s.arg_set_id, 'render_pass_name') AS render_pass_name,
  extract_arg(s.arg_set_id, 'command_buffer') AS command_buffer,
  extract_arg(s.arg_set_id, 'command_buffer_name') AS command_buffer_name,
  extract_arg(s.arg_set_id, 'frame_id') AS frame_id,
  extract_arg(s.arg_set_id, 'submission_id') AS submission_id,
  extract_arg(s.arg_set_id, 'hw_queue_id') AS hw_queue_id,
  extract_arg(s.arg_set_id, 'upid') AS upid,
  extract_arg(s.arg_set_id, 'render_subpasses') AS render_subpasses,
  extract_arg(s.arg_set_id, 'render_stage_category') AS render_stage_category
FROM slice AS s
JOIN track AS t ON s.track_id = t.id
WHERE t.type IN ('gpu_render_stage', 'vulkan_events', 'gpu_log');

-- The frames SurfaceFlinger expected, one slice per frame token: when the app (or
-- SurfaceFlinger itself) was supposed to produce it, from the vsync prediction.
CREATE PERFETTO VIEW expected_frame_timeline_slice(
  -- The slice's id (slice.id).
  id ID(slice.id),
  -- When the frame's work was expected to start (trace clock, ns).
  ts TIMESTAMP,
  -- How long it was expected to take, in ns (the deadline is ts + dur).
  dur DURATION,
  -- The process's expected-timeline track.
  track_id JOINID(track.id),
  -- The category, if any.
  category STRING,
  -- The frame token, as text.
  name STRING,
  -- Nesting depth on its track.
  depth LONG,
  -- The enclosing slice, if any.
  parent_id JOINID(frame_slice.id),
  -- The slice's args.
  arg_set_id LONG,
  -- SurfaceFlinger's display frame token.
  display_frame_token LONG,
  -- The app's surface frame token (the vsync id), for app frames.
  surface_frame_token LONG,
  -- The process whose frame it is.
  upid JOINID(process.id),
  -- The layer, for app frames.
  layer_name STRING
) AS
SELECT
  s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id, s.arg_set_id,
  extract_arg(s.arg_set_id, 'Display frame token') AS display_frame_token,
  extract_arg(s.arg_set_id, 'Surface frame token') AS surface_frame_token,
  t.upid,
  extract_arg(s.arg_set_id, 'Layer name') AS layer_name
FROM slice AS s
JOIN process_track AS t ON s.track_id = t.id
WHERE t.type = 'android_expected_frame_timeline'
ORDER BY s.id;

-- The frames as they really happened, one slice per frame token and layer, with
-- SurfaceFlinger's verdict: on time or late, and if late whose fault (jank_type).
CREATE PERFETTO VIEW actual_frame_timeline_slice(
  -- The slice's id (slice.id).
  id ID(slice.id),
  -- When the frame's work started (trace clock, ns).
  ts TIMESTAMP,
  -- How long until it was presented (or finished), in ns.
  dur DURATION,
  -- The process's actual-timeline track.
  track_id JOINID(track.id),
  -- The category, if any.
  category STRING,
  -- The frame token, as text.
  name STRING,
  -- Nesting depth on its track.
  depth LONG,
  -- The enclosing slice, if any.
  parent_id JOINID(frame_slice.id),
  -- The slice's args.
  arg_set_id LONG,
  -- SurfaceFlinger's display frame token.
  display_frame_token LONG,
  -- The app's surface frame token (the vsync id), for app frames.
  surface_frame_token LONG,
  -- The process whose frame it is.
  upid JOINID(process.id),
  -- The layer, for app frames.
  layer_name STRING,
  -- When it was presented relative to its deadline: 'On-time Present', 'Late Present',
  -- 'Early Present', 'Dropped Frame', 'Unknown Present'.
  present_type STRING,
  -- 1 when the app finished its work before the deadline.
  on_time_finish LONG,
  -- 1 when SurfaceFlinger composed the frame on the GPU.
  gpu_composition LONG,
  -- Why the frame was late ('None' when it was not): 'App Deadline Missed', 'Buffer Stuffing',
  -- 'SurfaceFlinger CPU Deadline Missed', 'Prediction Error', ... (comma separated).
  jank_type STRING,
  -- How bad the jank was: 'None', 'Partial', 'Full'.
  jank_severity_type STRING,
  -- Whether the vsync prediction held: 'Valid Prediction', 'Expired Prediction'.
  prediction_type STRING,
  -- The jank classification SurfaceFlinger settled on.
  jank_tag STRING,
  -- An experimental refinement of jank_tag.
  jank_tag_experimental STRING,
  -- SurfaceFlinger's severity score of the jank.
  jank_score DOUBLE,
  -- How many buffers were latched before their fences signalled.
  latched_unsignaled_count LONG,
  -- How many of those could have been latched unsignalled.
  addressable_unsignaled_latch_count LONG,
  -- The fence state when the buffer was latched.
  latched_fence_state STRING
) AS
SELECT
  s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id, s.arg_set_id,
  extract_arg(s.arg_set_id, 'Display frame token') AS display_frame_token,
  extract_arg(s.arg_set_id, 'Surface frame token') AS surface_frame_token,
  t.upid,
  extract_arg(s.arg_set_id, 'Layer name') AS layer_name,
  extract_arg(s.arg_set_id, 'Present type') AS present_type,
  extract_arg(s.arg_set_id, 'On time finish') AS on_time_finish,
  extract_arg(s.arg_set_id, 'GPU composition') AS gpu_composition,
  extract_arg(s.arg_set_id, 'Jank type') AS jank_type,
  extract_arg(s.arg_set_id, 'Jank severity type') AS jank_severity_type,
  extract_arg(s.arg_set_id, 'Prediction type') AS prediction_type,
  extract_arg(s.arg_set_id, 'Jank tag') AS jank_tag,
  extract_arg(s.arg_set_id, 'Jank tag (experimental)') AS jank_tag_experimental,
  extract_arg(s.arg_set_id, 'Jank Severity Score') AS jank_score,
  extract_arg(s.arg_set_id, 'Latched unsignaled count') AS latched_unsignaled_count,
  extract_arg(s.arg_set_id, 'Addressable unsignaled latch count')
    AS addressable_unsignaled_latch_count,
  extract_arg(s.arg_set_id, 'Latched fence state') AS latched_fence_state
FROM slice AS s
JOIN process_track AS t ON s.track_id = t.id
WHERE t.type = 'android_actual_frame_timeline'
ORDER BY s.id;
