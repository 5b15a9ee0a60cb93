// Client-side tools (AskOptions.client_tools): the model asks the UI to focus on evidence, pin a
// note, or render a view; the page performs the request and posts the result back, and the turn
// goes on in the same stream. Results are plain JSON (or a PNG for capture_view).

export const CLIENT_TOOLS = ['select_slice', 'select_time_range', 'add_annotation', 'capture_view'];

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

// `ui`: {selectSlice(id) → slice|null, selectRange(start, end), annotate(note), capture(view) →
// data URL|null}. Returns the body for POST /tool-results.
export async function performClientTool(request, ui) {
  const args = parseArgs(request.arguments);
  const base = { request_id: request.request_id };
  try {
    switch (request.tool) {
      case 'select_slice': {
        const id = Number(args.slice_id);
        const slice = ui.selectSlice(id);
        if (!slice) return { ...base, error: `slice ${args.slice_id} is not on the timeline (main thread / RenderThread of the focus app)` };
        return { ...base, result: { selected: true, slice_id: id, name: slice.name, ts: slice.ts, dur: slice.dur } };
      }
      case 'select_time_range': {
        const start = Number(args.start_ns);
        const end = Number(args.end_ns);
        if (!(end > start)) return { ...base, error: 'select_time_range needs start_ns < end_ns' };
        ui.selectRange(start, end);
        return { ...base, result: { selected: true, start_ns: start, end_ns: end } };
      }
      case 'add_annotation': {
        const note = ui.annotate(args);
        if (!note) return { ...base, error: 'add_annotation needs text and a slice_id or start_ns' };
        return { ...base, result: { annotated: true, start_ns: note.start_ns, text: note.text } };
      }
      case 'capture_view': {
        const view = args.view || 'timeline';
        if (args.start_ns != null && args.end_ns != null && view === 'timeline') {
          ui.selectRange(Number(args.start_ns), Number(args.end_ns));
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        }
        const url = ui.capture(view);
        if (!url) return { ...base, error: `no view named ${view} is shown (views: ${ui.views().join(', ')})` };
        return {
          ...base,
          result: { view, format: 'png' },
          image_png_base64: url.slice(url.indexOf(',') + 1),
        };
      }
      default:
        return { ...base, error: `unknown client tool ${request.tool}` };
    }
  } catch (e) {
    return { ...base, error: String(e && e.message ? e.message : e) };
  }
}
