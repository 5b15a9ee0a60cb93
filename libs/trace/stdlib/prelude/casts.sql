-- Casts as trace_processor's prelude spells them: stdlib modules and SQL written for Perfetto
-- use them.

-- The value as an integer (SQLite's CAST(... AS INT)).
CREATE PERFETTO MACRO cast_int(
  -- Any expression.
  value Expr
)
-- The integer.
RETURNS Expr AS CAST($value AS INT);

-- The value as a real number (SQLite's CAST(... AS REAL)).
CREATE PERFETTO MACRO cast_double(
  -- Any expression.
  value Expr
)
-- The real number.
RETURNS Expr AS CAST($value AS REAL);

-- The value as text (SQLite's CAST(... AS TEXT)).
CREATE PERFETTO MACRO cast_string(
  -- Any expression.
  value Expr
)
-- The text.
RETURNS Expr AS CAST($value AS TEXT);
