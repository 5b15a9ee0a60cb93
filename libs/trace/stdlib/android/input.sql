-- Input events followed from InputDispatcher to the app and back
-- (android_input_events), with latencies and the frame that handled each event.

INCLUDE PERFETTO MODULE android.frames.timeline;
INCLUDE PERFETTO MODULE slices.with_context;

-- InputTransport's "sendMessage(inputChannel=<channel>, seq=<seq>, type=<type>)" and
-- "receiveMessage(...)" slices with their thread and process.
CREATE PERFETTO VIEW _input_message_slices AS
SELECT
  s.name GLOB 'sendMessage(*' AS is_send,
  str_split(str_split(s.name, '=', 3), ')', 0) AS event_type,
  str_split(str_split(s.name, '=', 2), ',', 0) AS event_seq,
  str_split(str_split(s.name, '=', 1), ',', 0) AS event_channel,
  t.tid, t.name AS thread_name, p.upid, p.pid, p.name AS process_name,
  s.ts, s.dur, s.track_id
FROM slice AS s
JOIN thread_track AS tt ON tt.id = s.track_id
JOIN thread AS t USING (utid)
JOIN process AS p ON p.upid = t.upid
WHERE s.name GLOB 'sendMessage(*' OR s.name GLOB 'receiveMessage(*';

CREATE PERFETTO TABLE _input_message_sent AS
SELECT event_type, event_seq, event_channel, tid, thread_name, upid, pid, process_name, ts,
       dur, track_id
FROM _input_message_slices WHERE is_send ORDER BY event_seq;

CREATE PERFETTO TABLE _input_message_received AS
SELECT event_type, event_seq, event_channel, tid, thread_name, upid, pid, process_name, ts,
       dur, track_id
FROM _input_message_slices WHERE NOT is_send ORDER BY event_seq;

-- When the input reader read each motion event ("UnwantedInteractionBlocker::notifyMotion
-- (id=<id>, ...)").
CREATE PERFETTO TABLE _input_read_time AS
SELECT
  name,
  str_split(str_split(str_split(name, 'id=', 1), ',', 0), ')', 0) AS input_event_id,
  ts AS read_time
FROM slice
WHERE name GLOB 'UnwantedInteractionBlocker::notifyMotion*';

-- InputDispatcher's sendMessage nests in publish → startDispatchCycle → enqueue slices; the
-- enqueue slice names the input event id "(... id=<id>)".
CREATE PERFETTO TABLE _event_seq_to_input_event_id AS
SELECT
  str_split(str_split(send.name, '=', 2), ',', 0) AS event_seq,
  str_split(str_split(send.name, '=', 1), ',', 0) AS event_channel,
  str_split(str_split(str_split(str_split(send.name, '=', 1), ',', 0), ' ', 1), '/', 0)
    AS process_name,
  str_split(str_split(enqueue.name, '=', 2), ')', 0) AS input_event_id,
  ts.utid,
  ts.thread_name
FROM slice AS send
JOIN slice AS publish ON send.parent_id = publish.id
JOIN slice AS start_dispatch ON publish.parent_id = start_dispatch.id
JOIN slice AS enqueue ON start_dispatch.parent_id = enqueue.id
JOIN thread_slice AS ts ON ts.id = send.id
WHERE send.name GLOB 'sendMessage(*' AND ts.thread_name = 'InputDispatcher';

-- The app's Choreographer#doFrame slices.
CREATE PERFETTO TABLE _clean_android_frames AS
SELECT s.id AS do_frame_id, s.ts AS do_frame_ts, s.dur AS do_frame_dur,
       cast_int!(f.ui_thread_utid) AS utid, f.frame_id
FROM android_frames_choreographer_do_frame AS f
JOIN slice AS s ON s.id = f.id;

-- The app's "deliverInputEvent src=... eventTimeNano=<t> id=<id>" slices, under the
-- "InputConsumer processing ..." / action slice that consumed the event.
CREATE PERFETTO TABLE _clean_deliver_events AS
SELECT
  s.id, s.ts, s.dur,
  cast_int!(t.utid) AS utid,
  cast_int!(t.upid) AS upid,
  t.process_name,
  str_split(s.name, '=', 3) AS extracted_input_event_id,
  str_split(str_split(parent.name, ' ', 2), ' ', 0) AS event_action,
  cast_int!(str_split(str_split(s.name, ' ', 2), '=', 1)) AS event_time,
  parent.ts AS consume_time,
  parent.ts + parent.dur AS finish_time
FROM slice AS s
JOIN thread_slice AS t USING (id)
JOIN slice AS parent ON s.parent_id = parent.id
WHERE s.name GLOB 'deliverInputEvent src=*';

-- Each delivered event with the frame that handled it: a doFrame on the same thread that
-- overlaps the delivery, else (speculatively) the first doFrame after it.
CREATE PERFETTO TABLE _input_event_frame_association AS
WITH
  overlapping AS (
    SELECT f.do_frame_id AS do_frame_id_key, e.id AS event_id_key, 0 AS is_speculative_match
    FROM _clean_deliver_events AS e
    JOIN _clean_android_frames AS f
      ON f.utid = e.utid AND f.do_frame_dur > 0 AND e.dur > 0
      AND f.do_frame_ts < e.ts + e.dur AND e.ts < f.do_frame_ts + f.do_frame_dur
  ),
  next_frame AS (
    SELECT f.do_frame_id AS do_frame_id_key, e.id AS event_id_key, 1 AS is_speculative_match,
           ROW_NUMBER() OVER (PARTITION BY e.id ORDER BY f.do_frame_ts) AS rn
    FROM _clean_deliver_events AS e
    JOIN _clean_android_frames AS f ON f.utid = e.utid AND f.do_frame_ts >= e.ts
    WHERE e.id NOT IN (SELECT event_id_key FROM overlapping)
  )
SELECT * FROM overlapping
UNION ALL
SELECT do_frame_id_key, event_id_key, is_speculative_match FROM next_frame WHERE rn = 1;

CREATE PERFETTO TABLE _input_event_id_to_android_frame AS
SELECT
  dev.extracted_input_event_id AS input_event_id,
  dev.event_action, dev.event_time, dev.consume_time, dev.finish_time, dev.utid, dev.upid,
  dev.process_name, af.frame_id, af.do_frame_ts AS frame_ts, map.event_channel,
  CAST(assoc.is_speculative_match AS BOOL) AS is_speculative_match
FROM _input_event_frame_association AS assoc
JOIN _clean_android_frames AS af ON assoc.do_frame_id_key = af.do_frame_id
JOIN _clean_deliver_events AS dev ON assoc.event_id_key = dev.id
JOIN _event_seq_to_input_event_id AS map
  ON dev.extracted_input_event_id = map.input_event_id AND map.process_name = dev.process_name;

-- App surface frames (not dropped) with the SurfaceFlinger display frame that presented them.
CREATE PERFETTO TABLE _app_frame_to_surface_flinger_frame AS
SELECT
  app.surface_frame_token AS app_surface_frame_token,
  sf.ts AS surface_flinger_ts, sf.dur AS surface_flinger_dur, app.ts AS app_ts,
  app.present_type, app.upid
FROM actual_frame_timeline_slice AS sf
JOIN actual_frame_timeline_slice AS app
  ON sf.display_frame_token = app.display_frame_token AND sf.id != app.id
WHERE sf.surface_frame_token IS NULL AND app.present_type != 'Dropped Frame';

-- For each read input event: its frame and when the first presented frame from then on
-- reached the display.
CREATE PERFETTO TABLE _first_non_dropped_frame_after_input AS
SELECT
  r.input_event_id,
  r.read_time,
  (SELECT sf.surface_flinger_ts + sf.surface_flinger_dur
   FROM _app_frame_to_surface_flinger_frame AS sf
   WHERE sf.app_ts >= f.frame_ts AND sf.upid = f.upid
   ORDER BY sf.app_ts LIMIT 1) AS present_time,
  f.frame_id,
  m.event_seq,
  f.event_action,
  f.event_time,
  f.is_speculative_match
FROM _event_seq_to_input_event_id AS m
LEFT JOIN _input_event_id_to_android_frame AS f
  ON f.input_event_id = m.input_event_id AND f.event_channel = m.event_channel
JOIN _input_read_time AS r ON r.input_event_id = m.input_event_id;

-- The app-side name of an input channel ("<token> <name> (server)" → "<name> (server)").
CREATE PERFETTO FUNCTION _normalize_event_channel(event_channel STRING)
RETURNS STRING AS
SELECT CASE
  WHEN $event_channel GLOB '[[]*] *' THEN $event_channel
  WHEN $event_channel GLOB '* *:*'
    THEN trim(substr(str_split($event_channel, ':', 0), instr($event_channel, ' ') + 1))
  WHEN $event_channel GLOB '* *' THEN trim(substr($event_channel, instr($event_channel, ' ') + 1))
  ELSE rtrim($event_channel, '0123456789')
END;

-- One row per input event delivered to an app: dispatch (InputDispatcher sends), receipt (the
-- app receives), finish (the app replies) and ack (the dispatcher receives the reply), with
-- the latencies between them, the frame that handled it and, when the frame timeline shows
-- it, the end-to-end latency from reading the event to presenting the frame.
CREATE PERFETTO TABLE android_input_events(
  -- Time from the event being read to InputDispatcher sending it, in ns.
  dispatch_latency_dur DURATION,
  -- Time the app took to handle it (its receive slice), in ns.
  handling_latency_dur DURATION,
  -- Time from the app finishing to InputDispatcher getting the acknowledgement, in ns.
  ack_latency_dur DURATION,
  -- Time from the event being read to the acknowledgement, in ns.
  total_latency_dur DURATION,
  -- Time from the event happening to the frame showing its effect, in ns, when known.
  end_to_end_latency_dur DURATION,
  -- The receiving thread's tid.
  tid LONG,
  -- The receiving thread's name.
  thread_name STRING,
  -- The receiving process (process.id).
  upid JOINID(process.upid),
  -- Its pid.
  pid LONG,
  -- Its name.
  process_name STRING,
  -- The event type (MOTION, KEY, ...).
  event_type STRING,
  -- The event action (DOWN, MOVE, UP, ...).
  event_action STRING,
  -- The input channel sequence number.
  event_seq STRING,
  -- The input channel (window) it was sent to.
  event_channel STRING,
  -- The channel name without per-instance ids, for grouping.
  normalized_event_channel STRING,
  -- The input event's id.
  input_event_id STRING,
  -- When InputReader read the event (trace clock, ns).
  read_time TIMESTAMP,
  -- InputDispatcher's track with the dispatch slice (track.id).
  dispatch_track_id JOINID(track.id),
  -- When the dispatch began.
  dispatch_ts TIMESTAMP,
  -- How long the dispatch took, in ns.
  dispatch_dur DURATION,
  -- The app's track with the receive slice (track.id).
  receive_track_id JOINID(track.id),
  -- When the app began handling it.
  receive_ts TIMESTAMP,
  -- How long the app took, in ns.
  receive_dur DURATION,
  -- The frame (vsync id) that showed the event's effect, if known.
  frame_id LONG,
  -- 1 when frame_id is a guess (the first frame after handling).
  is_speculative_frame BOOL,
  -- When the event happened, as the device reported it (trace clock, ns).
  event_time TIMESTAMP
) AS
WITH
  dispatch AS (SELECT * FROM _input_message_sent WHERE thread_name = 'InputDispatcher'),
  receive AS (
    SELECT *, replace(event_channel, '(client)', '(server)') AS dispatch_event_channel
    FROM _input_message_received WHERE event_type NOT IN ('0x2', 'FINISHED')
  ),
  finish AS (
    SELECT *, replace(event_channel, '(client)', '(server)') AS dispatch_event_channel
    FROM _input_message_sent WHERE thread_name != 'InputDispatcher'
  ),
  finish_ack AS (
    SELECT * FROM _input_message_received WHERE event_type IN ('0x2', 'FINISHED')
  )
SELECT
  receive.ts - dispatch.ts AS dispatch_latency_dur,
  finish.ts - receive.ts AS handling_latency_dur,
  finish_ack.ts - finish.ts AS ack_latency_dur,
  finish_ack.ts - dispatch.ts AS total_latency_dur,
  frame.present_time - frame.read_time AS end_to_end_latency_dur,
  finish.tid,
  finish.thread_name,
  finish.upid,
  finish.pid,
  finish.process_name,
  dispatch.event_type,
  frame.event_action,
  dispatch.event_seq,
  dispatch.event_channel,
  _normalize_event_channel(dispatch.event_channel) AS normalized_event_channel,
  seq_map.input_event_id,
  rt.read_time,
  dispatch.track_id AS dispatch_track_id,
  dispatch.ts AS dispatch_ts,
  dispatch.dur AS dispatch_dur,
  receive.track_id AS receive_track_id,
  receive.ts AS receive_ts,
  receive.dur AS receive_dur,
  frame.frame_id,
  frame.is_speculative_match AS is_speculative_frame,
  frame.event_time
FROM dispatch
JOIN receive
  ON receive.dispatch_event_channel = dispatch.event_channel
  AND receive.event_seq = dispatch.event_seq
JOIN finish
  ON finish.dispatch_event_channel = dispatch.event_channel
  AND finish.event_seq = dispatch.event_seq
JOIN finish_ack
  ON finish_ack.event_channel = dispatch.event_channel
  AND finish_ack.event_seq = dispatch.event_seq
LEFT JOIN _first_non_dropped_frame_after_input AS frame ON frame.event_seq = dispatch.event_seq
LEFT JOIN _event_seq_to_input_event_id AS seq_map
  ON seq_map.event_seq = dispatch.event_seq AND seq_map.event_channel = dispatch.event_channel
LEFT JOIN _input_read_time AS rt ON rt.input_event_id = seq_map.input_event_id;

-- Key events InputDispatcher processed (android.input.inputevent data source); arg_set_id
-- holds the whole AndroidKeyEvent.
CREATE PERFETTO VIEW android_key_events(
  -- Row id.
  id LONG,
  -- The input event's id.
  event_id LONG,
  -- When it happened (trace clock, ns).
  ts TIMESTAMP,
  -- The whole event proto, as args.
  arg_set_id ARGSETID,
  -- The input source (AINPUT_SOURCE_* bits).
  source LONG,
  -- The key action (AKEY_EVENT_ACTION_*).
  action LONG,
  -- The input device.
  device_id LONG,
  -- The display the event is for.
  display_id LONG,
  -- The key (AKEYCODE_*).
  key_code LONG
) AS
SELECT id, event_id, ts, arg_set_id, source, action, device_id, display_id, key_code
FROM __intrinsic_android_key_events;

-- Motion events InputDispatcher processed (android.input.inputevent data source); arg_set_id
-- holds the whole AndroidMotionEvent.
CREATE PERFETTO VIEW android_motion_events(
  -- Row id.
  id LONG,
  -- The input event's id.
  event_id LONG,
  -- When it happened (trace clock, ns).
  ts TIMESTAMP,
  -- The whole event proto, as args.
  arg_set_id ARGSETID,
  -- The input source (AINPUT_SOURCE_* bits).
  source LONG,
  -- The motion action (AMOTION_EVENT_ACTION_*).
  action LONG,
  -- The input device.
  device_id LONG,
  -- The display the event is for.
  display_id LONG
) AS
SELECT id, event_id, ts, arg_set_id, source, action, device_id, display_id
FROM __intrinsic_android_motion_events;

-- Each input event's dispatch to a window: the vsync whose window state decided it and the
-- receiving window; arg_set_id holds the whole AndroidWindowInputDispatchEvent.
CREATE PERFETTO VIEW android_input_event_dispatch(
  -- Row id.
  id LONG,
  -- The dispatched event (android_motion_events / android_key_events.event_id).
  event_id LONG,
  -- The whole dispatch proto, as args.
  arg_set_id ARGSETID,
  -- The vsync the window drew the event's effect in, if any.
  vsync_id LONG,
  -- The window that received the event.
  window_id LONG
) AS
SELECT id, event_id, arg_set_id, vsync_id, window_id
FROM __intrinsic_android_input_event_dispatch;
