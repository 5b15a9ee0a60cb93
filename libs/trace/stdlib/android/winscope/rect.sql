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
