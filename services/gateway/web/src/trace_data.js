// What the trace page loads through the read-only SQL API: the focus app's main thread and
// RenderThread (slices, thread states), its frames and the frame budget, CPU time by thread.
// Parameters are bound (`:name`), never spliced into the SQL text.

import { api } from './api.js';

function objects(result) {
  const names = result.columns.map((c) => c.name);
  return result.rows.map((r) => Object.fromEntries(names.map((n, i) => [n, r[i]])));
}

async function rows(traceId, sql, params, limit = 100000) {
  return objects(await api.query(traceId, sql, params, limit));
}

export async function loadThreads(traceId, upid) {
  return rows(
    traceId,
    `SELECT t.utid, t.tid, t.name,
            (t.is_main_thread = 1 OR t.tid = p.pid) AS is_main
     FROM thread t JOIN process p USING (upid)
     WHERE t.upid = :upid AND ((t.is_main_thread = 1 OR t.tid = p.pid) OR t.name = 'RenderThread')
     ORDER BY is_main DESC, t.utid LIMIT 2`,
    { upid },
  );
}

export async function loadTimeline(traceId, upid) {
  const threads = await loadThreads(traceId, upid);
  if (!threads.length) return { threads: [], slices: [], states: [], frames: [] };
  const a = threads[0].utid;
  const b = threads.length > 1 ? threads[1].utid : a;
  const [slices, states, frames] = await Promise.all([
    rows(
      traceId,
      `SELECT s.id, s.ts, s.dur, s.depth, s.name, tt.utid
       FROM slice s JOIN thread_track tt ON s.track_id = tt.id
       WHERE tt.utid IN (:a, :b) AND s.depth < 8 ORDER BY s.ts`,
      { a, b },
    ),
    rows(
      traceId,
      `SELECT utid, ts, dur, state FROM thread_state WHERE utid IN (:a, :b) ORDER BY ts`,
      { a, b },
    ),
    loadFrames(traceId, upid),
  ]);
  return { threads, slices, states, frames };
}

export async function loadFrames(traceId, upid) {
  return rows(
    traceId,
    `SELECT id, ts, dur, jank_type, name FROM actual_frame_timeline_slice
     WHERE upid = :upid ORDER BY ts`,
    { upid },
    50000,
  );
}

// The frame budget: the median expected-frame duration of the app (its refresh rate).
export async function loadFrameBudget(traceId, upid) {
  const r = await rows(
    traceId,
    `SELECT dur FROM expected_frame_timeline_slice WHERE upid = :upid AND dur > 0 ORDER BY dur
     LIMIT 1 OFFSET (SELECT COUNT(*) / 2 FROM expected_frame_timeline_slice
                     WHERE upid = :upid AND dur > 0)`,
    { upid },
    1,
  );
  return r.length ? r[0].dur : null;
}

export async function loadCpuByThread(traceId, upid) {
  return rows(
    traceId,
    `SELECT t.utid, t.tid, COALESCE(t.name, 'tid ' || t.tid) AS thread,
            (SELECT SUM(s.dur) FROM sched s WHERE s.utid = t.utid) AS cpu_ns
     FROM thread t WHERE t.upid = :upid
     ORDER BY cpu_ns DESC LIMIT 12`,
    { upid },
  );
}

export async function loadMainThreadStates(traceId, utid) {
  return rows(
    traceId,
    `SELECT state, SUM(dur) AS dur FROM thread_state WHERE utid = :utid GROUP BY state
     ORDER BY dur DESC`,
    { utid },
  );
}

// A skill's output step (its `output:` or the last successful step) as {columns, rows}.
export async function skillOutput(traceId, skill, params) {
  const run = await api.runSkill(traceId, skill, params);
  if (run.outcome !== 'ok') return { outcome: run.outcome, message: run.message || '' };
  const step = run.steps.find((s) => s.step === run.output_step) || run.steps.filter((s) => s.status === 'ok').pop();
  return { outcome: 'ok', envelope: step ? step.envelope : null };
}

// One slice of the trace by id (any thread), for select_slice / add_annotation on slices the
// timeline does not draw.
export async function loadSlice(traceId, id) {
  const r = await rows(traceId, 'SELECT id, ts, dur, depth, name FROM slice WHERE id = :id', { id }, 1);
  return r.length ? r[0] : null;
}

// capture_view's "memory" view, which the page does not draw: the focus app's memory counters
// (mem.rss*, mem.swap, ... as process counter tracks), each with its samples, min, max and last
// value in bytes, within a time range when one is given.
export async function loadMemorySummary(traceId, upid, range) {
  const within = (alias) => (range ? ` AND ${alias}.ts BETWEEN :start AND :end` : '');
  const params = range ? { upid, start: range.start_ns, end: range.end_ns } : { upid };
  return rows(
    traceId,
    `SELECT t.name AS counter, COUNT(*) AS samples, MIN(c.value) AS min_bytes,
            MAX(c.value) AS max_bytes,
            (SELECT c2.value FROM counter c2 WHERE c2.track_id = t.id${within('c2')}
             ORDER BY c2.ts DESC LIMIT 1) AS last_bytes
     FROM process_counter_track t JOIN counter c ON c.track_id = t.id
     WHERE t.upid = :upid AND t.name GLOB 'mem.*'${within('c')}
     GROUP BY t.id ORDER BY t.name`,
    params,
    100,
  );
}
