#pragma once
// Turns the "args" object of a JSON trace event into rows of the `args` table, named as
// trace_processor names them: nested objects join keys with '.', array elements get "[i]" in
// the key (not in the flat key), nulls and empty containers add nothing. Integers stay int,
// other numbers become real, so SQL over args sees the same types as in Perfetto.

#include <string_view>
#include <vector>

#include "libs/trace/events/events.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

// Appends the leaves of `object_text` under `prefix` ("args") to `out`. False when the text is
// damaged; the leaves read before the damage are kept, as trace_processor keeps them.
bool FlattenJsonArgs(std::string_view object_text, std::string_view prefix, TraceStorage* storage,
                     std::vector<Arg>* out);

}  // namespace tw
