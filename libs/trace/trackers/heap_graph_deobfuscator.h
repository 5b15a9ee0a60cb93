#pragma once
// Applies the trace's DeobfuscationMapping packets to heap graphs: a class gets the readable
// name of its mapping (keeping its array / java.lang.Class<> decorations), a reference the
// readable name of its field ("Class.field", or as the mapping gives it when qualified). A
// mapping applies to the classes of its package (known from the class's APK location or the
// process's app) and, for dumps too old to say where classes came from, to classes whose package
// is unknown.

#include <vector>

#include "libs/trace/events/deobfuscation_events.h"

namespace tw {

class HeapGraphTracker;
class TraceStorage;

void DeobfuscateHeapGraphs(const std::vector<DeobfuscationMappingData>& mappings,
                           const HeapGraphTracker& heap_graphs, TraceStorage* storage);

// The readable name of `member` of `cls`: qualified by the class's readable name unless the
// mapping gives it qualified already.
std::string DeobfuscatedMemberName(const DeobfuscationMappingData::Class& cls,
                                   const DeobfuscationMappingData::Member& member);

}  // namespace tw
