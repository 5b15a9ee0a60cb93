// The Tracewise web app: hash routes #/ (upload + traces), #/traces/ID[/sessions/SID], #/sessions.

import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
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

function App() {
  const [hash, setHash] = useState(location.hash);
  const [config, setConfig] = useState(null);
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
        </nav>
      </header>
      <main>
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
