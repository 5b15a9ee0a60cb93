-- Heap dumps summed up per class: instances, their bytes (all and reachable ones) and what
-- they keep alive (dominate). An instance dominated by another instance of its class adds
-- nothing to the dominated totals, so nested instances are not counted twice.

INCLUDE PERFETTO MODULE android.memory.heap_graph.dominator_tree;

-- Whether a class name is a libcore (java.*, j$.*), Kotlin coroutines / atomicfu, Android
-- array-map / sparse-array or primitive array class.
CREATE PERFETTO FUNCTION _is_libcore_or_array(
  -- The class name.
  obj_name STRING
)
-- 1 when it is one of those classes.
RETURNS BOOL AS
SELECT
  ($obj_name GLOB 'java.*' AND NOT $obj_name GLOB 'java.lang.Class<*>')
  OR $obj_name GLOB 'j$.*'
  OR $obj_name GLOB 'int[[]*'
  OR $obj_name GLOB 'long[[]*'
  OR $obj_name GLOB 'byte[[]*'
  OR $obj_name GLOB 'char[[]*'
  OR $obj_name GLOB 'short[[]*'
  OR $obj_name GLOB 'float[[]*'
  OR $obj_name GLOB 'double[[]*'
  OR $obj_name GLOB 'boolean[[]*'
  OR $obj_name GLOB 'android.util.*Array*'
  OR $obj_name GLOB 'kotlinx.coroutines.*'
  OR $obj_name GLOB 'kotlinx.atomicfu.*';

-- One row per (dump, class).
CREATE PERFETTO TABLE android_heap_graph_class_aggregation(
  -- Process upid.
  upid JOINID(process.id),
  -- Heap dump timestamp.
  graph_sample_ts TIMESTAMP,
  -- Class (heap_graph_class.id).
  type_id LONG,
  -- Class name (deobfuscated if available).
  type_name STRING,
  -- Whether the class is a libcore class (java.*) or an array.
  is_libcore_or_array BOOL,
  -- Instances.
  obj_count LONG,
  -- Their bytes.
  size_bytes LONG,
  -- Their native bytes.
  native_size_bytes LONG,
  -- Reachable instances.
  reachable_obj_count LONG,
  -- Their bytes.
  reachable_size_bytes LONG,
  -- Their native bytes.
  reachable_native_size_bytes LONG,
  -- Objects dominated by instances of this class (reachable objects only).
  dominated_obj_count LONG,
  -- Their bytes.
  dominated_size_bytes LONG,
  -- Their native bytes.
  dominated_native_size_bytes LONG
) AS
WITH
  per_class AS (
    SELECT
      o.upid, o.graph_sample_ts, o.type_id,
      count(1) AS obj_count,
      sum(o.self_size) AS size_bytes,
      sum(o.native_size) AS native_size_bytes,
      sum(iif(o.reachable, 1, 0)) AS reachable_obj_count,
      sum(iif(o.reachable, o.self_size, 0)) AS reachable_size_bytes,
      sum(iif(o.reachable, o.native_size, 0)) AS reachable_native_size_bytes,
      sum(iif(d.topmost_of_its_class, d.dominated_obj_count, 0)) AS dominated_obj_count,
      sum(iif(d.topmost_of_its_class, d.dominated_size_bytes, 0)) AS dominated_size_bytes,
      sum(iif(d.topmost_of_its_class, d.dominated_native_size_bytes, 0))
        AS dominated_native_size_bytes
    FROM heap_graph_object o
    LEFT JOIN __intrinsic_heap_graph_dominator_tree d ON d.object_id = o.id
    GROUP BY 1, 2, 3
  )
SELECT
  p.upid, p.graph_sample_ts, p.type_id,
  coalesce(c.deobfuscated_name, c.name) AS type_name,
  _is_libcore_or_array(coalesce(c.deobfuscated_name, c.name)) AS is_libcore_or_array,
  p.obj_count, p.size_bytes, p.native_size_bytes, p.reachable_obj_count,
  p.reachable_size_bytes, p.reachable_native_size_bytes, p.dominated_obj_count,
  p.dominated_size_bytes, p.dominated_native_size_bytes
FROM per_class p
JOIN heap_graph_class c ON p.type_id = c.id
ORDER BY 1, 2, 3, 4, 5;
