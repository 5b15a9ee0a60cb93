-- The rectangles winscope geometry refers to.

-- Rectangles (origin and size, in pixels), each stored once.
CREATE PERFETTO VIEW android_winscope_rect(
  -- The rectangle's id (what *_rect_id columns refer to).
  id LONG,
  -- Left edge, in pixels.
  x DOUBLE,
  -- Top edge, in pixels.
  y DOUBLE,
  -- Width, in pixels.
  w DOUBLE,
  -- Height, in pixels.
  h DOUBLE
) AS
SELECT id, x, y, w, h FROM __intrinsic_winscope_rect;

-- Affine transforms winscope rects are drawn with: x' = dsdx*x + dtdx*y + tx,
-- y' = dtdy*x + dsdy*y + ty.
CREATE PERFETTO VIEW android_winscope_transform(
  -- The transform's id (what transform_id columns refer to).
  id LONG,
  -- x scale (and rotation) term.
  dsdx DOUBLE,
  -- x shear (and rotation) term.
  dtdx DOUBLE,
  -- x translation, in pixels.
  tx DOUBLE,
  -- y shear (and rotation) term.
  dtdy DOUBLE,
  -- y scale (and rotation) term.
  dsdy DOUBLE,
  -- y translation, in pixels.
  ty DOUBLE
) AS
SELECT id, dsdx, dtdx, tx, dtdy, dsdy, ty FROM __intrinsic_winscope_transform;

-- Rectangles as winscope entries draw them: geometry plus depth, visibility and opacity.
CREATE PERFETTO VIEW android_winscope_trace_rect(
  -- Row id (what trace_rect_id columns refer to).
  id LONG,
  -- The geometry (android_winscope_rect.id).
  rect_id LONG,
  -- The group the rect is drawn in.
  group_id LONG,
  -- Its z position.
  depth LONG,
  -- 1 for an input spy window's rect.
  is_spy LONG,
  -- 1 when what it stands for is visible.
  is_visible LONG,
  -- Its opacity (0..1), if known.
  opacity DOUBLE,
  -- Its transform, if it has one.
  transform_id LONG,
  -- Border width, if drawn with one.
  border_width LONG,
  -- Border color, if drawn with one.
  border_color DOUBLE
) AS
SELECT id, rect_id, group_id, depth, is_spy, is_visible, opacity, transform_id, border_width,
  border_color
FROM __intrinsic_winscope_trace_rect;
