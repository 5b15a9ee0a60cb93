#pragma once
// Writes ART heap-dump-shaped traces for tests: HeapGraph packets (objects, types, interned
// field and location names, roots), ArtProcessMetadata and DeobfuscationMapping packets, and a
// process_tree naming the processes — the wire format of real perfetto_hprof output, built
// with proto::Writer.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libs/trace/importers/proto/heap_graph_fields.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"

namespace tw::heap_graph_testing {

struct Object {
  uint64_t id = 0;  // written as id, or as id_delta when `delta` is set
  std::optional<uint64_t> delta;
  uint64_t type_id = 0;
  uint64_t self_size = 0;
  std::vector<uint64_t> field_ids;  // empty: the type names the fields
  std::vector<uint64_t> refs;       // 0: a null field
  uint64_t ref_base = 0;
  std::optional<uint32_t> heap_type;
  std::vector<uint64_t> runtime_internal;
  std::optional<int64_t> native_registry_size;
  std::optional<int64_t> bitmap_id;
  std::optional<uint32_t> bitmap_width;
};

struct Type {
  uint64_t id = 0;
  std::string name;
  std::optional<uint64_t> location_id;
  uint64_t object_size = 0;
  uint64_t superclass_id = 0;
  std::vector<uint64_t> field_ids;
  uint32_t kind = 0;
  uint64_t classloader_id = 0;
};

struct Root {
  uint32_t type = 0;
  std::vector<uint64_t> objects;
};

// One HeapGraph packet's content.
struct Graph {
  int32_t pid = 0;
  uint64_t index = 0;
  bool continued = false;
  std::optional<int64_t> heap_bytes;
  std::vector<Object> objects;
  std::vector<Type> types;
  std::vector<std::pair<uint64_t, std::string>> field_names;
  std::vector<std::pair<uint64_t, std::string>> location_names;
  std::vector<Root> roots;
};

struct Member {
  std::string obfuscated, deobfuscated;
};
struct MappedClass {
  std::string obfuscated, deobfuscated;
  std::vector<Member> fields;
};

class HeapGraphTraceWriter {
 public:
  // A process_tree packet: pid, ppid, cmdline, uid.
  void Process(int32_t pid, int32_t ppid, const std::string& cmdline, int32_t uid = 0) {
    namespace pt = pf::process_tree;
    namespace pp = pf::process_tree_process;
    proto::Writer p;
    p.Varint(pp::kPid, static_cast<uint64_t>(pid));
    p.Varint(pp::kPpid, static_cast<uint64_t>(ppid));
    p.String(pp::kCmdline, cmdline);
    p.Varint(pp::kUid, static_cast<uint64_t>(uid));
    proto::Writer tree;
    tree.Message(pt::kProcesses, p);
    proto::Writer packet;
    packet.Message(pf::trace_packet::kProcessTree, tree);
    trace_.Message(pf::trace::kPacket, packet);
  }

  void HeapGraph(uint32_t seq, int64_t ts, const Graph& g) {
    namespace hg = pf::heap_graph;
    proto::Writer graph;
    graph.Varint(hg::kPid, static_cast<uint64_t>(g.pid));
    if (g.heap_bytes) graph.Int(hg::kHeapBytesAllocated, *g.heap_bytes);
    for (const Object& o : g.objects) graph.Message(hg::kObjects, EncodeObject(o));
    for (const Type& t : g.types) graph.Message(hg::kTypes, EncodeType(t));
    for (const auto& [iid, s] : g.field_names) graph.Message(hg::kFieldNames, Interned(iid, s));
    for (const auto& [iid, s] : g.location_names) {
      graph.Message(hg::kLocationNames, Interned(iid, s));
    }
    for (const Root& r : g.roots) {
      proto::Writer root;
      root.Packed(pf::heap_graph_root::kObjectIds, r.objects);
      root.Varint(pf::heap_graph_root::kRootType, r.type);
      graph.Message(hg::kRoots, root);
    }
    graph.Bool(hg::kContinued, g.continued);
    graph.Varint(hg::kIndex, g.index);
    proto::Writer packet;
    packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, seq);
    packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(ts));
    packet.Message(pf::kTracePacketHeapGraph, graph);
    trace_.Message(pf::trace::kPacket, packet);
  }

  void Deobfuscation(const std::string& package, const std::vector<MappedClass>& classes) {
    namespace dm = pf::deobfuscation_mapping;
    proto::Writer mapping;
    mapping.String(dm::kPackageName, package);
    for (const MappedClass& c : classes) {
      proto::Writer cls;
      cls.String(pf::obfuscated_class::kObfuscatedName, c.obfuscated);
      cls.String(pf::obfuscated_class::kDeobfuscatedName, c.deobfuscated);
      for (const Member& m : c.fields) {
        proto::Writer member;
        member.String(pf::obfuscated_member::kObfuscatedName, m.obfuscated);
        member.String(pf::obfuscated_member::kDeobfuscatedName, m.deobfuscated);
        cls.Message(pf::obfuscated_class::kObfuscatedMembers, member);
      }
      mapping.Message(dm::kObfuscatedClasses, cls);
    }
    proto::Writer packet;
    packet.Message(pf::trace_packet::kDeobfuscationMapping, mapping);
    trace_.Message(pf::trace::kPacket, packet);
  }

  // An ArtProcessMetadata packet; `oome` adds OutOfMemoryError details and the failing
  // thread's Java stack (innermost frame first: method, file, line).
  struct JavaFrame {
    std::string method, file;
    int32_t line = 0;
  };
  void ArtProcessMetadata(int64_t ts, int32_t pid, const std::string& name, int32_t uid,
                          const std::string& package, bool oome,
                          const std::vector<JavaFrame>& stack = {}) {
    namespace am = pf::art_process_metadata;
    proto::Writer m;
    m.Varint(am::kPid, static_cast<uint64_t>(pid));
    m.Varint(am::kUid, static_cast<uint64_t>(uid));
    m.String(am::kProcessName, name);
    if (!package.empty()) m.String(am::kPackageName, package);
    if (oome) {
      m.Varint(am::kOomAllocationSize, 4096);
      m.Varint(am::kOomTotalBytesFree, 1000);
      m.Varint(am::kOomFreeBytesUntilOom, 300);
      m.String(am::kOomErrorMsg, "Failed to allocate 4096 bytes");
      proto::Writer s;
      for (const JavaFrame& f : stack) {
        proto::Writer frame;
        frame.String(pf::java_frame::kMethodName, f.method);
        frame.String(pf::java_frame::kSourceFile, f.file);
        frame.Varint(pf::java_frame::kLineNumber, static_cast<uint64_t>(f.line));
        s.Message(pf::java_stack::kFrames, frame);
      }
      m.Message(am::kOomThreadJavaStack, s);
    }
    proto::Writer packet;
    packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(ts));
    packet.Message(pf::trace_packet::kArtProcessMetadata, m);
    trace_.Message(pf::trace::kPacket, packet);
  }

  std::string Take() { return trace_.Take(); }

 private:
  static proto::Writer Interned(uint64_t iid, const std::string& s) {
    proto::Writer w;
    w.Varint(pf::interned_string::kIid, iid);
    w.String(pf::interned_string::kStr, s);
    return w;
  }
  static proto::Writer EncodeObject(const Object& o) {
    namespace ho = pf::heap_graph_object;
    proto::Writer w;
    if (o.delta) {
      w.Varint(ho::kIdDelta, *o.delta);
    } else {
      w.Varint(ho::kId, o.id);
    }
    w.Varint(ho::kTypeId, o.type_id);
    if (o.self_size) w.Varint(ho::kSelfSize, o.self_size);
    if (o.ref_base) w.Varint(ho::kReferenceFieldIdBase, o.ref_base);
    if (!o.field_ids.empty()) w.Packed(ho::kReferenceFieldId, o.field_ids);
    if (!o.refs.empty()) w.Packed(ho::kReferenceObjectId, o.refs);
    if (o.heap_type) w.Varint(ho::kHeapTypeDelta, *o.heap_type);
    if (!o.runtime_internal.empty()) w.Packed(ho::kRuntimeInternalObjectId, o.runtime_internal);
    if (o.native_registry_size) {
      w.Int(ho::kNativeAllocationRegistrySizeField, *o.native_registry_size);
    }
    if (o.bitmap_id) w.Int(ho::kBitmapIdField, *o.bitmap_id);
    if (o.bitmap_width) w.Varint(ho::kBitmapWidthField, *o.bitmap_width);
    return w;
  }
  static proto::Writer EncodeType(const Type& t) {
    namespace ht = pf::heap_graph_type;
    proto::Writer w;
    w.Varint(ht::kId, t.id);
    if (t.location_id) w.Varint(ht::kLocationId, *t.location_id);
    w.String(ht::kClassName, t.name);
    if (t.object_size) w.Varint(ht::kObjectSize, t.object_size);
    if (t.superclass_id) w.Varint(ht::kSuperclassId, t.superclass_id);
    if (!t.field_ids.empty()) w.Packed(ht::kReferenceFieldId, t.field_ids);
    if (t.kind) w.Varint(ht::kKind, t.kind);
    if (t.classloader_id) w.Varint(ht::kClassloaderId, t.classloader_id);
    return w;
  }

  proto::Writer trace_;
};

}  // namespace tw::heap_graph_testing
