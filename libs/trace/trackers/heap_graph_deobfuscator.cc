#include "libs/trace/trackers/heap_graph_deobfuscator.h"

#include <optional>
#include <string>

#include "libs/trace/storage/trace_storage.h"
#include "libs/trace/trackers/heap_graph_tracker.h"
#include "libs/trace/trackers/java_type_name.h"

namespace tw {

std::string DeobfuscatedMemberName(const DeobfuscationMappingData::Class& cls,
                                   const DeobfuscationMappingData::Member& member) {
  if (member.deobfuscated_name.find('.') != std::string::npos) return member.deobfuscated_name;
  return cls.deobfuscated_name + "." + member.deobfuscated_name;
}

namespace {

void RenameClasses(const std::vector<uint32_t>* rows, const std::string& readable,
                   TraceStorage* storage) {
  if (!rows) return;
  HeapGraphClassTable& classes = storage->heap_graph_class;
  for (uint32_t row : *rows) {
    const JavaTypeName shape = ParseJavaTypeName(storage->Str(classes.name[row]));
    classes.deobfuscated_name.Set(row, storage->Intern(DecorateJavaTypeName(shape, readable)));
  }
}

}  // namespace

void DeobfuscateHeapGraphs(const std::vector<DeobfuscationMappingData>& mappings,
                           const HeapGraphTracker& heap_graphs, TraceStorage* storage) {
  HeapGraphReferenceTable& references = storage->heap_graph_reference;
  for (const DeobfuscationMappingData& mapping : mappings) {
    std::optional<StringId> package;
    if (!mapping.package_name.empty()) {
      const StringId id = storage->strings().Find(mapping.package_name);
      if (id != kNullStringId) package = id;
    }
    for (const DeobfuscationMappingData::Class& cls : mapping.classes) {
      RenameClasses(heap_graphs.ClassRows(std::nullopt, cls.obfuscated_name),
                    cls.deobfuscated_name, storage);
      if (package) {
        RenameClasses(heap_graphs.ClassRows(package, cls.obfuscated_name), cls.deobfuscated_name,
                      storage);
      }
      for (const DeobfuscationMappingData::Member& member : cls.members) {
        const StringId field =
            storage->strings().Find(cls.obfuscated_name + "." + member.obfuscated_name);
        if (field == kNullStringId) continue;
        const std::vector<uint32_t>* rows = heap_graphs.ReferenceRowsForField(field);
        if (!rows) continue;
        const StringId readable = storage->Intern(DeobfuscatedMemberName(cls, member));
        for (uint32_t row : *rows) references.deobfuscated_field_name.Set(row, readable);
      }
    }
  }
}

}  // namespace tw
