-- Converting durations between nanoseconds (what every timestamp and duration in a trace is)
-- and other units: time_from_<unit>(x) gives nanoseconds, time_to_<unit>(ns) gives whole
-- units, rounded towards zero.

-- A duration of `nanos` nanoseconds, in nanoseconds.
CREATE PERFETTO FUNCTION time_from_ns(
  -- A duration in nanoseconds.
  nanos LONG
)
-- The same duration in nanoseconds.
RETURNS TIMESTAMP AS
SELECT $nanos;

-- A duration of `micros` microseconds, in nanoseconds.
CREATE PERFETTO FUNCTION time_from_us(
  -- A duration in microseconds.
  micros LONG
)
-- The same duration in nanoseconds.
RETURNS LONG AS
SELECT $micros * 1000;

-- A duration of `millis` milliseconds, in nanoseconds.
CREATE PERFETTO FUNCTION time_from_ms(
  -- A duration in milliseconds.
  millis LONG
)
-- The same duration in nanoseconds.
RETURNS TIMESTAMP AS
SELECT $millis * 1000000;

-- A duration of `seconds` seconds, in nanoseconds.
CREATE PERFETTO FUNCTION time_from_s(
  -- A duration in seconds.
  seconds LONG
)
-- The same duration in nanoseconds.
RETURNS TIMESTAMP AS
SELECT $seconds * 1000000000;

-- A duration of `minutes` minutes, in nanoseconds.
CREATE PERFETTO FUNCTION time_from_min(
  -- A duration in minutes.
  minutes LONG
)
-- The same duration in nanoseconds.
RETURNS TIMESTAMP AS
SELECT $minutes * 60000000000;

-- A duration of `hours` hours, in nanoseconds.
CREATE PERFETTO FUNCTION time_from_hours(
  -- A duration in hours.
  hours LONG
)
-- The same duration in nanoseconds.
RETURNS TIMESTAMP AS
SELECT $hours * 3600000000000;

-- A duration of `days` days, in nanoseconds.
CREATE PERFETTO FUNCTION time_from_days(
  -- A duration in days.
  days LONG
)
-- The same duration in nanoseconds.
RETURNS LONG AS
SELECT $days * 86400000000000;

-- A duration in nanoseconds, in whole nanoseconds (rounded towards zero).
CREATE PERFETTO FUNCTION time_to_ns(
  -- A duration in nanoseconds.
  nanos TIMESTAMP
)
-- The same duration in nanoseconds.
RETURNS LONG AS
SELECT $nanos;

-- A duration in nanoseconds, in whole microseconds (rounded towards zero).
CREATE PERFETTO FUNCTION time_to_us(
  -- A duration in nanoseconds.
  nanos TIMESTAMP
)
-- The same duration in microseconds.
RETURNS LONG AS
SELECT $nanos / 1000;

-- A duration in nanoseconds, in whole milliseconds (rounded towards zero).
CREATE PERFETTO FUNCTION time_to_ms(
  -- A duration in nanoseconds.
  nanos TIMESTAMP
)
-- The same duration in milliseconds.
RETURNS LONG AS
SELECT $nanos / 1000000;

-- A duration in nanoseconds, in whole seconds (rounded towards zero).
CREATE PERFETTO FUNCTION time_to_s(
  -- A duration in nanoseconds.
  nanos TIMESTAMP
)
-- The same duration in seconds.
RETURNS LONG AS
SELECT $nanos / 1000000000;

-- A duration in nanoseconds, in whole minutes (rounded towards zero).
CREATE PERFETTO FUNCTION time_to_min(
  -- A duration in nanoseconds.
  nanos TIMESTAMP
)
-- The same duration in minutes.
RETURNS LONG AS
SELECT $nanos / 60000000000;

-- A duration in nanoseconds, in whole hours (rounded towards zero).
CREATE PERFETTO FUNCTION time_to_hours(
  -- A duration in nanoseconds.
  nanos TIMESTAMP
)
-- The same duration in hours.
RETURNS LONG AS
SELECT $nanos / 3600000000000;

-- A duration in nanoseconds, in whole days (rounded towards zero).
CREATE PERFETTO FUNCTION time_to_days(
  -- A duration in nanoseconds.
  nanos TIMESTAMP
)
-- The same duration in days.
RETURNS LONG AS
SELECT $nanos / 86400000000000;
