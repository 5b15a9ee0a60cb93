-- The heap as a tree of classes: every object reachable from a GC root hangs under the object
-- that reaches it first breadth-first from the roots (roots in class-name then id order,
-- weak / finalizer / phantom referents not followed), and objects merge into one node per path
-- of class names from their root — a chain of objects of one class is one step. Native memory
-- kept alive by a node's objects is a "[native] <class>" child node. Computed in C++
-- (__intrinsic_heap_graph_shortest_path_tree, __intrinsic_heap_graph_class_tree).

INCLUDE PERFETTO MODULE android.memory.heap_graph.excluded_refs;

-- Every object reachable from a root, with the object that first reaches it.
CREATE PERFETTO TABLE _heap_graph_object_min_depth_tree(
  -- The object (heap_graph_object.id).
  id LONG,
  -- The object reaching it first; NULL for a root.
  parent_id LONG
) AS
SELECT object_id AS id, parent_id
FROM __intrinsic_heap_graph_shortest_path_tree
ORDER BY id;

-- The class tree: one node per (dump, path of class names from a root).
CREATE PERFETTO TABLE _heap_graph_class_tree(
  -- When the dump was taken.
  graph_sample_ts TIMESTAMP,
  -- The dumped process.
  upid JOINID(process.id),
  -- The node.
  id LONG,
  -- Its parent node; NULL at a root.
  parent_id LONG,
  -- The class name (deobfuscated when known), "[native] <class>" for native memory.
  name STRING,
  -- The roots' kind, for a root node.
  root_type STRING,
  -- The objects' ART heap; HEAP_TYPE_NATIVE for native memory.
  heap_type STRING,
  -- Objects in the node.
  self_count LONG,
  -- Their bytes.
  self_size LONG,
  -- A hash of the node's path.
  path_hash_stable LONG
) AS
SELECT
  graph_sample_ts, upid, id, parent_id,
  iif(is_native, '[native] ' || name, name) AS name,
  root_type, heap_type, self_count, self_size, path_hash AS path_hash_stable
FROM __intrinsic_heap_graph_class_tree
ORDER BY id;
