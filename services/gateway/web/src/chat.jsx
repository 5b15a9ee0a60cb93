// The chat of one session: turns as they stream, the question box with its scope chip (the
// timeline selection sent as AskOptions.selection), mode and comparison choice.

import { useState } from 'preact/hooks';
import { TurnView } from './turn_view.jsx';
import { formatDurationNs } from './format.js';

export function scopeText(selection, traceStart) {
  if (!selection) return '';
  if (selection.kind === 'range') {
    const s = ((selection.start_ns - traceStart) / 1e9).toFixed(3);
    const e = ((selection.end_ns - traceStart) / 1e9).toFixed(3);
    return `${s}–${e} s (${formatDurationNs(selection.end_ns - selection.start_ns)})`;
  }
  return `slice ${selection.slice_id}${selection.name ? ' “' + selection.name + '”' : ''}`;
}

export function Chat({ turns, questions, sessionId, traceStart, streaming, error, selection, onClearSelection, traces, traceId, onAsk, onCancel }) {
  const [question, setQuestion] = useState('');
  const [mode, setMode] = useState('auto');
  const [reference, setReference] = useState('');
  const others = (traces || []).filter((t) => t.trace_id !== traceId);
  const submit = (ev) => {
    ev.preventDefault();
    const q = question.trim();
    if (!q || streaming) return;
    onAsk(q, { mode, reference_trace_id: reference || undefined });
    setQuestion('');
  };
  return (
    <div class="chat">
      <div class="turns">
        {turns.map((t) => (
          <TurnView
            key={t.index}
            turn={{ ...t, question: questions[t.index] || t.question }}
            sessionId={sessionId}
            traceStart={traceStart}
            running={streaming}
          />
        ))}
      </div>
      {error ? (
        <div class="error" role="alert">
          {error.code ? error.code + ': ' : ''}
          {error.message}
        </div>
      ) : null}
      <form class="ask" onSubmit={submit}>
        {selection ? (
          <div class="scope-chip" aria-label="Scope">
            Scope: {scopeText(selection, traceStart)}
            <button type="button" aria-label="Remove scope" onClick={onClearSelection}>
              ×
            </button>
          </div>
        ) : null}
        <label for="question" class="sr-only">
          Question
        </label>
        <textarea
          id="question"
          rows={2}
          placeholder="Why does scrolling stutter?"
          value={question}
          onInput={(e) => setQuestion(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) submit(e);
          }}
        />
        <div class="ask-row">
          <label>
            Mode{' '}
            <select value={mode} onChange={(e) => setMode(e.currentTarget.value)}>
              <option value="auto">auto</option>
              <option value="quick">quick</option>
              <option value="full">full</option>
            </select>
          </label>
          <label>
            Compare with{' '}
            <select value={reference} onChange={(e) => setReference(e.currentTarget.value)}>
              <option value="">(no reference trace)</option>
              {others.map((t) => (
                <option key={t.trace_id} value={t.trace_id}>
                  {t.name || t.trace_id.slice(0, 12)}
                </option>
              ))}
            </select>
          </label>
          {streaming ? (
            <button type="button" onClick={onCancel}>
              Cancel
            </button>
          ) : null}
          <button type="submit" disabled={streaming}>
            Ask
          </button>
        </div>
      </form>
    </div>
  );
}
