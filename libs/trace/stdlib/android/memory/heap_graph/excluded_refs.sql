-- References the garbage collector does not follow: the referent of a weak, finalizer or
-- phantom reference does not keep its object alive.

-- The heap_graph_reference rows that hold a weak, finalizer or phantom reference's referent.
CREATE PERFETTO TABLE _excluded_refs(
  -- The reference (heap_graph_reference.id).
  id LONG
) AS
SELECT ref.id
FROM heap_graph_object o
JOIN heap_graph_class c ON o.type_id = c.id
JOIN heap_graph_reference ref USING (reference_set_id)
WHERE c.kind IN ('KIND_WEAK_REFERENCE', 'KIND_FINALIZER_REFERENCE', 'KIND_PHANTOM_REFERENCE')
  AND ref.field_name = 'java.lang.ref.Reference.referent'
ORDER BY ref.id;
