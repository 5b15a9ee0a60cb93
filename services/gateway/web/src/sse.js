// Server-Sent Events over fetch(): POST bodies (a question) and a Last-Event-ID header on
// resume, which EventSource cannot send after a page reload. Parsing is eventsource-parser's.

import { createParser } from 'eventsource-parser';
import { ApiError, authHeaders, noteStatus } from './api.js';

// Reads one SSE response; calls onEvent({seq, turn, kind, payload, unix_ns}) for each session
// event, resolves with {ended: true} on the server's `end` event or {ended: false} when the
// connection dropped first (the caller resumes from the last seq it saw).
export async function streamEvents({ url, method = 'GET', body, lastEventId, onEvent, signal }) {
  const headers = authHeaders({ Accept: 'text/event-stream' });
  if (lastEventId != null) headers['Last-Event-ID'] = String(lastEventId);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  if (!response.ok) {
    noteStatus(response.status);
    let code = 'HTTP_' + response.status;
    let message = response.statusText;
    try {
      const j = await response.json();
      code = j.error.code;
      message = j.error.message;
    } catch (_) {
      // keep the status line
    }
    throw new ApiError(response.status, code, message);
  }
  let ended = false;
  let streamError = null;
  const parser = createParser({
    onEvent(message) {
      if (message.event === 'end') {
        ended = true;
        return;
      }
      if (message.event === 'stream_error') {
        streamError = JSON.parse(message.data).error;
        return;
      }
      onEvent(JSON.parse(message.data));
    },
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch (e) {
    if (signal && signal.aborted) throw e;
    return { ended: false, error: e };
  }
  if (streamError) throw new ApiError(502, streamError.code, streamError.message);
  return { ended };
}
