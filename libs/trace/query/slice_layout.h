#pragma once
// The layout behind experimental_slice_layout (slice_layout_table.h is its SQL face): slices of
// several tracks drawn in one lane without overlaps, as trace_processor computes it for the UI.
//
// Each root slice and its descendants form a block (its rows are the slices' depths below the
// root, its time range the root's span, widened to cover any descendant). Blocks are placed
// tallest first (then by start, then by id); each goes at the smallest layout depth where it
// overlaps no block already placed in both time and rows. A slice's layout_depth is its
// block's depth plus its own depth below the root. A zero-duration slice occupies 1 ns; one
// that never ended (dur < 0) runs to the end of time.

#include <cstdint>
#include <vector>

namespace tw {

struct LayoutSlice {
  int64_t id = 0;
  int64_t ts = 0;
  int64_t dur = 0;
  int64_t depth = 0;
  int64_t parent_id = -1;  // -1: a root (or a parent outside the given slices)
};

struct LayoutDepth {
  int64_t id = 0;
  int64_t layout_depth = 0;
};

// One entry per input slice, ordered by id.
std::vector<LayoutDepth> ComputeSliceLayout(const std::vector<LayoutSlice>& slices);

}  // namespace tw
