-- Java OutOfMemoryErrors that made ART dump the heap: what the failing allocation asked for
-- and how much room the heap had left (the dump itself is the heap_graph row with
-- dump_reason 'OOME'; the failing thread's Java callstack is in heap_graph_thread_callsite).

-- Details of the Java OutOfMemoryErrors that triggered heap dumps, one row per dump.
CREATE PERFETTO VIEW android_heap_graph_java_oome_details(
  -- Row id.
  id ID,
  -- The heap dump the error triggered.
  heap_graph_id JOINID(heap_graph.id),
  -- Size of the allocation that failed (bytes).
  allocation_size_bytes LONG,
  -- Free bytes on the Java heap before it would have needed to grow.
  total_bytes_free LONG,
  -- Free bytes left before the heap reaches its maximum size.
  free_bytes_until_oom LONG,
  -- The OutOfMemoryError's message, if recorded.
  error_msg STRING
) AS
SELECT id, heap_graph_id, allocation_size_bytes, total_bytes_free, free_bytes_until_oom,
  error_msg
FROM __intrinsic_heap_graph_java_oome_details;
