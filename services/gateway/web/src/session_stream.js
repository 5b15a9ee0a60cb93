// One session's event log in the browser: ask (POST, streamed), follow (GET with Last-Event-ID,
// i.e. Orchestrator.Resume), reconnect after a dropped connection, and survive a page reload:
// the events seen so far are kept in sessionStorage, so a reload renders them at once and
// resumes after the last one — no event lost, none applied twice.

import { streamEvents } from './sse.js';

const STORAGE_PREFIX = 'tracewise.events.';

export class SessionStream {
  constructor(sessionId) {
    this.sessionId = sessionId;
    this.events = [];
    // Every seq the server delivered, in order, duplicates included: what the browser tests
    // check for gaps and doubles across reloads.
    this.received = [];
    this.listeners = new Set();
    this.streaming = false;
    this.error = null;
    this.abort = null;
    this.restore();
  }

  get lastSeq() {
    return this.events.length ? this.events[this.events.length - 1].seq : 0;
  }

  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  notify() {
    for (const fn of this.listeners) fn(this);
  }

  restore() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(STORAGE_PREFIX + this.sessionId) || 'null');
      if (saved && Array.isArray(saved.events)) {
        this.events = saved.events;
        this.received = saved.received || saved.events.map((e) => e.seq);
      }
    } catch (_) {
      this.events = [];
    }
  }

  persist() {
    try {
      sessionStorage.setItem(
        STORAGE_PREFIX + this.sessionId,
        JSON.stringify({ events: this.events, received: this.received }),
      );
    } catch (_) {
      // Over the storage quota: a reload then replays the session from its first event.
      sessionStorage.removeItem(STORAGE_PREFIX + this.sessionId);
    }
  }

  accept(event) {
    this.received.push(event.seq);
    if (event.seq <= this.lastSeq) return; // already applied (never expected; counted above)
    this.events.push(event);
    this.dirty = true;
    if (!this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        if (this.dirty) {
          this.dirty = false;
          this.persist();
          this.notify();
        }
      });
    }
  }

  flush() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.dirty = false;
    this.persist();
    this.notify();
  }

  // Asks a question; the answer streams into the log. Resolves when the turn's stream ends.
  async ask(question, options) {
    return this.run(() =>
      streamEvents({
        url: `/api/sessions/${encodeURIComponent(this.sessionId)}/turns`,
        method: 'POST',
        body: { question, options },
        onEvent: (e) => this.accept(e),
        signal: this.abort.signal,
      }),
    );
  }

  // Follows the session from the last event seen (replaying what was missed, then the running
  // turn until it ends).
  async follow() {
    return this.run(() => this.resumeOnce());
  }

  resumeOnce() {
    return streamEvents({
      url: `/api/sessions/${encodeURIComponent(this.sessionId)}/events`,
      lastEventId: this.lastSeq,
      onEvent: (e) => this.accept(e),
      signal: this.abort.signal,
    });
  }

  async run(first) {
    if (this.abort) this.abort.abort();
    const abort = new AbortController();
    this.abort = abort;
    this.streaming = true;
    this.error = null;
    this.notify();
    try {
      let result = await first();
      // A dropped connection: resume after the last event, a few times with a short backoff.
      for (let attempt = 0; !result.ended && attempt < 20 && !abort.signal.aborted; attempt++) {
        await new Promise((r) => setTimeout(r, Math.min(2000, 100 * 2 ** attempt)));
        result = await this.resumeOnce();
      }
    } catch (e) {
      if (!abort.signal.aborted) this.error = e;
    } finally {
      if (this.abort === abort) {
        this.streaming = false;
        this.abort = null;
      }
      this.flush();
    }
  }

  close() {
    if (this.abort) this.abort.abort();
    this.listeners.clear();
  }
}

// One stream per session for the page's lifetime, so a question asked before the URL names the
// new session is followed by the same object the re-rendered page reads.
const streams = new Map();
export function streamFor(sessionId) {
  let s = streams.get(sessionId);
  if (!s) {
    s = new SessionStream(sessionId);
    streams.set(sessionId, s);
  }
  return s;
}
