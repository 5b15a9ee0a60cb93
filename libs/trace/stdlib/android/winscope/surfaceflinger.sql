-- SurfaceFlinger: committed transactions (one row per change) with the change flags each
-- row's flags_id names, the displays of layer snapshots, and input windows' fill regions.

-- One row per change SurfaceFlinger committed: a layer or display added, changed or removed,
-- a layer handle destroyed, or a transaction that changed nothing (NOOP).
CREATE PERFETTO VIEW android_surfaceflinger_transaction(
  -- Row id.
  id LONG,
  -- The transaction entry it was committed with (surfaceflinger_transactions.id).
  snapshot_id LONG,
  -- The change's fields, as args.
  arg_set_id LONG,
  -- The transaction the change belongs to.
  transaction_id LONG,
  -- The process that sent the transaction.
  pid LONG,
  -- The uid that sent the transaction.
  uid LONG,
  -- The layer changed, for layer changes.
  layer_id LONG,
  -- The display changed, for display changes.
  display_id LONG,
  -- The change flags (android_surfaceflinger_transaction_flag.flags_id), if any.
  flags_id LONG,
  -- LAYER_CHANGED, LAYER_ADDED, DISPLAY_CHANGED, ... or NOOP.
  transaction_type STRING
) AS
SELECT id, snapshot_id, arg_set_id, transaction_id, pid, uid, layer_id, display_id, flags_id,
  transaction_type
FROM __intrinsic_surfaceflinger_transaction;

-- The change flags (LayerState / DisplayState `what` bits) of each flags_id.
CREATE PERFETTO VIEW android_surfaceflinger_transaction_flag(
  -- The bitset's id.
  flags_id LONG,
  -- The flag's name (eLayerChanged, ePositionChanged, ...).
  flag STRING
) AS
SELECT flags_id, flag FROM __intrinsic_surfaceflinger_transaction_flag;

-- The displays of each SurfaceFlinger layer snapshot.
CREATE PERFETTO VIEW android_surfaceflinger_display(
  -- Row id.
  id LONG,
  -- The snapshot (surfaceflinger_layers_snapshot.id).
  snapshot_id LONG,
  -- Whether the display is on (its layer stack is a valid one).
  is_on LONG,
  -- Whether the display is virtual.
  is_virtual LONG,
  -- Its layer-stack rect as drawn (android_winscope_trace_rect.id).
  trace_rect_id LONG,
  -- The display's id.
  display_id LONG,
  -- The display's name.
  display_name STRING
) AS
SELECT id, snapshot_id, is_on, is_virtual, trace_rect_id, display_id, display_name
FROM __intrinsic_surfaceflinger_display;

-- The rects an input window's trace rect is filled with (its touchable region).
CREATE PERFETTO VIEW android_winscope_fill_region(
  -- Row id.
  id LONG,
  -- The input window's rect (android_winscope_trace_rect.id).
  trace_rect_id LONG,
  -- One rect of the region (android_winscope_rect.id).
  rect_id LONG
) AS
SELECT id, trace_rect_id, rect_id FROM __intrinsic_winscope_fill_region;
