#pragma once
// Turns ART heap dumps (HeapGraphPacketData) into trace_processor's heap_graph_* rows. A dump
// is the packets of one sequence up to the one with continued = false (or the end of the
// trace); objects and classes get rows as they first show — an object referred to before its
// own entry, or a class before its type entry, gets its row then and is filled in later. When
// the dump is complete it is finalized: types give their objects sizes and their fields names
// (walking superclasses for the field order), classes get names, locations, kinds, class
// loaders and superclasses, roots are marked and everything reachable from them found, native
// sizes are attributed through sun.misc.Cleaner → NativeAllocationRegistry, and the heap_graph
// row is written. Missing or malformed data is counted in the heap_graph_* stats.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/heap_graph_events.h"

namespace tw {

struct TraceContext;

class HeapGraphTracker {
 public:
  explicit HeapGraphTracker(TraceContext* ctx);

  void OnHeapGraph(int64_t ts, const HeapGraphPacketData& packet);
  // Finalizes the dumps the trace ended in the middle of (heap_graph_non_finalized_graph).
  void Finish();

  // Class rows by (package, bare class name) and reference rows by field name, for
  // deobfuscation. A class whose package is unknown is under nullopt.
  const std::vector<uint32_t>* ClassRows(std::optional<StringId> package,
                                         std::string_view bare_name) const;
  const std::vector<uint32_t>* ReferenceRowsForField(StringId field_name) const;

 private:
  struct InternedField {
    StringId name = kNullStringId;
    StringId type_name = kNullStringId;
  };
  struct Dump {
    std::optional<uint32_t> upid;
    std::optional<int64_t> ts;
    std::optional<uint64_t> prev_index;
    bool truncated = false;
    std::optional<int64_t> heap_size;
    std::map<uint64_t, HeapGraphPacketData::Type> types;  // by type id, finalized in id order
    std::map<uint64_t, StringId> location_names;
    absl::flat_hash_map<uint64_t, InternedField> fields;
    absl::flat_hash_map<uint64_t, uint32_t> object_rows;  // object id → heap_graph_object row
    absl::flat_hash_map<uint64_t, uint32_t> class_rows;   // type id → heap_graph_class row
    // Reference rows whose field name is interned but not seen yet, by field name id.
    std::map<uint64_t, std::vector<uint32_t>> references_by_field_id;
    // Objects whose self size / field names their type gives, by class row.
    std::map<uint32_t, std::vector<uint32_t>> objects_needing_size;
    std::map<uint32_t, std::vector<uint32_t>> objects_needing_field_names;
    std::map<uint32_t, int64_t> native_registry_size;  // by object row
    std::vector<HeapGraphPacketData::Root> roots;
    std::vector<uint64_t> vm_internal_roots;  // zygote and boot image objects: never collected
  };

  Dump& DumpFor(uint32_t sequence_id) { return dumps_[sequence_id]; }
  // Whether the packet belongs to the dump in progress (same process and time); a packet that
  // does not is dropped (heap_graph_non_finalized_graph).
  bool JoinDump(Dump& dump, uint32_t upid, int64_t ts);
  void OnPacketIndex(Dump& dump, uint64_t index);
  void AddObject(Dump& dump, const HeapGraphPacketData::Object& object);
  void AddFieldName(Dump& dump, uint64_t iid, std::string_view type_and_name);
  uint32_t ObjectRow(Dump& dump, uint64_t object_id);
  uint32_t ClassRow(Dump& dump, uint64_t type_id);
  void Finalize(uint32_t sequence_id);
  void FinalizeType(Dump& dump, uint64_t type_id, const HeapGraphPacketData::Type& type);
  void NameDeferredFields(Dump& dump, const HeapGraphPacketData::Type& type, uint32_t object_row);
  const HeapGraphPacketData::Type* SuperclassOf(Dump& dump, const HeapGraphPacketData::Type& type);
  void MarkRoot(uint32_t object_row, uint32_t root_type);
  void Children(uint32_t object_row, std::vector<uint32_t>* out) const;
  std::optional<uint32_t> ReferredByField(uint32_t object_row, StringId field) const;
  void ResolveSuperclasses(const Dump& dump);
  void AttributeNativeSizes(const Dump& dump);
  void WriteHeapGraphRow(const Dump& dump);
  std::optional<StringId> PackageOfClass(const Dump& dump, StringId location);
  void IncrementIndexedStat(const char* name, const Dump& dump);

  TraceContext* ctx_;
  std::map<uint32_t, Dump> dumps_;  // dumps in progress, by sequence id
  std::map<std::pair<std::optional<StringId>, std::string>, std::vector<uint32_t>> class_rows_;
  absl::flat_hash_map<StringId, std::vector<uint32_t>> reference_rows_by_field_;
  StringId root_type_names_[15];
  StringId kind_names_[12];
  StringId heap_type_names_[4];
  StringId runtime_internal_field_;
  StringId referent_field_, cleaner_thunk_field_, cleaner_next_field_, thunk_registry_field_;
  StringId superclass_field_;
};

}  // namespace tw
