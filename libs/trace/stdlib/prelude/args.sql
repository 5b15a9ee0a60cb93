-- The args table: key/value details other rows point at through their arg_set_id.

INCLUDE PERFETTO MODULE prelude.casts;

-- Key/value details attached to other rows (slices, threads, ftrace events, ...): the rows
-- sharing an arg_set_id are one set. EXTRACT_ARG(arg_set_id, 'key') reads one value.
CREATE PERFETTO VIEW args(
  -- Row id.
  id ID,
  arg_set_id ARGSETID,
  flat_key STRING,
  key STRING,
  int_value LONG,
  string_value STRING,
  real_value DOUBLE,
  value_type STRING,
  -- The value of any type as text, as trace_processor renders it (pointers in hex, bools as
  -- true/false).
  display_value STRING
) AS
SELECT
  id, arg_set_id, flat_key, key, int_value, string_value, real_value, value_type,
  CASE value_type
    WHEN 'int' THEN cast_string!(int_value)
    WHEN 'uint' THEN printf('%u', int_value)
    WHEN 'string' THEN string_value
    WHEN 'real' THEN cast_string!(real_value)
    WHEN 'pointer' THEN printf('0x%x', int_value)
    WHEN 'bool' THEN IIF(int_value != 0, 'true', 'false')
    WHEN 'json' THEN string_value
    ELSE NULL
  END AS display_value
FROM __intrinsic_args;
