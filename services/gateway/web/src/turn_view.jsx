// One turn of the chat: question, plan and steps as they run, the streamed answer, findings with
// severity (numbers linked to their evidence rows), evidence tables, causal chain, verifier.

import { useEffect, useState } from 'preact/hooks';
import { renderMarkdown } from './markdown.js';
import { EvidenceTable, rowDomId } from './evidence_table.jsx';
import { LinkedText } from './finding_text.jsx';
import { formatDurationNs, SEVERITY_ORDER } from './format.js';
import { api, downloadWithToken, token } from './api.js';

// With a bearer token the export links download through fetch (a link cannot send the token).
function exportWithToken(event) {
  if (!token()) return;
  event.preventDefault();
  const href = event.currentTarget.getAttribute('href');
  downloadWithToken(href).catch((e) => alert('Export failed: ' + e.message));
}

function Markdown({ text }) {
  // renderMarkdown escapes raw HTML and sanitizes the result (markdown.js).
  return <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />;
}

function Plan({ plan }) {
  if (!plan || !plan.phases || !plan.phases.length) return null;
  return (
    <div class="plan">
      <div class="label">Plan</div>
      <ol>
        {plan.phases.map((p) => (
          <li key={p.id} class={'phase ' + (p.status || 'pending')}>
            <span class="phase-status">{p.status || 'pending'}</span> {p.id}
            {p.goal ? <span class="muted"> — {p.goal}</span> : null}
          </li>
        ))}
      </ol>
    </div>
  );
}

function Steps({ steps, running }) {
  if (!steps.length) return null;
  return (
    <div class="steps" aria-label="Steps">
      <div class="label">Steps</div>
      <ul>
        {steps.map((s) => (
          <li key={s.id} class={'step ' + s.status}>
            <span class="step-status">{s.status === 'running' && running ? '⏳' : s.status === 'ok' ? '✓' : s.status === 'running' ? '…' : '✗'}</span>{' '}
            {s.label}
            {s.endNs && s.startNs ? <span class="muted"> {formatDurationNs(s.endNs - s.startNs)}</span> : null}
            {s.status !== 'ok' && s.message ? <span class="muted"> — {s.message}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

function severityRank(s) {
  const i = SEVERITY_ORDER.indexOf(s);
  return i < 0 ? 99 : i;
}

function Verifier({ turn, report }) {
  let passed = null;
  let issues = [];
  if (report) {
    passed = report.verified;
    issues = report.verifier_issues || [];
  } else if (turn.verifier) {
    passed = turn.verifier.passed;
    issues = turn.verifier.issues || [];
  } else if (turn.conclusion && turn.conclusion.verified !== undefined) {
    passed = turn.conclusion.verified;
  }
  if (passed === null) return null;
  return (
    <div class={'verifier ' + (passed ? 'passed' : 'failed')} aria-label="Verifier result">
      <strong>Verifier: {passed ? 'passed' : 'not passed'}</strong>
      {issues.length ? (
        <ul>
          {issues.map((i, k) => (
            <li key={k}>
              [{i.severity}] {i.kind}: {i.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function TurnView({ turn, sessionId, traceStart, running }) {
  const [report, setReport] = useState(null);
  const [target, setTarget] = useState(null);
  const finished = !!turn.done;
  useEffect(() => {
    let live = true;
    if (finished) {
      api
        .report(sessionId, turn.index)
        .then((r) => live && setReport(r))
        .catch(() => {});
    }
    return () => {
      live = false;
    };
  }, [finished, sessionId, turn.index]);

  const artifacts = {};
  Object.assign(artifacts, turn.artifacts);
  if (report && report.artifacts) for (const a of report.artifacts) artifacts[a.id] = a;

  const findings = (report && report.findings ? report.findings : turn.findings)
    .slice()
    .sort((a, b) => severityRank(a.severity) - severityRank(b.severity));
  const cited = [];
  for (const f of findings) for (const id of f.evidence || []) if (!cited.includes(id) && artifacts[id]) cited.push(id);

  const answer = turn.conclusion ? turn.conclusion.answer : turn.text;
  const goTo = (link) => {
    setTarget(link);
    requestAnimationFrame(() => {
      const el = document.getElementById(rowDomId(link.artifact_id, link.row));
      if (el) el.scrollIntoView({ block: 'center' });
    });
  };

  return (
    <article class="turn" data-turn={turn.index}>
      <div class="question-echo">
        <span class="label">Q{turn.index}</span> {turn.question}
        {turn.scene ? <span class="chip">{turn.scene}</span> : null}
        {turn.mode ? <span class="chip">{turn.mode}</span> : null}
      </div>
      <Plan plan={turn.plan} />
      <Steps steps={turn.steps} running={running && !finished} />
      <section aria-label="Answer" class="answer">
        {answer ? <Markdown text={answer} /> : running && !finished ? <div class="muted">Working…</div> : null}
      </section>
      {turn.errors.map((e, i) => (
        <div key={i} class="error" role="alert">
          {e.code}: {e.message}
        </div>
      ))}
      {findings.length ? (
        <section aria-label="Findings" class="findings">
          <h3>Findings</h3>
          {findings.map((f) => (
            <div key={f.id} class={'finding sev-' + f.severity}>
              <div class="finding-head">
                <span class={'severity ' + f.severity}>{f.severity}</span>{' '}
                <strong>
                  <LinkedText text={f.title || ''} links={f.title_links} onLink={goTo} />
                </strong>
              </div>
              {f.description ? (
                <div class="finding-desc">
                  <LinkedText text={f.description} links={f.links} onLink={goTo} />
                </div>
              ) : null}
              {f.evidence && f.evidence.length ? (
                <div class="muted small">evidence: {f.evidence.join(', ')}</div>
              ) : null}
              {f.suggestions && f.suggestions.length ? (
                <ul class="suggestions">
                  {f.suggestions.map((s, i) => (
                    <li key={i}>{s}</li>
                  ))}
                </ul>
              ) : null}
            </div>
          ))}
        </section>
      ) : null}
      {cited.length ? (
        <section aria-label="Evidence" class="evidence-list">
          <h3>Evidence</h3>
          {cited.map((id) => (
            <EvidenceTable
              key={id}
              artifact={artifacts[id]}
              traceStart={traceStart}
              highlightRow={target && target.artifact_id === id ? target.row : -1}
            />
          ))}
        </section>
      ) : null}
      {report && report.causal_chain && report.causal_chain.length ? (
        <section aria-label="Causal chain" class="causal">
          <h3>Causal chain</h3>
          <ol>
            {report.causal_chain.map((l, i) => (
              <li key={i}>
                {l.statement}
                {l.evidence && l.evidence.length ? <span class="muted small"> ({l.evidence.join(', ')})</span> : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {report && report.recommendations && report.recommendations.length ? (
        <section aria-label="Recommendations">
          <h3>Recommendations</h3>
          <ul>
            {report.recommendations.map((r, i) => (
              <li key={i}>{r}</li>
            ))}
          </ul>
        </section>
      ) : null}
      <Verifier turn={turn} report={report} />
      {finished ? (
        <div class="turn-foot">
          <span class="muted small">
            {turn.done.status} {turn.done.stop_reason ? '— ' + turn.done.stop_reason : ''}
          </span>
          <a class="button" href={api.exportUrl(sessionId, turn.index, 'html')} download onClick={exportWithToken}>
            Export report
          </a>
          <a class="muted small" href={api.exportUrl(sessionId, turn.index, 'md')} download onClick={exportWithToken}>
            Markdown
          </a>
          <a class="muted small" href={api.exportUrl(sessionId, turn.index, 'json')} download onClick={exportWithToken}>
            JSON
          </a>
        </div>
      ) : null}
    </article>
  );
}
