// Charts drawn with uPlot: frame durations over time (budget line, janky frames red), and bar
// charts for jank causes, CPU time by thread, main-thread states and startup phases. Each chart
// registers a PNG capture (and a summary of its data) under its view name for the capture_view
// client tool.

import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export const viewCaptures = new Map();
// view name → () => a JSON summary of the data the chart draws.
export const viewSummaries = new Map();

function useViewSummary(viewName, summary, deps) {
  useEffect(() => {
    if (!viewName || !summary) return undefined;
    viewSummaries.set(viewName, () => summary);
    return () => viewSummaries.delete(viewName);
  }, deps);
}

function useUPlot(makeOptions, data, deps, viewName) {
  const el = useRef(null);
  useEffect(() => {
    if (!el.current || !data) return undefined;
    const width = Math.max(300, el.current.clientWidth || 600);
    const plot = new uPlot(makeOptions(width), data, el.current);
    if (viewName) {
      viewCaptures.set(viewName, () => plot.ctx.canvas.toDataURL('image/png'));
    }
    return () => {
      if (viewName) viewCaptures.delete(viewName);
      plot.destroy();
    };
  }, deps);
  return el;
}

export function FramesChart({ frames, budgetNs, traceStart }) {
  const data = frames && frames.length
    ? (() => {
        const xs = [];
        const ok = [];
        const janky = [];
        const budget = [];
        for (const f of frames) {
          xs.push((f.ts - traceStart) / 1e9);
          const ms = f.dur / 1e6;
          const isJank = f.jank_type && f.jank_type !== 'None';
          ok.push(isJank ? null : ms);
          janky.push(isJank ? ms : null);
          budget.push(budgetNs ? budgetNs / 1e6 : null);
        }
        return [xs, ok, janky, budget];
      })()
    : null;
  const jankCount = data ? data[2].filter((v) => v !== null).length : 0;
  useViewSummary(
    'frames',
    data && {
      view: 'frames',
      frames: frames.length,
      janky_frames: jankCount,
      frame_budget_ns: budgetNs || null,
      worst_frame_ns: Math.max(...frames.map((f) => f.dur)),
      over_budget: budgetNs ? frames.filter((f) => f.dur > budgetNs).length : null,
    },
    [frames, budgetNs],
  );
  const el = useUPlot(
    (width) => ({
      width,
      height: 220,
      scales: { x: { time: false } },
      axes: [{ label: 'time since trace start (s)' }, { label: 'frame duration (ms)' }],
      series: [
        {},
        { label: 'frame', stroke: '#34a853', width: 0, points: { show: true, size: 4, fill: '#34a853' } },
        { label: 'janky frame', stroke: '#d93025', width: 0, points: { show: true, size: 6, fill: '#d93025' } },
        { label: 'frame budget', stroke: '#1a73e8', width: 1, dash: [6, 4], points: { show: false } },
      ],
    }),
    data,
    [frames, budgetNs],
    'frames',
  );
  if (!data) return <p class="muted">No frame timeline in this trace for the focus app.</p>;
  return (
    <figure class="chart" aria-label="Frame durations over time">
      <figcaption>
        Frame durations — {frames.length} frames, {jankCount} janky
        {budgetNs ? `, budget ${(budgetNs / 1e6).toFixed(2)} ms` : ''}
      </figcaption>
      <div ref={el} />
    </figure>
  );
}

// Vertical bars with category labels under them.
export function BarChart({ title, labels, values, unit, view, color = '#5b8def' }) {
  const data = labels && labels.length ? [labels.map((_, i) => i), values] : null;
  useViewSummary(
    view,
    data && { view, title, unit, bars: labels.map((l, i) => ({ label: l, value: values[i] })) },
    [labels && labels.join('\u0000'), values && values.join(',')],
  );
  const el = useUPlot(
    (width) => ({
      width,
      height: 200,
      scales: { x: { time: false, range: [-0.6, labels.length - 0.4] } },
      axes: [
        {
          splits: () => labels.map((_, i) => i),
          values: (_, splits) => splits.map((i) => String(labels[i] ?? '').slice(0, 16)),
          rotate: labels.length > 6 ? -30 : 0,
          size: labels.length > 6 ? 60 : 30,
        },
        { label: unit },
      ],
      series: [
        {},
        {
          label: title,
          fill: color,
          stroke: color,
          paths: uPlot.paths.bars({ size: [0.7, 60] }),
          points: { show: false },
        },
      ],
      legend: { show: false },
    }),
    data,
    [labels && labels.join('\u0000'), values && values.join(',')],
    view,
  );
  if (!data) return null;
  return (
    <figure class="chart" aria-label={title}>
      <figcaption>{title}</figcaption>
      <div ref={el} />
      <table class="chart-data sr-only">
        <tbody>
          {labels.map((l, i) => (
            <tr key={i}>
              <th>{l}</th>
              <td>{values[i]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
