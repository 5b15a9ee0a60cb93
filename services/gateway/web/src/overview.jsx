// The trace overview: what data the trace holds, its processes, and the focus app.

import { formatBytes, formatDurationNs, traceStateName } from './format.js';

export function Overview({ overview }) {
  const { info, capabilities, processes, focus_app: focus } = overview;
  return (
    <section class="overview" aria-label="Trace overview">
      <h2>{info.name || info.trace_id}</h2>
      <div class="facts">
        <span>{info.format}</span>
        <span>{formatBytes(info.size_bytes)}</span>
        <span>{formatDurationNs(info.end_ts - info.start_ts)}</span>
        <span>{traceStateName(info.state)}</span>
        <span class="muted small" title="sha256 of the trace file">
          sha256 {info.trace_id.slice(0, 16)}…
        </span>
      </div>
      <div class="focus" aria-label="Focus app">
        <span class="label">Focus app</span>{' '}
        {focus ? (
          <>
            <strong>{focus.name}</strong> <span class="muted">pid {focus.pid}</span>
            {focus.reason ? <span class="muted small"> — {focus.reason}</span> : null}
          </>
        ) : (
          <span class="muted">none found</span>
        )}
      </div>
      <div class="capabilities" aria-label="Capabilities">
        <span class="label">Data</span>
        <ul>
          {capabilities.map((c) => (
            <li key={c.name} class={c.present ? 'has' : 'missing'} title={`${c.table}: ${c.rows} rows`}>
              {c.present ? '✓' : '✗'} {c.label}
              {c.present ? <span class="muted small"> {c.rows.toLocaleString('en-US')}</span> : null}
            </li>
          ))}
        </ul>
      </div>
      <details class="processes" open>
        <summary>{processes.length} processes</summary>
        <table class="data" aria-label="Processes">
          <thead>
            <tr>
              <th>pid</th>
              <th>process</th>
              <th>command line</th>
              <th>threads</th>
            </tr>
          </thead>
          <tbody>
            {processes.map((p) => (
              <tr key={p.upid}>
                <td class="num">{p.pid}</td>
                <td>{p.name == null ? '—' : p.name}</td>
                <td class="muted">{p.cmdline && p.cmdline !== p.name ? p.cmdline : ''}</td>
                <td class="num">{p.threads}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
