#pragma once
// Java heap graphs (ART heap dumps): the dumps, the classes and objects on the managed heap,
// the references between objects, the primitive field values the runtime captured for some
// objects (bitmaps), and the details ART records when an OutOfMemoryError triggered a dump
// (trace_processor's heap_graph_* tables).

#include "libs/trace/storage/table_declaration.h"

namespace tw {

// clang-format off
#define TW_HEAP_GRAPH_TABLE(TABLE, COLUMN)                                                       \
  TABLE(HeapGraphTable, heap_graph, "The heap graphs (heap dumps) captured during the trace.")  \
  COLUMN(ts, Int64, kNone, {}, "When the heap was dumped (trace clock, ns).")                    \
  COLUMN(upid, Uint32, kNone, {}, "The process whose heap was dumped (process.upid).")           \
  COLUMN(dump_reason, String, kNone, {},                                                         \
         "Why the heap was dumped, when known: 'OOME' for an OutOfMemoryError.")                 \
  COLUMN(heap_size, OptInt64, kNone, {},                                                         \
         "Bytes allocated on the heap, as the runtime reported (HeapGraph.heap_bytes_allocated).") \
  COLUMN(truncated, Uint32, kNone, {}, "1 when packets of the dump were lost (incomplete graph).")
// clang-format on
TW_DEFINE_TABLE(TW_HEAP_GRAPH_TABLE)

// clang-format off
#define TW_HEAP_GRAPH_CLASS_TABLE(TABLE, COLUMN)                                                 \
  TABLE(HeapGraphClassTable, heap_graph_class,                                                   \
        "The classes (types) of objects on the managed heap, one row per class per dump.")     \
  COLUMN(name, String, kNone, {}, "The class name, possibly obfuscated (e.g. 'a', 'a[]').")      \
  COLUMN(deobfuscated_name, String, kNone, {},                                                   \
         "The deobfuscated name, when the class was obfuscated and a mapping named it.")        \
  COLUMN(location, String, kNone, {}, "The APK / dex / JAR file the class is in, if known.")     \
  COLUMN(superclass_id, OptUint32, kNone, {}, "The superclass (heap_graph_class.id), if known.") \
  COLUMN(classloader_id, OptUint32, kNone, {},                                                   \
         "The object of the class loader that loaded the class (heap_graph_object.id).")         \
  COLUMN(kind, String, kNone, {},                                                                \
         "What kind of class it is (KIND_NORMAL, KIND_ARRAY, KIND_WEAK_REFERENCE, ...).")
// clang-format on
TW_DEFINE_TABLE(TW_HEAP_GRAPH_CLASS_TABLE)

// clang-format off
#define TW_HEAP_GRAPH_OBJECT_TABLE(TABLE, COLUMN)                                                \
  TABLE(HeapGraphObjectTable, heap_graph_object,                                                 \
        "The objects on the managed (Dalvik / ART) heap. The rows of one (upid, "                \
        "graph_sample_ts) are one dump.")                                                         \
  COLUMN(upid, Uint32, kNone, {}, "The process whose heap holds the object.")                    \
  COLUMN(graph_sample_ts, Int64, kNone, {}, "When the dump was taken (trace clock, ns).")         \
  COLUMN(self_size, Int64, kNone, {}, "Bytes the object itself takes on the Java heap.")          \
  COLUMN(native_size, Int64, kNone, {},                                                          \
         "Approximate native memory the object keeps alive, as its NativeAllocationRegistry "     \
         "said (0 when none).")                                                                  \
  COLUMN(reference_set_id, OptUint32, kNone, {},                                                 \
         "Join key with heap_graph_reference: the references this object holds (NULL: none).")   \
  COLUMN(reachable, Int32, kNone, {},                                                            \
         "1 when the object is reachable from a GC root; 0 for garbage not yet collected.")      \
  COLUMN(heap_type, String, kNone, {},                                                           \
         "The ART heap the object is on (HEAP_TYPE_APP, HEAP_TYPE_ZYGOTE, "                      \
         "HEAP_TYPE_BOOT_IMAGE), if known.")                                                     \
  COLUMN(type_id, Uint32, kNone, {}, "The object's class (heap_graph_class.id).")                \
  COLUMN(root_type, String, kNone, {}, "If not NULL the object is a GC root, of this kind.")     \
  COLUMN(root_distance, Int32, kHidden, -1,                                                      \
         "Distance from the nearest GC root (-1: not computed).")                                \
  COLUMN(object_data_id, OptUint32, kNone, {},                                                   \
         "The object's captured field values (heap_graph_object_data.id), if any.")
// clang-format on
TW_DEFINE_TABLE(TW_HEAP_GRAPH_OBJECT_TABLE)

// clang-format off
#define TW_HEAP_GRAPH_REFERENCE_TABLE(TABLE, COLUMN)                                             \
  TABLE(HeapGraphReferenceTable, heap_graph_reference,                                           \
        "References between heap objects: the rows of one reference_set_id are the fields (and " \
        "runtime-internal references) of one object.")                                           \
  COLUMN(reference_set_id, Uint32, kSorted, {},                                                  \
         "Join key with heap_graph_object.reference_set_id.")                                    \
  COLUMN(owner_id, Uint32, kNone, {}, "The object holding the reference (heap_graph_object.id).") \
  COLUMN(owned_id, OptUint32, kNone, {},                                                         \
         "The object referred to (heap_graph_object.id); NULL for a field holding null.")        \
  COLUMN(field_name, String, kNone, {}, "The field holding the reference, e.g. 'Foo.name'.")      \
  COLUMN(field_type_name, String, kNone, {}, "The field's static type, e.g. java.lang.String.")  \
  COLUMN(deobfuscated_field_name, String, kNone, {},                                             \
         "The deobfuscated field name, when it was obfuscated and a mapping named it.")
// clang-format on
TW_DEFINE_TABLE(TW_HEAP_GRAPH_REFERENCE_TABLE)

// clang-format off
#define TW_HEAP_GRAPH_OBJECT_DATA_TABLE(TABLE, COLUMN)                                           \
  TABLE(HeapGraphObjectDataTable, heap_graph_object_data,                                        \
        "Captured data of heap objects (heap_graph_object.object_data_id): their primitive "     \
        "field values and, for HPROF dumps, string contents and primitive arrays.")              \
  COLUMN(field_set_id, OptUint32, kNone, {},                                                     \
         "Join key with heap_graph_primitive: the object's primitive field values.")             \
  COLUMN(value_string, String, kNone, {}, "The value of a java.lang.String (HPROF dumps).")      \
  COLUMN(array_element_type, String, kNone, {}, "Element type of a primitive array (HPROF).")    \
  COLUMN(array_element_count, OptUint32, kNone, {}, "Length of a primitive array (HPROF).")      \
  COLUMN(array_data_id, OptUint32, kNone, {}, "Opaque id of a primitive array's bytes (HPROF).") \
  COLUMN(array_data_hash, OptInt64, kNone, {}, "Hash of a primitive array's bytes (HPROF).")
// clang-format on
TW_DEFINE_TABLE(TW_HEAP_GRAPH_OBJECT_DATA_TABLE)

// clang-format off
#define TW_HEAP_GRAPH_PRIMITIVE_TABLE(TABLE, COLUMN)                                             \
  TABLE(HeapGraphPrimitiveTable, heap_graph_primitive,                                           \
        "Primitive field values of heap objects, one row per field; the value is in the "        \
        "column of the field's type.")                                                           \
  COLUMN(field_set_id, Uint32, kSorted, {}, "Join key with heap_graph_object_data.field_set_id.") \
  COLUMN(field_name, String, kNone, {}, "The field, e.g. android.graphics.Bitmap.mWidth.")        \
  COLUMN(field_type, String, kNone, {}, "The primitive type: boolean, byte, char, short, int, "   \
         "long, float or double.")                                                               \
  COLUMN(bool_value, OptUint32, kNone, {}, "Value of a boolean field (0 or 1).")                 \
  COLUMN(byte_value, OptInt64, kNone, {}, "Value of a byte field.")                              \
  COLUMN(char_value, OptInt64, kNone, {}, "Value of a char field (its code point).")             \
  COLUMN(short_value, OptInt64, kNone, {}, "Value of a short field.")                            \
  COLUMN(int_value, OptInt64, kNone, {}, "Value of an int field.")                               \
  COLUMN(long_value, OptInt64, kNone, {}, "Value of a long field.")                              \
  COLUMN(float_value, OptDouble, kNone, {}, "Value of a float field.")                           \
  COLUMN(double_value, OptDouble, kNone, {}, "Value of a double field.")
// clang-format on
TW_DEFINE_TABLE(TW_HEAP_GRAPH_PRIMITIVE_TABLE)

// clang-format off
#define TW_HEAP_GRAPH_THREAD_CALLSITE_TABLE(TABLE, COLUMN)                                       \
  TABLE(HeapGraphThreadCallsiteTable, heap_graph_thread_callsite,                                \
        "Java callstacks of threads when a heap graph was dumped (the allocating thread of an "  \
        "OutOfMemoryError).")                                                                    \
  COLUMN(heap_graph_id, Uint32, kNone, {}, "The dump (heap_graph.id).")                          \
  COLUMN(utid, Uint32, kNone, {}, "The thread (thread.id).")                                     \
  COLUMN(callsite_id, OptUint32, kNone, {},                                                      \
         "The leaf frame's callsite (stack_profile_callsite.id); NULL for an empty stack.")
// clang-format on
TW_DEFINE_TABLE(TW_HEAP_GRAPH_THREAD_CALLSITE_TABLE)

// clang-format off
#define TW_HEAP_GRAPH_JAVA_OOME_DETAILS_TABLE(TABLE, COLUMN)                                     \
  TABLE(HeapGraphJavaOomeDetailsTable, heap_graph_java_oome_details,                             \
        "Details of the Java OutOfMemoryErrors that triggered heap dumps.")                     \
  COLUMN(heap_graph_id, Uint32, kNone, {}, "The dump the error triggered (heap_graph.id).")      \
  COLUMN(allocation_size_bytes, Int64, kNone, {}, "Size of the allocation that failed.")         \
  COLUMN(total_bytes_free, Int64, kNone, {}, "Free bytes before the heap would need to grow.")   \
  COLUMN(free_bytes_until_oom, Int64, kNone, {}, "Free bytes left before the heap's maximum.")   \
  COLUMN(error_msg, String, kNone, {}, "The OutOfMemoryError's message, if recorded.")
// clang-format on
TW_DEFINE_TABLE(TW_HEAP_GRAPH_JAVA_OOME_DETAILS_TABLE)

}  // namespace tw
