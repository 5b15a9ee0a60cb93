// A trace: its overview, charts, the timeline, and the chat of one session over it. The session
// id is in the URL (#/traces/ID/sessions/SID), so a reload reopens it and resumes its stream.

import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api } from './api.js';
import { Overview } from './overview.jsx';
import { Timeline } from './timeline.jsx';
import { BarChart, FramesChart, viewCaptures, viewSummaries } from './charts.jsx';
import { Chat } from './chat.jsx';
import { streamFor } from './session_stream.js';
import { foldEvents, pendingToolRequests } from './session_model.js';
import { CLIENT_TOOLS, performClientTool } from './client_tools.js';
import {
  loadCpuByThread,
  loadFrameBudget,
  loadMainThreadStates,
  loadMemorySummary,
  loadSlice,
  loadTimeline,
  skillOutput,
} from './trace_data.js';

function useAsync(fn, deps) {
  const [state, setState] = useState({ loading: true });
  useEffect(() => {
    let live = true;
    setState({ loading: true });
    fn()
      .then((value) => live && setState({ value }))
      .catch((error) => live && setState({ error }));
    return () => {
      live = false;
    };
  }, deps);
  return state;
}

function envelopeBars(envelope, labelColumn, valueColumn, scale = 1) {
  if (!envelope) return null;
  const names = envelope.columns.map((c) => c.name);
  const li = names.indexOf(labelColumn);
  const vi = names.indexOf(valueColumn);
  if (li < 0 || vi < 0) return null;
  return {
    labels: envelope.rows.map((r) => String(r[li])),
    values: envelope.rows.map((r) => (typeof r[vi] === 'number' ? r[vi] * scale : 0)),
  };
}

function Charts({ traceId, focus, timeline, traceStart }) {
  const upid = focus ? focus.upid : null;
  const mainUtid = timeline && timeline.threads.length ? timeline.threads[0].utid : null;
  const charts = useAsync(async () => {
    if (upid == null) return null;
    const [budget, cpu, states, causes, startup] = await Promise.all([
      loadFrameBudget(traceId, upid).catch(() => null),
      loadCpuByThread(traceId, upid).catch(() => []),
      mainUtid != null ? loadMainThreadStates(traceId, mainUtid).catch(() => []) : [],
      skillOutput(traceId, 'jank_root_causes', { upid: String(upid) }).catch(() => null),
      skillOutput(traceId, 'startup_phases', {}).catch(() => null),
    ]);
    return { budget, cpu, states, causes, startup };
  }, [traceId, upid, mainUtid]);
  if (upid == null) return null;
  if (charts.loading) return <p class="muted">Loading charts…</p>;
  if (charts.error) return <p class="error">{charts.error.message}</p>;
  const c = charts.value;
  const causes = c.causes && c.causes.envelope ? envelopeBars(c.causes.envelope, 'cause', 'frames') : null;
  const phases = c.startup && c.startup.envelope ? envelopeBars(c.startup.envelope, 'phase', 'dur', 1e-6) : null;
  return (
    <section class="charts" aria-label="Charts">
      <FramesChart frames={timeline ? timeline.frames : []} budgetNs={c.budget} traceStart={traceStart} />
      <div class="chart-grid">
        {causes && causes.labels.length ? (
          <BarChart title="Jank causes (app-late frames)" labels={causes.labels} values={causes.values} unit="frames" view="jank_causes" color="#d93025" />
        ) : null}
        {c.cpu.length ? (
          <BarChart
            title="CPU time by thread (focus app)"
            labels={c.cpu.map((r) => r.thread)}
            values={c.cpu.map((r) => (r.cpu_ns || 0) / 1e6)}
            unit="ms"
            view="cpu_by_thread"
          />
        ) : null}
        {c.states.length ? (
          <BarChart
            title="Main thread states"
            labels={c.states.map((r) => r.state)}
            values={c.states.map((r) => r.dur / 1e6)}
            unit="ms"
            view="main_thread_states"
            color="#2e9d4f"
          />
        ) : null}
        {phases && phases.labels.length ? (
          <BarChart title="Startup phases" labels={phases.labels} values={phases.values} unit="ms" view="startup_phases" color="#f29b38" />
        ) : null}
      </div>
    </section>
  );
}

const TOOLS_KEY = 'tracewise.tools.';

export function TracePage({ traceId, sessionId, navigate }) {
  const overview = useAsync(() => api.overview(traceId), [traceId]);
  const focus = overview.value ? overview.value.focus_app : null;
  const timeline = useAsync(
    () => (focus ? loadTimeline(traceId, focus.upid) : Promise.resolve(null)),
    [traceId, focus && focus.upid],
  );
  const traces = useAsync(() => api.traces().then((r) => r.traces), [traceId]);
  const [selection, setSelection] = useState(null);
  const [annotations, setAnnotations] = useState([]);
  const [highlight, setHighlight] = useState(null);
  const [, setTick] = useState(0);
  const [questions, setQuestions] = useState({});
  const timelineControl = useRef({}).current;
  // One SessionStream per session id; a reload restores its events and resumes after them.
  const stream = sessionId ? streamFor(sessionId) : null;

  const refreshQuestions = () => {
    if (!sessionId) return;
    api
      .session(sessionId)
      .then((s) => setQuestions(Object.fromEntries(s.turns.map((t) => [t.index, t.question]))))
      .catch(() => {});
  };

  useEffect(() => {
    if (!stream) return undefined;
    window.__tracewise = { stream };
    const unsubscribe = stream.subscribe(() => setTick((n) => n + 1));
    refreshQuestions();
    if (!stream.streaming) stream.follow().then(refreshQuestions);
    return unsubscribe;
  }, [stream]);

  useEffect(() => {
    // What the page would send as AskOptions.selection (read by the browser tests).
    window.__tracewiseSelection = selection;
  }, [selection]);

  const bounds = useMemo(() => {
    if (!overview.value) return null;
    const i = overview.value.info;
    return { start: i.start_ts, end: i.end_ts };
  }, [overview.value]);
  const traceStart = bounds ? bounds.start : 0;

  // What the client tools act on (client_tools.js).
  const ui = {
    selectSlice: async (id) => {
      const s = timelineControl.showSlice ? timelineControl.showSlice(id) : null;
      if (s) {
        setHighlight(id);
        setSelection({ kind: 'slice', slice_id: id, name: s.name, ts: s.ts, dur: s.dur });
        return { ...s, onTimeline: true };
      }
      // Not on the drawn threads: select its time span instead.
      const other = await loadSlice(traceId, id);
      if (!other) return null;
      ui.selectRange(other.ts, other.ts + Math.max(1, other.dur));
      return { ...other, onTimeline: false };
    },
    selectRange: (start, end) => {
      setHighlight(null);
      setSelection({ kind: 'range', start_ns: start, end_ns: end });
      if (timelineControl.showRange) timelineControl.showRange(start, end);
    },
    annotate: async (args) => {
      const text = String(args.text || '').trim();
      let start = args.start_ns != null ? Number(args.start_ns) : null;
      let end = args.end_ns != null ? Number(args.end_ns) : start;
      if (args.slice_id != null) {
        const id = Number(args.slice_id);
        const s = (timeline.value && timeline.value.slices.find((x) => x.id === id)) || (await loadSlice(traceId, id));
        if (s) {
          start = s.ts;
          end = s.ts + s.dur;
        }
      }
      if (!text || start == null) return null;
      const note = { start_ns: start, end_ns: end, text };
      setAnnotations((a) => a.concat([note]));
      return note;
    },
    capture: (view) => {
      if (view === 'timeline') return timelineControl.capture ? timelineControl.capture() : null;
      const f = viewCaptures.get(view);
      return f ? f() : null;
    },
    summarize: async (view, range) => {
      const f = viewSummaries.get(view);
      if (f) return f();
      if (view === 'memory' && focus) {
        const counters = await loadMemorySummary(traceId, focus.upid, range);
        return counters.length ? { process: focus.name, counters, range } : null;
      }
      return null;
    },
    views: () => ['timeline', ...viewCaptures.keys()],
  };

  // Answer the client tool requests the turn is waiting on, each once (also across reloads:
  // the ids answered are kept in sessionStorage).
  const pending = stream ? pendingToolRequests(stream.events) : [];
  const pendingKey = pending.map((r) => r.request_id).join(',');
  useEffect(() => {
    if (!pending.length || !stream || timeline.loading) return;
    const key = TOOLS_KEY + sessionId;
    const done = JSON.parse(sessionStorage.getItem(key) || '[]');
    const todo = pending.filter((r) => !done.includes(r.request_id));
    if (!todo.length) return;
    sessionStorage.setItem(key, JSON.stringify(done.concat(todo.map((r) => r.request_id))));
    (async () => {
      for (const request of todo) {
        const body = await performClientTool(request, ui);
        try {
          await api.submitToolResult(sessionId, body);
        } catch (e) {
          stream.error = e;
          stream.notify();
        }
      }
    })();
  }, [pendingKey, timeline.loading]);

  const ask = async (question, options) => {
    let sid = sessionId;
    if (!sid) {
      const created = await api.createSession(traceId, question.slice(0, 80));
      sid = created.id;
    }
    const s = streamFor(sid);
    const body = { mode: options.mode, client_tools: CLIENT_TOOLS };
    if (options.reference_trace_id) body.reference_trace_id = options.reference_trace_id;
    if (selection) {
      body.selection =
        selection.kind === 'range'
          ? { start_ns: selection.start_ns, end_ns: selection.end_ns }
          : { slice_id: selection.slice_id };
    }
    setQuestions((q) => ({ ...q, [Object.keys(q).length + 1]: question }));
    const running = s.ask(question, body);
    if (sid !== sessionId) navigate(`#/traces/${traceId}/sessions/${sid}`);
    await running;
    refreshQuestions();
  };

  if (overview.loading) return <p class="muted">Loading trace…</p>;
  if (overview.error) {
    return (
      <div class="error" role="alert">
        {overview.error.code}: {overview.error.message}
      </div>
    );
  }
  const turns = stream ? foldEvents(stream.events) : [];
  const selected = highlight != null && timeline.value ? timeline.value.slices.find((x) => x.id === highlight) : null;
  return (
    <div class="trace-page">
      <div class="left">
        <Overview overview={overview.value} />
        {timeline.value && timeline.value.threads.length ? (
          <section aria-label="Timeline" class="timeline-section">
            <h3>Timeline — {focus.name}</h3>
            <Timeline
              data={timeline.value}
              bounds={bounds}
              selection={selection}
              highlightSliceId={highlight}
              annotations={annotations}
              control={timelineControl}
              onSelect={(sel) => {
                setSelection(sel);
                setHighlight(sel.kind === 'slice' ? sel.slice_id : null);
              }}
            />
            <div class="selected-slice" aria-label="Selected slice" aria-live="polite">
              {selected ? (
                <>
                  Selected slice <strong>{selected.name}</strong> (id {selected.id}, {(selected.dur / 1e6).toFixed(2)} ms)
                </>
              ) : null}
            </div>
            {annotations.length ? (
              <ul class="annotations" aria-label="Annotations">
                {annotations.map((n, i) => (
                  <li key={i}>
                    ✎ {((n.start_ns - traceStart) / 1e9).toFixed(3)} s — {n.text}
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
        ) : timeline.loading ? (
          <p class="muted">Loading timeline…</p>
        ) : null}
        <Charts traceId={traceId} focus={focus} timeline={timeline.value} traceStart={traceStart} />
      </div>
      <div class="right">
        <Chat
          turns={turns}
          questions={questions}
          sessionId={sessionId}
          traceStart={traceStart}
          streaming={stream ? stream.streaming : false}
          error={stream ? stream.error : null}
          selection={selection}
          onClearSelection={() => {
            setSelection(null);
            setHighlight(null);
          }}
          traces={traces.value}
          traceId={traceId}
          onAsk={ask}
          onCancel={() => sessionId && api.cancel(sessionId).catch(() => {})}
        />
      </div>
    </div>
  );
}
