-- The Android device the trace was recorded on, by code name.

-- The device's code name in an Android build fingerprint
-- (brand/product/device:release/id/incremental:type/tags): the part between the second '/' and
-- the following ':'.
CREATE PERFETTO FUNCTION android_device_name_from_fingerprint(
  -- A build fingerprint, e.g. 'google/raven/raven:14/UQ1A.240105.004/11206848:user/release-keys'.
  fingerprint STRING
)
-- The device code name ('raven'), or NULL when the fingerprint has no such part.
RETURNS STRING AS
SELECT NULLIF(str_split(str_split($fingerprint, '/', 2), ':', 0), '');

-- One row per machine whose build fingerprint the trace recorded.
CREATE PERFETTO TABLE android_device_name(
  -- The device code name ('raven', 'oriole', ...).
  name STRING,
  -- The machine (machine.id).
  machine_id JOINID(machine.id)
) AS
SELECT android_device_name_from_fingerprint(android_build_fingerprint) AS name, id AS machine_id
FROM machine
WHERE android_build_fingerprint IS NOT NULL;
