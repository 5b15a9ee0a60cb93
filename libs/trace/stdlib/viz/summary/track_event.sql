-- How the UI groups and orders track-event tracks: merged tracks as one group, siblings
-- ordered as their parent asks (TrackDescriptor.child_ordering: lexicographic, explicit by
-- sibling_order_rank, or chronological by first event).

-- Track-event tracks with what ordering needs: the parent's child ordering, the track's rank
-- among its siblings (0 when unset) and its description.
CREATE PERFETTO TABLE _track_event_tracks_unordered AS
WITH te AS (
  SELECT
    id,
    name,
    parent_id,
    extract_arg(source_arg_set_id, 'child_ordering') AS child_ordering,
    extract_arg(source_arg_set_id, 'sibling_order_rank') AS sibling_order_rank,
    extract_arg(source_arg_set_id, 'description') AS description
  FROM track
  WHERE type GLOB '*_track_event'
)
SELECT
  te.id,
  te.name,
  te.parent_id,
  parent.child_ordering AS parent_ordering,
  COALESCE(te.sibling_order_rank, 0) AS rank,
  te.description
FROM te
LEFT JOIN te AS parent ON parent.id = te.parent_id;

-- The first event (slice, counter or state) on each track-event track that has one. Looked up
-- per track (an index lookup each), not by grouping every event of the trace.
CREATE PERFETTO TABLE _track_event_first_ts AS
SELECT id, first_ts
FROM (
  SELECT
    t.id,
    (
      SELECT MIN(first)
      FROM (
        SELECT MIN(ts) AS first FROM slice WHERE track_id = t.id
        UNION ALL
        SELECT MIN(ts) AS first FROM counter WHERE track_id = t.id
        UNION ALL
        SELECT MIN(ts) AS first FROM state WHERE track_id = t.id
      )
    ) AS first_ts
  FROM _track_event_tracks_unordered AS t
)
WHERE first_ts IS NOT NULL;

-- Each track-event track's position among its siblings, 1-based.
CREATE PERFETTO TABLE _track_event_sibling_order AS
SELECT
  t.id,
  ROW_NUMBER() OVER (
    PARTITION BY t.parent_id
    ORDER BY
      -- Only one of these keys varies within a set of siblings (they share a parent and so its
      -- ordering); ties fall back to the track id.
      IIF(t.parent_ordering = 'explicit', t.rank, NULL),
      IIF(t.parent_ordering = 'chronological', f.first_ts, NULL),
      IIF(t.parent_ordering IS NULL OR t.parent_ordering = 'lexicographic', t.name, NULL),
      t.id
  ) AS order_id
FROM _track_event_tracks_unordered AS t
LEFT JOIN _track_event_first_ts AS f USING (id);

-- The track-event tracks the UI shows, one row per group (tracks merged into one, by
-- track_group_id, or a track on its own), in display order within each parent.
CREATE PERFETTO TABLE _track_event_tracks_ordered_groups(
  -- The process the group belongs to, if any.
  upid JOINID(process.id),
  -- The thread the group belongs to, if any.
  utid JOINID(thread.id),
  -- The parent track.
  parent_id JOINID(track.id),
  -- Whether the tracks are counter tracks.
  is_counter BOOL,
  -- Whether the tracks are state tracks.
  is_state BOOL,
  -- The group's name.
  name STRING,
  -- The group's description (TrackDescriptor.description), if any.
  description STRING,
  -- The counters' unit, for counter tracks.
  unit STRING,
  -- The built-in counter type, for counter tracks.
  builtin_counter_type STRING,
  -- The key sharing a y axis between counter tracks.
  y_axis_share_key STRING,
  -- Whether any track of the group has an event.
  has_data BOOL,
  -- Whether any track of the group has child tracks.
  has_children BOOL,
  -- Whether any track of the group has a track event that carried a callstack.
  has_callstacks BOOL,
  -- The smallest track id of the group.
  min_track_id LONG,
  -- The group's track ids, comma-separated.
  track_ids STRING,
  -- The group's position among its siblings, 1-based.
  order_id LONG
) AS
SELECT
  extract_arg(track.dimension_arg_set_id, 'upid') AS upid,
  extract_arg(track.dimension_arg_set_id, 'utid') AS utid,
  track.parent_id,
  track.type GLOB '*counter*' AS is_counter,
  track.type GLOB '*state*' AS is_state,
  track.name,
  MIN(extract_arg(track.source_arg_set_id, 'description')) AS description,
  MIN(counter_track.unit) AS unit,
  MIN(extract_arg(track.source_arg_set_id, 'builtin_counter_type')) AS builtin_counter_type,
  MIN(extract_arg(track.source_arg_set_id, 'y_axis_share_key')) AS y_axis_share_key,
  MAX(f.id IS NOT NULL) AS has_data,
  MAX(EXISTS (SELECT 1 FROM track AS child WHERE child.parent_id = o.id
                AND child.type GLOB '*_track_event')) AS has_children,
  MAX(EXISTS (SELECT 1 FROM __intrinsic_track_event_callstacks AS cs
                WHERE cs.track_id = o.id)) AS has_callstacks,
  MIN(o.id) AS min_track_id,
  GROUP_CONCAT(o.id) AS track_ids,
  MIN(o.order_id) AS order_id
FROM _track_event_sibling_order AS o
JOIN track USING (id)
LEFT JOIN counter_track USING (id)
LEFT JOIN _track_event_first_ts AS f USING (id)
-- A group id and a lone track's id may be equal numbers: both keys keep them apart.
GROUP BY track.track_group_id, COALESCE(track.track_group_id, track.id)
ORDER BY track.parent_id, MIN(o.order_id);
