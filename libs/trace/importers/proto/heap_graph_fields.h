#pragma once
// Field numbers of ART's Java heap profiling messages (wire-format facts, as in
// perfetto_fields.h): HeapGraph and its parts (protos/third_party/android/art/heap_graph.proto),
// ArtProcessMetadata (protos/perfetto/trace/profiling/art_process_metadata.proto) and
// DeobfuscationMapping (protos/perfetto/trace/profiling/deobfuscation.proto).

#include <cstdint>

namespace tw::pf {

// TracePacket extension ArtHeapGraphTracePacket.heap_graph.
inline constexpr uint32_t kTracePacketHeapGraph = 56;  // HeapGraph

namespace heap_graph {
inline constexpr uint32_t kPid = 1;                 // int32
inline constexpr uint32_t kObjects = 2;             // repeated HeapGraphObject
inline constexpr uint32_t kFieldNames = 4;          // repeated InternedString
inline constexpr uint32_t kContinued = 5;           // bool
inline constexpr uint32_t kIndex = 6;               // uint64
inline constexpr uint32_t kRoots = 7;               // repeated HeapGraphRoot
inline constexpr uint32_t kLocationNames = 8;       // repeated InternedString
inline constexpr uint32_t kTypes = 9;               // repeated HeapGraphType
inline constexpr uint32_t kHeapBytesAllocated = 10; // int64
}  // namespace heap_graph

namespace heap_graph_root {
inline constexpr uint32_t kObjectIds = 1;  // repeated uint64 (packed)
inline constexpr uint32_t kRootType = 2;   // HeapGraphRoot.Type
}  // namespace heap_graph_root

namespace heap_graph_type {
inline constexpr uint32_t kId = 1;                // uint64
inline constexpr uint32_t kLocationId = 2;        // uint64
inline constexpr uint32_t kClassName = 3;         // string
inline constexpr uint32_t kObjectSize = 4;        // uint64
inline constexpr uint32_t kSuperclassId = 5;      // uint64
inline constexpr uint32_t kReferenceFieldId = 6;  // repeated uint64 (packed)
inline constexpr uint32_t kKind = 7;              // HeapGraphType.Kind
inline constexpr uint32_t kClassloaderId = 8;     // uint64
}  // namespace heap_graph_type

namespace heap_graph_object {
inline constexpr uint32_t kId = 1;                         // uint64 (oneof identifier)
inline constexpr uint32_t kTypeId = 2;                     // uint64
inline constexpr uint32_t kSelfSize = 3;                   // uint64
inline constexpr uint32_t kReferenceFieldId = 4;           // repeated uint64 (packed)
inline constexpr uint32_t kReferenceObjectId = 5;          // repeated uint64 (packed)
inline constexpr uint32_t kReferenceFieldIdBase = 6;       // uint64 (base of reference_object_id)
inline constexpr uint32_t kIdDelta = 7;                    // uint64 (oneof identifier)
inline constexpr uint32_t kNativeAllocationRegistrySizeField = 8;  // int64
inline constexpr uint32_t kHeapTypeDelta = 9;              // HeapGraphObject.HeapType
inline constexpr uint32_t kRuntimeInternalObjectId = 10;   // repeated uint64 (packed)
inline constexpr uint32_t kBitmapIdField = 11;             // int64
inline constexpr uint32_t kBitmapSourceIdField = 12;       // int64
inline constexpr uint32_t kBitmapWidthField = 13;          // uint32
inline constexpr uint32_t kBitmapHeightField = 14;         // uint32
}  // namespace heap_graph_object

namespace art_process_metadata {
inline constexpr uint32_t kPid = 1;                   // int32
inline constexpr uint32_t kUid = 2;                   // int32
inline constexpr uint32_t kProcessName = 3;           // string
inline constexpr uint32_t kPackageName = 4;           // string
inline constexpr uint32_t kOomAllocationSize = 5;     // uint64
inline constexpr uint32_t kOomTotalBytesFree = 6;     // uint64
inline constexpr uint32_t kOomFreeBytesUntilOom = 7;  // uint64
inline constexpr uint32_t kOomThreadJavaStack = 8;    // JavaStack
inline constexpr uint32_t kOomErrorMsg = 9;           // string
}  // namespace art_process_metadata

namespace java_stack {
inline constexpr uint32_t kFrames = 1;  // repeated JavaFrame
}  // namespace java_stack

namespace java_frame {
inline constexpr uint32_t kMethodName = 1;  // string
inline constexpr uint32_t kSourceFile = 2;  // string
inline constexpr uint32_t kLineNumber = 3;  // int32
}  // namespace java_frame

namespace deobfuscation_mapping {
inline constexpr uint32_t kPackageName = 1;       // string
inline constexpr uint32_t kVersionCode = 2;       // int64
inline constexpr uint32_t kObfuscatedClasses = 3; // repeated ObfuscatedClass
}  // namespace deobfuscation_mapping

namespace obfuscated_class {
inline constexpr uint32_t kObfuscatedName = 1;     // string
inline constexpr uint32_t kDeobfuscatedName = 2;   // string
inline constexpr uint32_t kObfuscatedMembers = 3;  // repeated ObfuscatedMember
inline constexpr uint32_t kObfuscatedMethods = 4;  // repeated ObfuscatedMember
}  // namespace obfuscated_class

namespace obfuscated_member {
inline constexpr uint32_t kObfuscatedName = 1;       // string
inline constexpr uint32_t kDeobfuscatedName = 2;     // string
inline constexpr uint32_t kObfuscatedLineStart = 3;  // uint32
inline constexpr uint32_t kObfuscatedLineEnd = 4;    // uint32
inline constexpr uint32_t kSourceLineStart = 5;      // uint32
inline constexpr uint32_t kSourceLineEnd = 6;        // uint32
}  // namespace obfuscated_member

}  // namespace tw::pf
