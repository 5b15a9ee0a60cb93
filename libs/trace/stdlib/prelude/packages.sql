-- Android packages installed on the device.

-- One row per installed Android package (packages_list data source).
CREATE PERFETTO VIEW package_list(
  -- Row id.
  id ID,
  package_name STRING,
  uid LONG,
  debuggable LONG,
  profileable_from_shell LONG,
  version_code LONG
) AS
SELECT id, package_name, uid, debuggable, profileable_from_shell, version_code
FROM __intrinsic_package_list;
