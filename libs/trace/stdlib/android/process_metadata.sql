-- Each process's Android uid, user, package, version, kernel-task flag.

INCLUDE PERFETTO MODULE android.user_list;

-- trace_processor's package_list (from the packages_list data source), unless the prelude
-- already provides it.
CREATE VIEW IF NOT EXISTS package_list AS
SELECT id, package_name, uid, debuggable, profileable_from_shell, version_code
FROM __intrinsic_package_list;

-- How many packages share each uid.
CREATE PERFETTO TABLE _uid_package_count(uid LONG, cnt LONG) AS
SELECT uid, COUNT(*) AS cnt FROM package_list GROUP BY uid ORDER BY uid;

-- The app id of the package behind an app id: SDK sandbox (2xxxx) and PCC (3xxxx) processes
-- run on behalf of the app 10000 / 20000 ids below theirs.
CREATE PERFETTO FUNCTION _app_id_to_base_package(app_id LONG)
RETURNS LONG AS
SELECT CASE
  WHEN $app_id >= 20000 AND $app_id < 30000 THEN $app_id - 10000
  WHEN $app_id >= 30000 AND $app_id < 40000 THEN $app_id - 20000
  ELSE $app_id
END;

-- The package a process runs: among the packages of its uid (all of them when the uid has one
-- package, else those whose name prefixes the process name) or, for isolated processes
-- (uid 90000-99999), the packages prefixing the process name before any ':', the one whose name
-- is closest in length to the process name. At most one row.
CREATE PERFETTO FUNCTION _android_package_for_process(
  uid LONG, uid_count LONG, process_name STRING
)
RETURNS TABLE(package_name STRING, version_code LONG, debuggable BOOL) AS
SELECT package_name, version_code, debuggable
FROM package_list
WHERE
  (uid = $uid AND ($uid_count = 1 OR $process_name GLOB package_name || '*'))
  OR ($uid >= 90000 AND $uid < 100000
      AND str_split($process_name, ':', 0) GLOB package_name || '*')
ORDER BY length($process_name) - length(package_name), id
LIMIT 1;

-- Kernel tasks: pid 0, children of pid 0 and children of kthreadd.
CREATE PERFETTO TABLE _android_kernel_tasks(upid LONG) AS
SELECT child.upid
FROM process AS child
LEFT JOIN process AS parent ON parent.upid = child.parent_upid
WHERE child.pid = 0 OR parent.pid = 0 OR parent.name = 'kthreadd'
ORDER BY child.upid;

-- Whether the process `upid` is a kernel task.
CREATE PERFETTO FUNCTION android_is_kernel_task(
  -- A process (process.id).
  upid LONG
)
RETURNS BOOL AS
SELECT EXISTS (SELECT 1 FROM _android_kernel_tasks WHERE upid = $upid);

-- One row per process with its Android identity. process_name prefers the cmdline when the
-- name looks cut at 15 characters (a racy capture of a freshly forked process).
CREATE PERFETTO TABLE android_process_metadata(
  -- The process (process.id).
  upid JOINID(process.id),
  -- Its pid.
  pid LONG,
  -- Its name, without the ":<subprocess>" suffix of Android sub-processes.
  process_name STRING,
  -- Its Linux uid.
  uid LONG,
  -- 1 when several packages share the uid (the package is then a guess).
  shared_uid BOOL,
  -- The Android user (uid / 100000).
  user_id LONG,
  -- That user's type, when the user_list data source says.
  user_type STRING,
  -- The package the process belongs to, when known.
  package_name STRING,
  -- That package's installed version code.
  version_code LONG,
  -- 1 when that package is debuggable.
  debuggable LONG,
  -- 1 for kernel threads (kthreadd and its children).
  is_kernel_task BOOL
) AS
SELECT
  p.upid,
  p.pid,
  IIF(
    length(p.name) = 15
      AND (p.cmdline IN ('zygote', 'zygote64', '<pre-initialized>')
           OR p.cmdline GLOB '*' || p.name),
    p.cmdline,
    p.name
  ) AS process_name,
  p.android_appid AS uid,
  p.android_user_id AS user_id,
  u.type AS user_type,
  IIF(pc.cnt > 1, TRUE, NULL) AS shared_uid,
  pkg.package_name,
  pkg.version_code,
  pkg.debuggable,
  android_is_kernel_task(p.upid) AS is_kernel_task
FROM process AS p
LEFT JOIN _uid_package_count AS pc ON pc.uid = _app_id_to_base_package(p.android_appid)
LEFT JOIN _android_package_for_process(
  _app_id_to_base_package(p.android_appid), pc.cnt, p.name
) AS pkg
LEFT JOIN android_user_list AS u ON u.android_user_id = p.android_user_id
ORDER BY p.upid;
