// The focus app's main thread and RenderThread on one canvas: per thread a thread-state lane and
// its slices by depth, then the app's frames (janky ones red). Drag selects a time range, a
// click selects a slice, the wheel zooms around the pointer. Text from the trace is drawn as
// canvas text (never markup). `capture()` returns the canvas as a PNG data URL.

import { useEffect, useRef, useState } from 'preact/hooks';
import { formatDurationNs } from './format.js';

const GUTTER = 120;
const STATE_H = 8;
const SLICE_H = 14;
const FRAME_H = 14;
const PAD = 6;

const STATE_COLORS = {
  Running: '#2e9d4f',
  R: '#8ab4f8',
  'R+': '#5b8def',
  S: '#d9d9d9',
  D: '#f29b38',
  DK: '#f29b38',
};

function sliceColor(name) {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) | 0;
  return `hsl(${Math.abs(h) % 360} 45% 62%)`;
}

function layout(data) {
  const lanes = [];
  let y = PAD;
  for (const t of data.threads) {
    const maxDepth = data.slices.reduce((m, s) => (s.utid === t.utid ? Math.max(m, s.depth) : m), -1);
    lanes.push({ kind: 'state', utid: t.utid, y, h: STATE_H, label: `${t.name || 'thread'} ${t.tid}` });
    y += STATE_H + 2;
    const sliceTop = y;
    y += (maxDepth + 1) * SLICE_H + PAD;
    lanes.push({ kind: 'slices', utid: t.utid, y: sliceTop, depths: maxDepth + 1 });
  }
  if (data.frames.length) {
    lanes.push({ kind: 'frames', y, h: FRAME_H, label: 'frames' });
    y += FRAME_H + PAD;
  }
  return { lanes, height: Math.max(y + 14, 60) };
}

// `control` (a plain object owned by the caller) receives capture / showRange / showSlice.
export function Timeline({ data, bounds, selection, highlightSliceId, annotations, onSelect, control }) {
  const canvasRef = useRef(null);
  const wrapRef = useRef(null);
  const [view, setView] = useState(bounds);
  const [drag, setDrag] = useState(null);
  const [width, setWidth] = useState(800);
  const geometry = layout(data);

  useEffect(() => setView(bounds), [bounds && bounds.start, bounds && bounds.end]);
  useEffect(() => {
    const el = wrapRef.current;
    if (!el) return undefined;
    const observer = new ResizeObserver(() => setWidth(Math.max(320, el.clientWidth)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const xOf = (ts) => GUTTER + ((ts - view.start) / Math.max(1, view.end - view.start)) * (width - GUTTER);
  const tsOf = (x) => view.start + ((x - GUTTER) / (width - GUTTER)) * (view.end - view.start);

  if (control) Object.assign(control, {
    capture: () => canvasRef.current.toDataURL('image/png'),
    showRange: (start, end) => {
      const pad = Math.max(1, (end - start) * 0.1);
      setView({ start: start - pad, end: end + pad });
    },
    showSlice: (id) => {
      const s = data.slices.find((x) => x.id === id);
      if (!s) return null;
      const pad = Math.max(s.dur * 2, 1e6);
      setView({ start: s.ts - pad, end: s.ts + s.dur + pad });
      wrapRef.current.scrollIntoView({ block: 'nearest' });
      return s;
    },
  });

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !view) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = width * dpr;
    canvas.height = geometry.height * dpr;
    canvas.style.width = width + 'px';
    canvas.style.height = geometry.height + 'px';
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, width, geometry.height);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    const visible = (ts, dur) => ts + dur >= view.start && ts <= view.end;
    for (const lane of geometry.lanes) {
      if (lane.kind === 'state') {
        ctx.fillStyle = '#333';
        ctx.fillText(lane.label.slice(0, 18), 4, lane.y + 4);
        for (const st of data.states) {
          if (st.utid !== lane.utid || !visible(st.ts, st.dur)) continue;
          const x0 = Math.max(GUTTER, xOf(st.ts));
          const x1 = Math.min(width, xOf(st.ts + st.dur));
          ctx.fillStyle = STATE_COLORS[st.state] || '#bbb';
          ctx.fillRect(x0, lane.y, Math.max(0.5, x1 - x0), STATE_H);
        }
      } else if (lane.kind === 'slices') {
        for (const s of data.slices) {
          if (s.utid !== lane.utid || !visible(s.ts, s.dur)) continue;
          const x0 = Math.max(GUTTER, xOf(s.ts));
          const x1 = Math.min(width, xOf(s.ts + Math.max(s.dur, 0)));
          const y = lane.y + s.depth * SLICE_H;
          const w = Math.max(0.5, x1 - x0);
          ctx.fillStyle = sliceColor(s.name || '');
          ctx.fillRect(x0, y, w, SLICE_H - 1);
          if (w > 30) {
            ctx.fillStyle = '#111';
            ctx.save();
            ctx.beginPath();
            ctx.rect(x0, y, w, SLICE_H);
            ctx.clip();
            ctx.fillText(s.name || '', x0 + 2, y + SLICE_H / 2);
            ctx.restore();
          }
          if (s.id === highlightSliceId) {
            ctx.strokeStyle = '#000';
            ctx.lineWidth = 2;
            ctx.strokeRect(x0 - 1, y - 1, w + 2, SLICE_H + 1);
          }
        }
      } else if (lane.kind === 'frames') {
        ctx.fillStyle = '#333';
        ctx.fillText('frames', 4, lane.y + FRAME_H / 2);
        for (const f of data.frames) {
          if (!visible(f.ts, f.dur)) continue;
          const x0 = Math.max(GUTTER, xOf(f.ts));
          const x1 = Math.min(width, xOf(f.ts + f.dur));
          ctx.fillStyle = f.jank_type && f.jank_type !== 'None' ? '#d93025' : '#34a853';
          ctx.fillRect(x0, lane.y, Math.max(0.5, x1 - x0 - 0.5), FRAME_H);
        }
      }
    }
    const sel = drag || (selection && selection.kind === 'range' ? selection : null);
    if (sel) {
      const a = xOf(Math.min(sel.start_ns, sel.end_ns));
      const b = xOf(Math.max(sel.start_ns, sel.end_ns));
      ctx.fillStyle = 'rgba(26, 115, 232, 0.15)';
      ctx.fillRect(a, 0, b - a, geometry.height);
      ctx.strokeStyle = '#1a73e8';
      ctx.lineWidth = 1;
      ctx.strokeRect(a, 0, b - a, geometry.height);
    }
    for (const n of annotations || []) {
      const x = xOf(n.start_ns);
      if (x < GUTTER || x > width) continue;
      ctx.fillStyle = '#b06000';
      ctx.fillRect(x, 0, 2, geometry.height);
      ctx.fillText('✎ ' + n.text.slice(0, 40), x + 4, geometry.height - 7);
    }
    // Time axis: the view's span.
    ctx.fillStyle = '#666';
    ctx.fillText(formatDurationNs(view.end - view.start) + ' shown', 4, geometry.height - 7);
  });

  if (!view) return null;

  const pointer = (ev) => {
    const r = canvasRef.current.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  };
  const hit = ({ x, y }) => {
    const ts = tsOf(x);
    for (const lane of geometry.lanes) {
      if (lane.kind !== 'slices') continue;
      const depth = Math.floor((y - lane.y) / SLICE_H);
      if (depth < 0 || depth >= lane.depths) continue;
      let best = null;
      for (const s of data.slices) {
        if (s.utid === lane.utid && s.depth === depth && s.ts <= ts && s.ts + s.dur >= ts) best = s;
      }
      if (best) return best;
    }
    return null;
  };

  return (
    <div class="timeline" ref={wrapRef}>
      <canvas
        ref={canvasRef}
        role="img"
        aria-label="Timeline of the main thread and RenderThread"
        onMouseDown={(ev) => {
          const p = pointer(ev);
          if (p.x < GUTTER) return;
          const ts = tsOf(p.x);
          setDrag({ x0: p.x, start_ns: ts, end_ns: ts });
        }}
        onMouseMove={(ev) => {
          if (!drag) return;
          const p = pointer(ev);
          setDrag({ ...drag, end_ns: tsOf(Math.max(GUTTER, Math.min(width, p.x))) });
        }}
        onMouseUp={(ev) => {
          if (!drag) return;
          const p = pointer(ev);
          const d = drag;
          setDrag(null);
          if (Math.abs(p.x - d.x0) > 4) {
            const start = Math.round(Math.min(d.start_ns, d.end_ns));
            const end = Math.round(Math.max(d.start_ns, d.end_ns));
            onSelect({ kind: 'range', start_ns: start, end_ns: end });
          } else {
            const s = hit(p);
            if (s) onSelect({ kind: 'slice', slice_id: s.id, name: s.name, ts: s.ts, dur: s.dur });
          }
        }}
        onMouseLeave={() => setDrag(null)}
        onWheel={(ev) => {
          ev.preventDefault();
          const p = pointer(ev);
          const at = tsOf(p.x);
          const f = ev.deltaY > 0 ? 1.25 : 0.8;
          setView({ start: at - (at - view.start) * f, end: at + (view.end - at) * f });
        }}
      />
      <div class="timeline-bar">
        <button type="button" onClick={() => setView(bounds)}>
          Reset zoom
        </button>
        {selection && selection.kind === 'range' ? (
          <button
            type="button"
            onClick={() => setView({ start: selection.start_ns, end: selection.end_ns })}
          >
            Zoom to selection
          </button>
        ) : null}
        <span class="legend">
          <i style="background:#2e9d4f" /> Running <i style="background:#5b8def" /> Runnable{' '}
          <i style="background:#d9d9d9" /> Sleeping <i style="background:#f29b38" /> Uninterruptible{' '}
          <i style="background:#d93025" /> janky frame
        </span>
      </div>
    </div>
  );
}
