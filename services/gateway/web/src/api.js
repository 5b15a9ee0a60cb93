// The gateway's HTTP/JSON API (services/gateway/README.md). Every error the server sends is
// {"error": {"code", "message", "http_status"}}; callers get an ApiError carrying it.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// The bearer token (issue #16) when the gateway requires one: kept for this tab only
// (sessionStorage), sent on every API call. A 401 raises `tracewise:unauthorized`, on which the
// app asks for a token (main.jsx).
const TOKEN_KEY = 'tracewise.token';

export function token() {
  try {
    return sessionStorage.getItem(TOKEN_KEY) || '';
  } catch (_) {
    return '';
  }
}

export function setToken(value) {
  try {
    if (value) sessionStorage.setItem(TOKEN_KEY, value);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch (_) {
    // storage disabled: the token lasts until the page reloads
  }
}

export function authHeaders(headers = {}) {
  const t = token();
  if (t) headers.Authorization = 'Bearer ' + t;
  return headers;
}

export function noteStatus(status) {
  if (status === 401) dispatchEvent(new CustomEvent('tracewise:unauthorized'));
}

async function errorFrom(response) {
  noteStatus(response.status);
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
  const init = { method, headers: authHeaders({ Accept: 'application/json' }) };
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

// Downloads an API resource (a report export) with the token: a plain link cannot send the
// Authorization header. Returns false when no token is set (the link's own download works).
export async function downloadWithToken(path) {
  if (!token()) return false;
  const response = await fetch(path, { headers: authHeaders() });
  if (!response.ok) throw await errorFrom(response);
  const blob = await response.blob();
  const disposition = response.headers.get('Content-Disposition') || '';
  const name = (/filename="?([^";]+)"?/.exec(disposition) || [])[1] || 'tracewise-report';
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  return true;
}

// Uploads a file as the raw request body (streamed by the gateway to trace-query), reporting
// progress as a fraction. XMLHttpRequest, because fetch() has no upload progress.
export function uploadTrace(file, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/traces?name=${encodeURIComponent(file.name)}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    if (token()) xhr.setRequestHeader('Authorization', 'Bearer ' + token());
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
      noteStatus(xhr.status);
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
