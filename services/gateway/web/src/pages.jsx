// The home page (upload + trace list) and the sessions list.

import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { Upload } from './upload.jsx';
import { formatBytes, formatDurationNs, traceStateName } from './format.js';

export function HomePage({ config, navigate }) {
  const [traces, setTraces] = useState(null);
  const [error, setError] = useState(null);
  const load = () =>
    api
      .traces()
      .then((r) => setTraces(r.traces))
      .catch(setError);
  useEffect(() => {
    load();
  }, []);
  return (
    <div class="home">
      <Upload
        maxBytes={config ? config.max_upload_bytes : 0}
        onUploaded={(r) => {
          load(); // the list is current when the user comes back to it
          navigate(`#/traces/${r.trace_id}`);
        }}
      />
      <section aria-label="Traces">
        <h2>Traces</h2>
        {error ? <div class="error">{error.message}</div> : null}
        {traces && !traces.length ? <p class="muted">No traces yet: upload one above.</p> : null}
        {traces && traces.length ? (
          <table class="data trace-list">
            <thead>
              <tr>
                <th>name</th>
                <th>size</th>
                <th>state</th>
                <th>duration</th>
                <th>format</th>
              </tr>
            </thead>
            <tbody>
              {traces.map((t) => (
                <tr key={t.trace_id}>
                  <td>
                    <a href={`#/traces/${t.trace_id}`}>{t.name || t.trace_id.slice(0, 12)}</a>
                  </td>
                  <td class="num">{formatBytes(t.size_bytes)}</td>
                  <td>{traceStateName(t.state)}</td>
                  <td class="num">{t.end_ts > t.start_ts ? formatDurationNs(t.end_ts - t.start_ts) : '—'}</td>
                  <td>{t.format || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
    </div>
  );
}

export function SessionsPage() {
  const [sessions, setSessions] = useState(null);
  const [error, setError] = useState(null);
  const load = () =>
    api
      .sessions()
      .then((r) => setSessions(r.sessions))
      .catch(setError);
  useEffect(() => {
    load();
  }, []);
  return (
    <section aria-label="Sessions" class="sessions">
      <h2>Sessions</h2>
      {error ? <div class="error">{error.message}</div> : null}
      {sessions && !sessions.length ? <p class="muted">No sessions yet.</p> : null}
      {sessions && sessions.length ? (
        <table class="data">
          <thead>
            <tr>
              <th>title</th>
              <th>turns</th>
              <th>updated</th>
              <th>status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id}>
                <td>
                  <a href={`#/traces/${s.trace_id}/sessions/${s.id}`}>{s.title || s.id}</a>
                </td>
                <td class="num">{s.turns.length}</td>
                <td>{new Date(s.updated_unix_ms).toLocaleString()}</td>
                <td>{s.busy ? 'running' : s.turns.length ? s.turns[s.turns.length - 1].status : '—'}</td>
                <td>
                  <button
                    type="button"
                    onClick={() => api.deleteSession(s.id).then(load).catch(setError)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
