#pragma once
// Turns the "args" object of a JSON trace event into rows of the `args` table, named as
// trace_processor names them: nested objects join keys with '.', array elements get "[i]" in
// the key (not in the flat key), nulls and empty containers add nothing. Integers stay int,
// other numbers become real, so SQL over args sees the same types as in Perfetto.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"

#include "libs/trace/events/events.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

// Appends the leaves of `object_text` under `prefix` ("args") to `out`. False when the text is
// damaged; the leaves read before the damage are kept, as trace_processor keeps them.
bool FlattenJsonArgs(std::string_view object_text, std::string_view prefix, TraceStorage* storage,
                     std::vector<Arg>* out);

// The next index of each array of one args set, by the array's key ("debug.list",
// "debug.a[1].b"): values added to the same set continue each other's arrays.
using JsonArrayIndices = absl::flat_hash_map<std::string, size_t>;

// Appends the leaves of the JSON value `text` (an object, an array or a scalar) named `key` /
// `flat_key` to `out`; a scalar is one arg named `key`. Array elements take their indices from
// `indices` (and advance them). False when the text is damaged; the leaves read before the
// damage are kept.
bool FlattenJsonValue(std::string_view text, const std::string& key, const std::string& flat_key,
                      TraceStorage* storage, JsonArrayIndices* indices, std::vector<Arg>* out);

}  // namespace tw
