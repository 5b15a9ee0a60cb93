-- Android's aconfig flags ("aflags"), the switches that roll features out across the platform,
-- as the android.aflags data source saw them.

-- One row per flag per snapshot: the android.aflags data source polls the device's flags and
-- each poll records every flag's state at its time (ts).
CREATE PERFETTO VIEW android_aflags(
  -- When the snapshot was taken.
  ts TIMESTAMP,
  -- The flag's package (e.g. "com.android.window.flags").
  package STRING,
  -- The flag's name within its package.
  name STRING,
  -- The namespace the flag belongs to.
  flag_namespace STRING,
  -- The container holding the flag ("system", "product", ...).
  container STRING,
  -- The flag's value at the snapshot.
  value STRING,
  -- The value the flag takes after the next reboot, when a change is staged.
  staged_value STRING,
  -- "read-only" or "read-write".
  permission STRING,
  -- Where the value came from: "default", "server" or "local".
  value_picked_from STRING,
  -- The storage backend: "none", "aconfigd" or "device_config".
  storage_backend STRING,
  -- The flag's value type: "boolean" or "integer".
  type STRING
) AS
SELECT ts, package, name, flag_namespace, container, value, staged_value, permission,
  value_picked_from, storage_backend, type
FROM __intrinsic_android_aflags;
