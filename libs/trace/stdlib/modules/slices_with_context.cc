// slices.with_context: thread and process slices with the thread / process they belong to.
#include "libs/trace/stdlib/stdlib.h"

namespace tw::stdlib_modules {
extern const SqlModule kSlicesWithContext;
const SqlModule kSlicesWithContext = {"slices.with_context", R"sql(
INCLUDE PERFETTO MODULE std.thread.with_context;

-- Slices on thread tracks, with the track's name, the thread and the thread's process.
CREATE PERFETTO VIEW thread_slice(
  id ID(slice.id), ts TIMESTAMP, dur DURATION, category STRING, name STRING,
  track_id JOINID(track.id), track_name STRING, thread_name STRING, utid JOINID(thread.id),
  tid LONG, is_main_thread BOOL, process_name STRING, upid JOINID(process.id), pid LONG,
  depth LONG, parent_id JOINID(slice.id), arg_set_id ARGSETID, thread_ts TIMESTAMP,
  thread_dur LONG
) AS
SELECT
  s.id, s.ts, s.dur, s.category, s.name, s.track_id,
  tt.name AS track_name,
  ctx.thread_name, ctx.utid, ctx.tid, ctx.is_main_thread, ctx.process_name, ctx.upid, ctx.pid,
  s.depth, s.parent_id, s.arg_set_id, s.thread_ts, s.thread_dur
FROM thread_track AS tt
JOIN _thread_with_process AS ctx ON ctx.utid = tt.utid
JOIN slice AS s ON s.track_id = tt.id;

-- Slices on process tracks (async slices), with the track's name and the process.
CREATE PERFETTO VIEW process_slice(
  id ID(slice.id), ts TIMESTAMP, dur DURATION, category STRING, name STRING,
  track_id JOINID(track.id), track_name STRING, process_name STRING,
  upid JOINID(process.id), pid LONG, depth LONG, parent_id JOINID(slice.id),
  arg_set_id ARGSETID, thread_ts TIMESTAMP, thread_dur LONG
) AS
SELECT
  s.id, s.ts, s.dur, s.category, s.name, s.track_id,
  pt.name AS track_name,
  p.name AS process_name, p.upid, p.pid,
  s.depth, s.parent_id, s.arg_set_id, s.thread_ts, s.thread_dur
FROM slice AS s
JOIN process_track AS pt ON pt.id = s.track_id
JOIN process AS p ON p.upid = pt.upid;

-- Thread slices and process slices together; the thread columns are NULL for process slices.
CREATE PERFETTO VIEW thread_or_process_slice(
  id JOINID(slice.id), ts TIMESTAMP, dur DURATION, category STRING, name STRING,
  track_id JOINID(track.id), track_name STRING, thread_name STRING, utid JOINID(thread.id),
  tid LONG, process_name STRING, upid JOINID(process.id), pid LONG, depth LONG,
  parent_id JOINID(slice.id), arg_set_id ARGSETID
) AS
SELECT
  id, ts, dur, category, name, track_id, track_name, thread_name, utid, tid, process_name,
  upid, pid, depth, parent_id, arg_set_id
FROM thread_slice
UNION ALL
SELECT
  id, ts, dur, category, name, track_id, track_name, NULL AS thread_name, NULL AS utid,
  NULL AS tid, process_name, upid, pid, depth, parent_id, arg_set_id
FROM process_slice;
)sql"};
}  // namespace tw::stdlib_modules
