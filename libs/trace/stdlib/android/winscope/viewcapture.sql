-- ViewCapture snapshots (an app window's view hierarchy) and their views.

-- One row per snapshot: when it was taken, the app package and window it shows, and its
-- fields as args.
CREATE PERFETTO VIEW android_viewcapture(
  -- Row id.
  id LONG,
  -- When the snapshot was taken (trace clock, ns).
  ts TIMESTAMP,
  -- The snapshot's fields, as args.
  arg_set_id ARGSETID,
  -- The raw snapshot proto (base64), a string id.
  base64_proto_id LONG,
  -- The app package.
  package_name STRING,
  -- The window the hierarchy belongs to.
  window_name STRING
) AS
SELECT id, ts, arg_set_id, base64_proto_id, package_name, window_name
FROM __intrinsic_viewcapture;

-- One row per view of a snapshot: its node and parent ids, hashcode, whether it is visible
-- (itself and every ancestor VISIBLE, with an area), its view id and class, fields as args.
CREATE PERFETTO VIEW android_viewcapture_view(
  -- Row id.
  id LONG,
  -- The snapshot (android_viewcapture.id).
  snapshot_id LONG,
  -- The view's fields, as args.
  arg_set_id ARGSETID,
  -- The raw view proto (base64), a string id.
  base64_proto_id LONG,
  -- The view's node id within the snapshot.
  node_id LONG,
  -- The view object's hashcode.
  hashcode LONG,
  -- Whether the view and every ancestor are VISIBLE and it has an area.
  is_visible BOOL,
  -- The parent view's node id.
  parent_id LONG,
  -- The view's resource id name.
  view_id STRING,
  -- The view's class.
  class_name STRING,
  -- Its rect as drawn (android_winscope_trace_rect.id), if computed.
  trace_rect_id LONG
) AS
SELECT id, snapshot_id, arg_set_id, base64_proto_id, node_id, hashcode, is_visible, parent_id,
  view_id, class_name, trace_rect_id
FROM __intrinsic_viewcapture_view;

-- The interned strings each snapshot or view proto refers to.
CREATE PERFETTO VIEW android_viewcapture_interned_data(
  -- The proto referring to the string.
  base64_proto_id LONG,
  -- The field holding the interned id.
  flat_key STRING,
  -- The interned id.
  iid LONG,
  -- The string it stands for.
  deinterned_value STRING
) AS
SELECT base64_proto_id, flat_key, iid, deinterned_value FROM __intrinsic_viewcapture_interned_data;
