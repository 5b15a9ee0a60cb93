// The Tracewise web app: hash routes #/ (upload + traces), #/traces/ID[/sessions/SID], #/sessions.

import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, setToken, token } from './api.js';
import { HomePage, SessionsPage } from './pages.jsx';
import { TracePage } from './trace_page.jsx';
import './styles.css';

function route(hash) {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'traces' && parts[1]) {
    return { page: 'trace', traceId: parts[1], sessionId: parts[2] === 'sessions' ? parts[3] : null };
  }
  if (parts[0] === 'sessions') return { page: 'sessions' };
  return { page: 'home' };
}

// Asked for when the gateway answers 401 (auth on): a token from `tracewise auth issue` or the
// identity provider, kept for this tab.
function TokenDialog({ onDone }) {
  const [value, setValue] = useState('');
  const submit = (e) => {
    e.preventDefault();
    setToken(value.trim().replace(/^Bearer\s+/i, ''));
    onDone();
    location.reload();
  };
  return (
    <div class="token-dialog" role="dialog" aria-label="Sign in">
      <form onSubmit={submit}>
        <p>
          This Tracewise requires a token. {token() ? 'The one given was refused. ' : ''}Paste an API
          key or JWT:
        </p>
        <input
          type="password"
          autocomplete="off"
          aria-label="Token"
          value={value}
          onInput={(e) => setValue(e.currentTarget.value)}
        />
        <button type="submit" disabled={!value.trim()}>
          Use token
        </button>
      </form>
    </div>
  );
}

function App() {
  const [hash, setHash] = useState(location.hash);
  const [config, setConfig] = useState(null);
  const [askToken, setAskToken] = useState(false);
  useEffect(() => {
    const onUnauthorized = () => setAskToken(true);
    addEventListener('tracewise:unauthorized', onUnauthorized);
    return () => removeEventListener('tracewise:unauthorized', onUnauthorized);
  }, []);
  useEffect(() => {
    const onHash = () => setHash(location.hash);
    addEventListener('hashchange', onHash);
    api.config().then(setConfig).catch(() => {});
    return () => removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    // First render on screen: the browser tests and the benchmark read this mark.
    requestAnimationFrame(() => performance.mark('tracewise-first-render'));
  }, []);
  const navigate = (h) => {
    if (location.hash !== h) location.hash = h;
  };
  const r = route(hash);
  return (
    <>
      <header class="top">
        <a href="#/" class="brand">
          Tracewise
        </a>
        <nav>
          <a href="#/">Traces</a>
          <a href="#/sessions">Sessions</a>
          {token() ? (
            <a
              href="#/"
              onClick={() => {
                setToken('');
                location.reload();
              }}
            >
              Sign out
            </a>
          ) : null}
        </nav>
      </header>
      <main>
        {askToken ? <TokenDialog onDone={() => setAskToken(false)} /> : null}
        {r.page === 'home' ? <HomePage config={config} navigate={navigate} /> : null}
        {r.page === 'sessions' ? <SessionsPage /> : null}
        {r.page === 'trace' ? (
          <TracePage key={r.traceId} traceId={r.traceId} sessionId={r.sessionId} navigate={navigate} />
        ) : null}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app'));
