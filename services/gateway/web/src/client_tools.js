// Client-side tools (AskOptions.client_tools): the model asks the UI to focus on evidence, pin a
// note, or render a view; the page performs the request and posts the result back
// (POST /api/sessions/{id}/tool-results → Orchestrator.SubmitToolResult), and the turn goes on
// in the same stream. The body carries exactly one outcome: `result` (JSON), `image_base64` (a
// PNG, capture_view) or `error` (the model reads it as the tool's error).

export const CLIENT_TOOLS = ['select_slice', 'select_time_range', 'add_annotation', 'capture_view'];

// capture_view's views as the orchestrator names them → the page's own view names.
const VIEW_ALIASES = { cpu: 'cpu_by_thread', thread_states: 'main_thread_states' };

function parseArgs(args) {
  if (args == null) return {};
  if (typeof args === 'string') {
    try {
      return JSON.parse(args);
    } catch (_) {
      return {};
    }
  }
  return args;
}

const nextFrame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));

// `ui`: {selectSlice(id) → Promise<slice|null>, selectRange(start, end), annotate(args) →
// Promise<note|null>, capture(view) → PNG data URL|null, summarize(view, range) →
// Promise<object|null>, views() → names}. Returns the body for POST /tool-results.
export async function performClientTool(request, ui) {
  const args = parseArgs(request.arguments);
  const base = { request_id: request.request_id };
  try {
    switch (request.tool) {
      case 'select_slice': {
        const id = Number(args.slice_id);
        const slice = await ui.selectSlice(id);
        if (!slice) return { ...base, error: `the trace has no slice with id ${args.slice_id}` };
        return {
          ...base,
          result: {
            selected: true,
            slice_id: id,
            name: slice.name,
            ts: slice.ts,
            dur: slice.dur,
            // On the timeline (main thread / RenderThread) the slice itself is highlighted;
            // elsewhere its time span is selected.
            shown_as: slice.onTimeline ? 'slice' : 'time_range',
          },
        };
      }
      case 'select_time_range': {
        const start = Number(args.start_ns);
        const end = Number(args.end_ns);
        if (!(end > start)) return { ...base, error: 'select_time_range needs start_ns < end_ns' };
        ui.selectRange(start, end);
        return { ...base, result: { selected: true, start_ns: start, end_ns: end } };
      }
      case 'add_annotation': {
        const note = await ui.annotate(args);
        if (!note) return { ...base, error: 'add_annotation needs text and a slice_id (of this trace) or start_ns' };
        return { ...base, result: { annotated: true, start_ns: note.start_ns, end_ns: note.end_ns, text: note.text } };
      }
      case 'capture_view': {
        const asked = args.view || 'timeline';
        const view = VIEW_ALIASES[asked] || asked;
        const range =
          args.start_ns != null && args.end_ns != null
            ? { start_ns: Number(args.start_ns), end_ns: Number(args.end_ns) }
            : null;
        if (range && view === 'timeline') {
          ui.selectRange(range.start_ns, range.end_ns);
          await nextFrame();
        }
        // A drawn view comes back as a PNG; a view the page does not draw (memory) as a
        // summary of its data.
        const url = ui.capture(view);
        if (url) return { ...base, image_base64: url.slice(url.indexOf(',') + 1), mime_type: 'image/png' };
        const summary = await ui.summarize(view, range);
        if (summary) return { ...base, result: { view: asked, format: 'data', ...summary } };
        return { ...base, error: `the page shows no ${asked} view for this trace (it shows: ${ui.views().join(', ')})` };
      }
      default:
        return { ...base, error: `unknown client tool ${request.tool}` };
    }
  } catch (e) {
    return { ...base, error: String(e && e.message ? e.message : e) };
  }
}
