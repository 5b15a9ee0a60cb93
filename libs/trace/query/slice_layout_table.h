#pragma once
// experimental_slice_layout(filter_track_ids): trace_processor's table function the UI uses to
// draw the slices of several tracks in one lane. The argument is a comma-separated list of track
// ids ("1,4,7", what group_concat(track_id, ',') gives); the rows are (id, layout_depth), one
// per slice of those tracks, ordered by id, laid out by slice_layout.h. Errors: no argument, or
// an argument that is not a list of integers.

#include <sqlite3.h>

#include "absl/status/status.h"

namespace tw {

absl::Status RegisterSliceLayoutFunction(sqlite3* db);

}  // namespace tw
