#pragma once
// The SQL run on every new trace database before callers see it: trace_processor's public views
// (slice, thread, sched, counter_track, args, ...) over the intrinsic `__intrinsic_<table>`
// virtual tables, with trace_processor's column names and order, plus the small macros and
// functions its prelude defines. Written in Perfetto SQL: declared schemas are checked against
// the SELECTs, so a view can never silently drift from its documented columns.

#include <string_view>

namespace tw {

std::string_view PreludeSql();

}  // namespace tw
