#pragma once
// slices.stack's stack ids, computed in one pass over the slice table (a derived table, see
// derived_tables.h). The recursive SQL walk it replaces built every slice's ancestor text in
// SQLite and, with its two indexes, took ~230 ms of CPU on a 1 M-event trace.

#include "libs/trace/storage/table_declaration.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

// clang-format off
#define TW_SLICE_STACK_TABLE(TABLE, COLUMN)                                                     \
  TABLE(SliceStackTable, slice_stack,                                                           \
        "One row per slice, its id the slice's id: the slice's stack id and its parent's "     \
        "(slices.stack's _slice_stack_hash).")                                                 \
  COLUMN(stack_id, OptInt64, kNone, {},                                                         \
         "HASH of '<frame>|<root's frame>|...|<parent's frame>', where a slice's frame is "    \
         "the decimal text of HASH(category || '|' || name) (a NULL category or name is ''). " \
         "NULL for a slice whose parent chain does not reach a root.")                         \
  COLUMN(parent_stack_id, OptInt64, kNone, {}, "The parent's stack_id; 0 for a root slice.")
// clang-format on
TW_DEFINE_TABLE(TW_SLICE_STACK_TABLE)

// Fills `out` with one row per slice of `storage`, in id order.
void FillSliceStack(const TraceStorage& storage, SliceStackTable* out);

}  // namespace tw
