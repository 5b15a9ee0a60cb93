#include "libs/trace/trackers/heap_graph_tracker.h"

#include <algorithm>
#include <string_view>

#include "libs/trace/trackers/java_package_location.h"
#include "libs/trace/trackers/java_type_name.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {
namespace {

// HeapGraphRoot.Type, HeapGraphType.Kind and HeapGraphObject.HeapType value names, by value.
constexpr const char* kRootTypeNames[15] = {
    "ROOT_UNKNOWN",       "ROOT_JNI_GLOBAL",     "ROOT_JNI_LOCAL",   "ROOT_JAVA_FRAME",
    "ROOT_NATIVE_STACK",  "ROOT_STICKY_CLASS",   "ROOT_THREAD_BLOCK", "ROOT_MONITOR_USED",
    "ROOT_THREAD_OBJECT", "ROOT_INTERNED_STRING", "ROOT_FINALIZING",  "ROOT_DEBUGGER",
    "ROOT_REFERENCE_CLEANUP", "ROOT_VM_INTERNAL", "ROOT_JNI_MONITOR"};
constexpr const char* kKindNames[12] = {
    "KIND_UNKNOWN",        "KIND_NORMAL",          "KIND_NOREFERENCES",
    "KIND_STRING",         "KIND_ARRAY",           "KIND_CLASS",
    "KIND_CLASSLOADER",    "KIND_DEXCACHE",        "KIND_SOFT_REFERENCE",
    "KIND_WEAK_REFERENCE", "KIND_FINALIZER_REFERENCE", "KIND_PHANTOM_REFERENCE"};
constexpr const char* kHeapTypeNames[4] = {"HEAP_TYPE_UNKNOWN", "HEAP_TYPE_APP",
                                           "HEAP_TYPE_ZYGOTE", "HEAP_TYPE_BOOT_IMAGE"};

constexpr uint32_t kRootVmInternal = 13;
constexpr uint32_t kHeapTypeZygote = 2, kHeapTypeBootImage = 3;
constexpr uint32_t kKindNoReferences = 2, kKindString = 3, kKindArray = 4;
constexpr uint32_t kKindWeakReference = 9, kKindFinalizerReference = 10,
                   kKindPhantomReference = 11;

// An object rooted in several ways keeps the first of these it is given, else its first.
constexpr uint32_t kRootPrecedence[] = {5 /*STICKY_CLASS*/, 1 /*JNI_GLOBAL*/, 2 /*JNI_LOCAL*/};

size_t RootRank(uint32_t root_type) {
  size_t i = 0;
  for (; i < std::size(kRootPrecedence); ++i) {
    if (kRootPrecedence[i] == root_type) break;
  }
  return i;
}

// NativeAllocationRegistry.size keeps whether the memory was malloced in its lowest bit.
int64_t NativeSizeFromRegistry(int64_t registry_size) {
  return static_cast<int64_t>(static_cast<uint64_t>(registry_size) & ~uint64_t{1});
}

}  // namespace

HeapGraphTracker::HeapGraphTracker(TraceContext* ctx) : ctx_(ctx) {
  TraceStorage* s = ctx_->storage;
  for (size_t i = 0; i < std::size(kRootTypeNames); ++i) root_type_names_[i] = s->Intern(kRootTypeNames[i]);
  for (size_t i = 0; i < std::size(kKindNames); ++i) kind_names_[i] = s->Intern(kKindNames[i]);
  for (size_t i = 0; i < std::size(kHeapTypeNames); ++i) heap_type_names_[i] = s->Intern(kHeapTypeNames[i]);
  runtime_internal_field_ = s->Intern("runtimeInternalObjects");
  referent_field_ = s->Intern("java.lang.ref.Reference.referent");
  cleaner_thunk_field_ = s->Intern("sun.misc.Cleaner.thunk");
  cleaner_next_field_ = s->Intern("sun.misc.Cleaner.next");
  thunk_registry_field_ = s->Intern("libcore.util.NativeAllocationRegistry$CleanerThunk.this$0");
  superclass_field_ = s->Intern("java.lang.Class.superClass");
}

void HeapGraphTracker::IncrementIndexedStat(const char* name, const Dump& dump) {
  ctx_->storage->IncrementIndexedStat(name, dump.upid.value_or(0));
}

void HeapGraphTracker::OnHeapGraph(int64_t ts, const HeapGraphPacketData& packet) {
  const uint32_t upid = ctx_->processes.GetOrCreateProcess(packet.pid);
  Dump& dump = DumpFor(packet.sequence_id);
  OnPacketIndex(dump, packet.index);
  if (packet.heap_bytes_allocated) dump.heap_size = *packet.heap_bytes_allocated;
  if (packet.malformed > 0) {
    ctx_->storage->IncrementIndexedStat("heap_graph_malformed_packet", upid, packet.malformed);
  }
  for (const HeapGraphPacketData::Object& object : packet.objects) {
    if (!JoinDump(dump, upid, ts)) continue;
    AddObject(dump, object);
  }
  for (const HeapGraphPacketData::Type& type : packet.types) dump.types[type.id] = type;
  for (const auto& [iid, name] : packet.field_names) AddFieldName(dump, iid, name);
  for (const auto& [iid, name] : packet.location_names) dump.location_names.emplace(iid, name);
  for (const HeapGraphPacketData::Root& root : packet.roots) {
    if (!JoinDump(dump, upid, ts)) continue;
    dump.roots.push_back(root);
  }
  if (!packet.continued) Finalize(packet.sequence_id);
}

bool HeapGraphTracker::JoinDump(Dump& dump, uint32_t upid, int64_t ts) {
  if ((dump.upid && *dump.upid != upid) || (dump.ts && *dump.ts != ts)) {
    ctx_->storage->IncrementStat("heap_graph_non_finalized_graph");
    return false;
  }
  dump.upid = upid;
  dump.ts = ts;
  return true;
}

void HeapGraphTracker::OnPacketIndex(Dump& dump, uint64_t index) {
  // Packets of a dump are numbered from 0; a gap means packets were lost.
  const bool lost = dump.prev_index ? *dump.prev_index + 1 != index : index != 0;
  if (lost) {
    dump.truncated = true;
    IncrementIndexedStat("heap_graph_missing_packet", dump);
  }
  dump.prev_index = index;
}

uint32_t HeapGraphTracker::ObjectRow(Dump& dump, uint64_t object_id) {
  auto [it, inserted] = dump.object_rows.try_emplace(object_id, 0);
  if (inserted) {
    // Referred to before (or without) its own entry: filled in when the entry shows.
    it->second = ctx_->storage->heap_graph_object.Insert(
        {.upid = dump.upid.value_or(0), .graph_sample_ts = dump.ts.value_or(0), .self_size = -1});
  }
  return it->second;
}

uint32_t HeapGraphTracker::ClassRow(Dump& dump, uint64_t type_id) {
  auto [it, inserted] = dump.class_rows.try_emplace(type_id, 0);
  if (inserted) it->second = ctx_->storage->heap_graph_class.Insert({});
  return it->second;
}

void HeapGraphTracker::AddObject(Dump& dump, const HeapGraphPacketData::Object& object) {
  TraceStorage* s = ctx_->storage;
  HeapGraphObjectTable& objects = s->heap_graph_object;
  HeapGraphReferenceTable& references = s->heap_graph_reference;
  const uint32_t row = ObjectRow(dump, object.id);
  const uint32_t class_row = ClassRow(dump, object.type_id);
  objects.self_size.Set(row, static_cast<int64_t>(object.self_size));
  objects.type_id.Set(row, class_row);
  if (object.heap_type != 0 && object.heap_type < std::size(kHeapTypeNames)) {
    objects.heap_type.Set(row, heap_type_names_[object.heap_type]);
    // ART's collector never frees zygote or boot image objects: they count as roots.
    if (object.heap_type == kHeapTypeZygote || object.heap_type == kHeapTypeBootImage) {
      dump.vm_internal_roots.push_back(object.id);
    }
  }
  if (object.self_size == 0) dump.objects_needing_size[class_row].push_back(row);

  // The object's references are consecutive rows; the first row's id names the set.
  const uint32_t reference_set = references.row_count();
  for (size_t i = 0; i < object.referred_objects.size(); ++i) {
    std::optional<uint32_t> owned;
    if (object.referred_objects[i] != 0) owned = ObjectRow(dump, object.referred_objects[i]);
    const uint32_t ref =
        references.Insert({.reference_set_id = reference_set, .owner_id = row, .owned_id = owned});
    if (!object.field_name_ids.empty()) {
      dump.references_by_field_id[object.field_name_ids[i]].push_back(ref);
    }
  }
  for (uint64_t internal : object.runtime_internal_objects) {
    references.Insert({.reference_set_id = reference_set,
                       .owner_id = row,
                       .owned_id = ObjectRow(dump, internal),
                       .field_name = runtime_internal_field_});
  }
  if (!object.referred_objects.empty() || !object.runtime_internal_objects.empty()) {
    objects.reference_set_id.Set(row, reference_set);
  }
  // Since Android S the type lists the field names of its instances' references.
  if (!object.referred_objects.empty() && object.field_name_ids.empty()) {
    dump.objects_needing_field_names[class_row].push_back(row);
  }
  if (object.native_allocation_registry_size) {
    dump.native_registry_size[row] = *object.native_allocation_registry_size;
  }

  // Bitmap fields the runtime captured: primitive rows under one field set.
  if (object.bitmap_id || object.bitmap_source_id || object.bitmap_width || object.bitmap_height) {
    HeapGraphPrimitiveTable& primitives = s->heap_graph_primitive;
    const uint32_t field_set = primitives.row_count();
    const StringId long_type = s->Intern("long"), int_type = s->Intern("int");
    if (object.bitmap_id) {
      primitives.Insert({.field_set_id = field_set,
                         .field_name = s->Intern("android.graphics.Bitmap.mId"),
                         .field_type = long_type,
                         .long_value = *object.bitmap_id});
    }
    if (object.bitmap_source_id) {
      primitives.Insert({.field_set_id = field_set,
                         .field_name = s->Intern("android.graphics.Bitmap.mSourceId"),
                         .field_type = long_type,
                         .long_value = *object.bitmap_source_id});
    }
    if (object.bitmap_width) {
      primitives.Insert({.field_set_id = field_set,
                         .field_name = s->Intern("android.graphics.Bitmap.mWidth"),
                         .field_type = int_type,
                         .int_value = static_cast<int64_t>(*object.bitmap_width)});
    }
    if (object.bitmap_height) {
      primitives.Insert({.field_set_id = field_set,
                         .field_name = s->Intern("android.graphics.Bitmap.mHeight"),
                         .field_type = int_type,
                         .int_value = static_cast<int64_t>(*object.bitmap_height)});
    }
    objects.object_data_id.Set(row, s->heap_graph_object_data.Insert({.field_set_id = field_set}));
  }
}

void HeapGraphTracker::AddFieldName(Dump& dump, uint64_t iid, std::string_view type_and_name) {
  // "<static type> <Class.field>"; older dumps give the name alone.
  std::string_view name = type_and_name;
  StringId type_name = kNullStringId;
  const size_t space = type_and_name.find(' ');
  if (space != std::string_view::npos) {
    type_name = ctx_->storage->Intern(type_and_name.substr(0, space));
    name = type_and_name.substr(space + 1);
  }
  const StringId name_id = ctx_->storage->Intern(name);
  dump.fields[iid] = InternedField{name_id, type_name};
  auto it = dump.references_by_field_id.find(iid);
  if (it == dump.references_by_field_id.end()) return;
  HeapGraphReferenceTable& references = ctx_->storage->heap_graph_reference;
  for (uint32_t ref : it->second) {
    references.field_name.Set(ref, name_id);
    references.field_type_name.Set(ref, type_name);
    reference_rows_by_field_[name_id].push_back(ref);
  }
}

const HeapGraphPacketData::Type* HeapGraphTracker::SuperclassOf(
    Dump& dump, const HeapGraphPacketData::Type& type) {
  if (type.superclass_id != 0) {
    auto it = dump.types.find(type.superclass_id);
    if (it != dump.types.end()) return &it->second;
  }
  IncrementIndexedStat("heap_graph_malformed_packet", dump);
  return nullptr;
}

void HeapGraphTracker::NameDeferredFields(Dump& dump, const HeapGraphPacketData::Type& type,
                                          uint32_t object_row) {
  // An instance writes its references in field order, its own class's fields first, then
  // each superclass's.
  TraceStorage* s = ctx_->storage;
  HeapGraphReferenceTable& references = s->heap_graph_reference;
  const std::optional<uint32_t> set = s->heap_graph_object.reference_set_id.Get(object_row);
  if (!set) return;
  const HeapGraphPacketData::Type* current = &type;
  size_t offset = 0;
  for (uint32_t ref = *set; ref < references.row_count() && references.reference_set_id[ref] == *set;
       ++ref) {
    while (current && offset >= current->field_name_ids.size()) {
      offset -= current->field_name_ids.size();
      current = SuperclassOf(dump, *current);
    }
    if (!current) return;
    const uint64_t field_id = current->field_name_ids[offset++];
    auto it = dump.fields.find(field_id);
    if (it == dump.fields.end()) {
      IncrementIndexedStat("heap_graph_malformed_packet", dump);
      continue;
    }
    references.field_name.Set(ref, it->second.name);
    references.field_type_name.Set(ref, it->second.type_name);
    reference_rows_by_field_[it->second.name].push_back(ref);
  }
}

std::optional<StringId> HeapGraphTracker::PackageOfClass(const Dump& dump, StringId location) {
  TraceStorage* s = ctx_->storage;
  if (location != kNullStringId) {
    PackageFromLocationResult r = PackageFromLocation(s->Str(location));
    if (r.result == PackageLocationResult::kPackage) return s->Intern(r.package);
    if (r.result == PackageLocationResult::kParseError) {
      s->IncrementStat("deobfuscate_location_parse_error");
    }
  }
  // Else the package of the app the process runs as.
  const std::optional<int64_t> app_id = s->process.android_appid.Get(dump.upid.value_or(0));
  if (!app_id) return std::nullopt;
  const PackageListTable& packages = s->package_list;
  for (uint32_t i = 0; i < packages.row_count(); ++i) {
    if (packages.uid[i] == *app_id) return packages.package_name[i];
  }
  return std::nullopt;
}

void HeapGraphTracker::FinalizeType(Dump& dump, uint64_t type_id,
                                    const HeapGraphPacketData::Type& type) {
  TraceStorage* s = ctx_->storage;
  HeapGraphClassTable& classes = s->heap_graph_class;
  StringId location = kNullStringId;
  if (type.location_id) {
    auto it = dump.location_names.find(*type.location_id);
    if (it == dump.location_names.end()) {
      IncrementIndexedStat("heap_graph_invalid_string_id", dump);
    } else {
      location = it->second;
    }
  }
  const uint32_t class_row = ClassRow(dump, type_id);
  if (auto it = dump.objects_needing_size.find(class_row); it != dump.objects_needing_size.end()) {
    for (uint32_t row : it->second) {
      s->heap_graph_object.self_size.Set(row, static_cast<int64_t>(type.object_size));
    }
    dump.objects_needing_size.erase(it);
  }
  if (auto it = dump.objects_needing_field_names.find(class_row);
      it != dump.objects_needing_field_names.end()) {
    const bool has_no_fields =
        type.kind == kKindNoReferences || type.kind == kKindArray || type.kind == kKindString;
    if (!has_no_fields) {
      for (uint32_t row : it->second) NameDeferredFields(dump, type, row);
    }
    dump.objects_needing_field_names.erase(it);
  }
  classes.name.Set(class_row, type.class_name);
  if (type.classloader_id != 0) {
    classes.classloader_id.Set(class_row, ObjectRow(dump, type.classloader_id));
  }
  if (location != kNullStringId) classes.location.Set(class_row, location);
  classes.kind.Set(class_row, kind_names_[type.kind < std::size(kKindNames) ? type.kind : 0]);
  const std::string bare(ParseJavaTypeName(s->Str(type.class_name)).base);
  class_rows_[{PackageOfClass(dump, location), bare}].push_back(class_row);
}

void HeapGraphTracker::Finalize(uint32_t sequence_id) {
  auto node = dumps_.extract(sequence_id);
  if (node.empty()) return;
  Dump& dump = node.mapped();
  // Types come last in a dump (their locations too), so they are resolved only now.
  for (const auto& [type_id, type] : dump.types) FinalizeType(dump, type_id, type);
  if (!dump.objects_needing_size.empty() || !dump.objects_needing_field_names.empty()) {
    IncrementIndexedStat("heap_graph_malformed_packet", dump);  // objects of unknown types
  }
  dump.roots.push_back({kRootVmInternal, std::move(dump.vm_internal_roots)});
  for (const HeapGraphPacketData::Root& root : dump.roots) {
    for (uint64_t object_id : root.object_ids) {
      auto it = dump.object_rows.find(object_id);
      if (it == dump.object_rows.end()) continue;  // a root without an object entry
      MarkRoot(it->second, root.root_type);
    }
  }
  ResolveSuperclasses(dump);
  AttributeNativeSizes(dump);
  WriteHeapGraphRow(dump);
}

void HeapGraphTracker::Children(uint32_t object_row, std::vector<uint32_t>* out) const {
  out->clear();
  const TraceStorage* s = ctx_->storage;
  const std::optional<uint32_t> set = s->heap_graph_object.reference_set_id.Get(object_row);
  if (!set) return;
  // A weak, finalizer or phantom reference does not keep its referent alive.
  const StringId kind = s->heap_graph_class.kind[s->heap_graph_object.type_id[object_row]];
  const bool weak = kind == kind_names_[kKindWeakReference] ||
                    kind == kind_names_[kKindFinalizerReference] ||
                    kind == kind_names_[kKindPhantomReference];
  const HeapGraphReferenceTable& refs = s->heap_graph_reference;
  for (uint32_t ref = *set; ref < refs.row_count() && refs.reference_set_id[ref] == *set; ++ref) {
    const std::optional<uint32_t> owned = refs.owned_id.Get(ref);
    if (!owned) continue;
    if (weak && refs.field_name[ref] == referent_field_) continue;
    out->push_back(*owned);
  }
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
}

void HeapGraphTracker::MarkRoot(uint32_t object_row, uint32_t root_type) {
  HeapGraphObjectTable& objects = ctx_->storage->heap_graph_object;
  const StringId type_name = root_type_names_[root_type < 15 ? root_type : 0];
  const StringId current = objects.root_type[object_row];
  if (current != kNullStringId) {
    size_t current_rank = std::size(kRootPrecedence);
    for (uint32_t t = 0; t < 15; ++t) {
      if (root_type_names_[t] == current) current_rank = RootRank(t);
    }
    if (RootRank(root_type) < current_rank) objects.root_type.Set(object_row, type_name);
    return;  // what it reaches is marked already
  }
  objects.root_type.Set(object_row, type_name);
  std::vector<uint32_t> stack{object_row};
  std::vector<uint32_t> children;
  while (!stack.empty()) {
    const uint32_t row = stack.back();
    stack.pop_back();
    if (objects.reachable[row]) continue;
    objects.reachable.Set(row, 1);
    Children(row, &children);
    stack.insert(stack.end(), children.begin(), children.end());
  }
}

std::optional<uint32_t> HeapGraphTracker::ReferredByField(uint32_t object_row,
                                                          StringId field) const {
  const TraceStorage* s = ctx_->storage;
  const std::optional<uint32_t> set = s->heap_graph_object.reference_set_id.Get(object_row);
  if (!set) return std::nullopt;
  const HeapGraphReferenceTable& refs = s->heap_graph_reference;
  for (uint32_t ref = *set; ref < refs.row_count() && refs.reference_set_id[ref] == *set; ++ref) {
    if (refs.field_name[ref] == field) return refs.owned_id.Get(ref);
  }
  return std::nullopt;
}

void HeapGraphTracker::ResolveSuperclasses(const Dump& dump) {
  // A class's superclass is what its java.lang.Class object's superClass field refers to;
  // classes are told apart by (bare name, location).
  TraceStorage* s = ctx_->storage;
  const HeapGraphObjectTable& objects = s->heap_graph_object;
  HeapGraphClassTable& classes = s->heap_graph_class;
  using ClassKey = std::pair<std::string, StringId>;
  std::map<ClassKey, ClassKey> superclass_of;
  for (const auto& [object_id, row] : dump.object_rows) {
    const uint32_t class_row = objects.type_id[row];
    const JavaTypeName type = ParseJavaTypeName(s->Str(classes.name[class_row]));
    if (!type.is_class_object || type.array_dimensions > 0) continue;
    const std::optional<uint32_t> super = ReferredByField(row, superclass_field_);
    if (!super) continue;  // java.lang.Object and primitive types have none
    const uint32_t super_class_row = objects.type_id[*super];
    superclass_of[{std::string(type.base), classes.location[class_row]}] = {
        std::string(ParseJavaTypeName(s->Str(classes.name[super_class_row])).base),
        classes.location[super_class_row]};
  }
  if (superclass_of.empty()) return;
  std::map<std::pair<std::string_view, StringId>, uint32_t> class_by_key;
  for (uint32_t i = 0; i < classes.row_count(); ++i) {
    class_by_key[{s->Str(classes.name[i]), classes.location[i]}] = i;
  }
  for (uint32_t i = 0; i < classes.row_count(); ++i) {
    const JavaTypeName type = ParseJavaTypeName(s->Str(classes.name[i]));
    if (type.is_class_object || type.array_dimensions > 0) continue;
    auto it = superclass_of.find({std::string(type.base), classes.location[i]});
    if (it == superclass_of.end()) continue;
    auto super = class_by_key.find({it->second.first, it->second.second});
    if (super != class_by_key.end()) classes.superclass_id.Set(i, super->second);
  }
}

void HeapGraphTracker::AttributeNativeSizes(const Dump& dump) {
  // sun.misc.Cleaner --referent--> object, and --thunk--> CleanerThunk --this$0-->
  // NativeAllocationRegistry whose size is the native memory the object keeps alive.
  TraceStorage* s = ctx_->storage;
  HeapGraphObjectTable& objects = s->heap_graph_object;
  const StringId cleaner_class = s->strings().Find("sun.misc.Cleaner");
  if (cleaner_class == kNullStringId || dump.native_registry_size.empty()) return;
  for (const auto& [object_id, row] : dump.object_rows) {
    if (s->heap_graph_class.name[objects.type_id[row]] != cleaner_class) continue;
    const std::optional<uint32_t> referent = ReferredByField(row, referent_field_);
    const std::optional<uint32_t> thunk = ReferredByField(row, cleaner_thunk_field_);
    if (!referent || !thunk) continue;
    // A cleaner whose next is itself has run already.
    if (ReferredByField(row, cleaner_next_field_) == row) continue;
    const std::optional<uint32_t> registry = ReferredByField(*thunk, thunk_registry_field_);
    if (!registry) continue;
    auto size = dump.native_registry_size.find(*registry);
    if (size == dump.native_registry_size.end()) continue;
    objects.native_size.Set(*referent,
                            objects.native_size[*referent] + NativeSizeFromRegistry(size->second));
  }
}

void HeapGraphTracker::WriteHeapGraphRow(const Dump& dump) {
  HeapGraphTable& graphs = ctx_->storage->heap_graph;
  const uint32_t upid = dump.upid.value_or(0);
  const int64_t ts = dump.ts.value_or(0);
  // ArtProcessMetadata may have made the row already (with the dump's reason).
  for (uint32_t i = 0; i < graphs.row_count(); ++i) {
    if (graphs.upid[i] != upid || graphs.ts[i] != ts) continue;
    if (dump.heap_size) graphs.heap_size.Set(i, *dump.heap_size);
    if (dump.truncated) graphs.truncated.Set(i, 1);
    return;
  }
  graphs.Insert({.ts = ts, .upid = upid, .heap_size = dump.heap_size,
                 .truncated = dump.truncated ? 1u : 0u});
}

void HeapGraphTracker::Finish() {
  if (dumps_.empty()) return;
  // The trace ended inside a dump; what arrived is still worth keeping.
  ctx_->storage->IncrementStat("heap_graph_non_finalized_graph");
  while (!dumps_.empty()) Finalize(dumps_.begin()->first);
}

const std::vector<uint32_t>* HeapGraphTracker::ClassRows(std::optional<StringId> package,
                                                         std::string_view bare_name) const {
  auto it = class_rows_.find({package, std::string(bare_name)});
  return it == class_rows_.end() ? nullptr : &it->second;
}

const std::vector<uint32_t>* HeapGraphTracker::ReferenceRowsForField(StringId field_name) const {
  auto it = reference_rows_by_field_.find(field_name);
  return it == reference_rows_by_field_.end() ? nullptr : &it->second;
}

}  // namespace tw
