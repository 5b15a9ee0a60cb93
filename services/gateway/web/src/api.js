// The gateway's HTTP/JSON API (services/gateway/README.md). Every error the server sends is
// {"error": {"code", "message", "http_status"}}; callers get an ApiError carrying it.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function errorFrom(response) {
  let code = 'HTTP_' + response.status;
  let message = response.statusText || 'request failed';
  try {
    const body = await response.json();
    if (body && body.error) {
      code = body.error.code || code;
      message = body.error.message || message;
    }
  } catch (_) {
    // not JSON: keep the status line
  }
  return new ApiError(response.status, code, message);
}

export async function call(method, path, body) {
  const init = { method, headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (!response.ok) throw await errorFrom(response);
  if (response.status === 204) return null;
  return response.json();
}

export const api = {
  config: () => call('GET', '/api/config'),
  traces: () => call('GET', '/api/traces'),
  trace: (id) => call('GET', `/api/traces/${encodeURIComponent(id)}`),
  overview: (id) => call('GET', `/api/traces/${encodeURIComponent(id)}/overview`),
  query: (id, sql, params = {}, limit = 1000, offset = 0) =>
    call('POST', `/api/traces/${encodeURIComponent(id)}/query`, { sql, params, limit, offset }),
  runSkill: (id, skill, params = {}) =>
    call('POST', `/api/traces/${encodeURIComponent(id)}/skill-runs`, { skill, params }),
  skills: () => call('GET', '/api/skills'),
  sessions: () => call('GET', '/api/sessions'),
  session: (id) => call('GET', `/api/sessions/${encodeURIComponent(id)}`),
  createSession: (trace_id, title) => call('POST', '/api/sessions', { trace_id, title }),
  deleteSession: (id) => call('DELETE', `/api/sessions/${encodeURIComponent(id)}`),
  cancel: (id) => call('POST', `/api/sessions/${encodeURIComponent(id)}/cancel`),
  report: (id, turn) =>
    call('GET', `/api/sessions/${encodeURIComponent(id)}/turns/${turn}/report`),
  submitToolResult: (id, body) =>
    call('POST', `/api/sessions/${encodeURIComponent(id)}/tool-results`, body),
  exportUrl: (id, turn, format) =>
    `/api/sessions/${encodeURIComponent(id)}/turns/${turn}/export?format=${format}`,
};

// Uploads a file as the raw request body (streamed by the gateway to trace-query), reporting
// progress as a fraction. XMLHttpRequest, because fetch() has no upload progress.
export function uploadTrace(file, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/traces?name=${encodeURIComponent(file.name)}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch (_) {
        // handled below
      }
      if (xhr.status >= 200 && xhr.status < 300 && body) {
        onProgress(1);
        resolve(body);
      } else if (body && body.error) {
        reject(new ApiError(xhr.status, body.error.code, body.error.message));
      } else {
        reject(new ApiError(xhr.status, 'HTTP_' + xhr.status, xhr.statusText || 'upload failed'));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', 'the upload was interrupted (network error)'));
    xhr.send(file);
  });
}
