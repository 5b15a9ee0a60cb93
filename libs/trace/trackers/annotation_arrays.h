#pragma once
// One args inserter serves a slice from its begin to its end in trace_processor, and the next
// index of every debug-annotation array lives in that inserter: an end event that repeats an
// array its begin had ("debug.list[0]", "debug.list[1]") appends to it ("debug.list[2]", ...)
// instead of overwriting it. Our events are decoded one at a time, each numbering its arrays
// from 0, so the end's elements are renumbered here when the slice's args are merged.

#include <vector>

#include "libs/trace/events/events.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

// Renumbers, in `end_args`, the elements of the arrays named by `end_array_keys` (keys as the
// end event numbered them, e.g. "debug.a" and "debug.a[0].b") so that each follows the last
// element `begin_args` holds of the same array. Other indices (repeated fields of typed
// protos, which trace_processor numbers per message) stay.
void ContinueAnnotationArrays(const std::vector<Arg>& begin_args,
                              const std::vector<StringId>& end_array_keys,
                              TraceStorage* storage, std::vector<Arg>* end_args);

}  // namespace tw
