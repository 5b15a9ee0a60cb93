-- Java heap graphs (ART heap dumps): the dumps, the classes and objects on the managed heap,
-- the references between objects and the data captured for some objects.

-- The heap graphs (heap dumps) captured during the trace.
CREATE PERFETTO VIEW heap_graph(
  -- Row id.
  id ID,
  ts TIMESTAMP,
  upid JOINID(process.upid),
  dump_reason STRING,
  heap_size LONG,
  truncated BOOL
) AS
SELECT id, ts, upid, dump_reason, heap_size, truncated FROM __intrinsic_heap_graph;

-- The classes of objects on the managed heap, one row per class per dump.
CREATE PERFETTO VIEW heap_graph_class(
  -- Row id.
  id ID,
  name STRING,
  deobfuscated_name STRING,
  location STRING,
  superclass_id JOINID(heap_graph_class.id),
  classloader_id LONG,
  kind STRING
) AS
SELECT id, name, deobfuscated_name, location, superclass_id, classloader_id, kind
FROM __intrinsic_heap_graph_class;

-- The objects on the managed heap; the rows of one (upid, graph_sample_ts) are one dump.
CREATE PERFETTO VIEW heap_graph_object(
  -- Row id.
  id ID,
  upid JOINID(process.id),
  graph_sample_ts TIMESTAMP,
  self_size LONG,
  native_size LONG,
  reference_set_id JOINID(heap_graph_reference.reference_set_id),
  reachable BOOL,
  heap_type STRING,
  type_id JOINID(heap_graph_class.id),
  root_type STRING,
  root_distance LONG,
  object_data_id LONG
) AS
SELECT
  id, upid, graph_sample_ts, self_size, native_size, reference_set_id, reachable, heap_type,
  type_id, root_type, root_distance, object_data_id
FROM __intrinsic_heap_graph_object;

-- References between heap objects: the rows of one reference_set_id are one object's.
CREATE PERFETTO VIEW heap_graph_reference(
  -- Row id.
  id ID,
  reference_set_id JOINID(heap_graph_object.reference_set_id),
  owner_id JOINID(heap_graph_object.id),
  owned_id JOINID(heap_graph_object.id),
  field_name STRING,
  field_type_name STRING,
  deobfuscated_field_name STRING
) AS
SELECT id, reference_set_id, owner_id, owned_id, field_name, field_type_name,
  deobfuscated_field_name
FROM __intrinsic_heap_graph_reference;

-- Captured data of heap objects (heap_graph_object.object_data_id).
CREATE PERFETTO VIEW heap_graph_object_data(
  -- Row id.
  id ID,
  field_set_id JOINID(heap_graph_primitive.field_set_id),
  value_string STRING,
  array_element_type STRING,
  array_element_count LONG,
  array_data_id LONG,
  array_data_hash LONG
) AS
SELECT id, field_set_id, value_string, array_element_type, array_element_count, array_data_id,
  array_data_hash
FROM __intrinsic_heap_graph_object_data;

-- Primitive field values of heap objects, one row per field.
CREATE PERFETTO VIEW heap_graph_primitive(
  -- Row id.
  id ID,
  field_set_id JOINID(heap_graph_object_data.field_set_id),
  field_name STRING,
  field_type STRING,
  bool_value LONG,
  byte_value LONG,
  char_value LONG,
  short_value LONG,
  int_value LONG,
  long_value LONG,
  float_value DOUBLE,
  double_value DOUBLE
) AS
SELECT id, field_set_id, field_name, field_type, bool_value, byte_value, char_value,
  short_value, int_value, long_value, float_value, double_value
FROM __intrinsic_heap_graph_primitive;

-- Java callstacks of threads when a heap graph was dumped.
CREATE PERFETTO VIEW heap_graph_thread_callsite(
  -- Row id.
  id ID,
  heap_graph_id JOINID(heap_graph.id),
  utid JOINID(thread.id),
  callsite_id JOINID(stack_profile_callsite.id)
) AS
SELECT id, heap_graph_id, utid, callsite_id FROM __intrinsic_heap_graph_thread_callsite;
