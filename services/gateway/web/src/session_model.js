// A session's numbered events (services/orchestrator/README.md) folded into what the chat shows:
// per turn the question, plan, steps as they run, streamed text, artifacts, findings, verifier
// result, conclusion, client tool requests and the final status.

export function emptyTurn(index) {
  return {
    index,
    question: '',
    scene: '',
    mode: '',
    plan: null,
    steps: [],
    stepById: {},
    text: '',
    textCall: 0,
    artifacts: {},
    findings: [],
    verifier: null,
    conclusion: null,
    errors: [],
    toolRequests: [],
    hypotheses: [],
    usage: null,
    done: null,
    lastSeq: 0,
    startedNs: 0,
    selection: null,
    referenceTraceId: '',
  };
}

function step(turn, id, fields) {
  let s = turn.stepById[id];
  if (!s) {
    s = { id, label: '', status: 'running', startNs: 0, endNs: 0, message: '', artifacts: [] };
    turn.stepById[id] = s;
    turn.steps.push(s);
  }
  Object.assign(s, fields);
  return s;
}

// Folds one event into `turns` (a map index → turn). Pure apart from mutating the map.
export function applyEvent(turns, e) {
  let turn = turns[e.turn];
  if (!turn) {
    turn = emptyTurn(e.turn);
    turn.startedNs = e.unix_ns;
    turns[e.turn] = turn;
  }
  turn.lastSeq = e.seq;
  const p = e.payload || {};
  switch (e.kind) {
    case 'progress':
      if (p.stage === 'scene') {
        turn.scene = p.scene || '';
        turn.mode = p.mode || '';
      } else if (p.stage === 'skill') {
        step(turn, 'skill:' + p.skill, {
          label: 'skill ' + p.skill,
          status: p.status || 'ok',
          message: p.message || '',
          artifacts: p.artifacts || [],
          endNs: e.unix_ns,
          startNs: turn.stepById['skill:' + p.skill] ? turn.stepById['skill:' + p.skill].startNs : turn.lastStepEnd || turn.startedNs,
        });
        turn.lastStepEnd = e.unix_ns;
      } else if (p.stage === 'comparison') {
        step(turn, 'cmp:' + p.skill, { label: 'compare ' + p.skill, status: 'ok', startNs: e.unix_ns, endNs: e.unix_ns });
      } else if (p.stage === 'verifying') {
        step(turn, 'verify', { label: 'verifier', status: 'running', startNs: e.unix_ns });
      }
      break;
    case 'text_delta':
      if (p.call !== turn.textCall) {
        turn.textCall = p.call;
        turn.text = '';
      }
      turn.text += p.text || '';
      break;
    case 'tool_call': {
      let label = p.tool;
      try {
        const args = typeof p.arguments === 'string' ? JSON.parse(p.arguments) : p.arguments || {};
        if (args.skill) label += ' ' + args.skill;
      } catch (_) {
        // arguments are shown as the tool name only
      }
      step(turn, 'tool:' + p.id, { label, status: 'running', startNs: e.unix_ns, tool: p.tool });
      turn.lastStepEnd = e.unix_ns;
      break;
    }
    case 'tool_result':
      step(turn, 'tool:' + p.id, {
        status: p.ok ? 'ok' : 'failed',
        endNs: e.unix_ns,
        message: p.summary || '',
        artifacts: p.artifacts || [],
      });
      turn.lastStepEnd = e.unix_ns;
      break;
    case 'data_envelope':
      if (p.id) turn.artifacts[p.id] = p;
      break;
    case 'plan':
      turn.plan = p;
      break;
    case 'hypothesis':
      turn.hypotheses = p.hypotheses || [];
      break;
    case 'finding':
      turn.findings = turn.findings.filter((f) => f.id !== p.id).concat([p]);
      break;
    case 'verifier_issues':
      turn.verifier = p;
      if (turn.stepById.verify) Object.assign(turn.stepById.verify, { status: p.passed ? 'ok' : 'failed', endNs: e.unix_ns });
      break;
    case 'conclusion':
      turn.conclusion = p;
      break;
    case 'usage':
      turn.usage = p;
      break;
    case 'error':
      turn.errors.push(p);
      break;
    case 'client_tool_request':
      turn.toolRequests.push({ ...p, seq: e.seq });
      break;
    case 'done':
      turn.done = p;
      break;
    default:
      break;
  }
  return turn;
}

export function foldEvents(events) {
  const turns = {};
  for (const e of events) applyEvent(turns, e);
  return Object.values(turns).sort((a, b) => a.index - b.index);
}

// The client tool requests the session's last turn is waiting on: its client_tool_request events
// with no tool_result for the same request_id yet (a model step may ask for several at once), and
// none once the turn is done.
export function pendingToolRequests(events) {
  if (!events.length) return [];
  const turn = events[events.length - 1].turn;
  const requests = [];
  const answered = new Set();
  for (let i = events.length - 1; i >= 0 && events[i].turn === turn; i -= 1) {
    const e = events[i];
    const p = e.payload || {};
    if (e.kind === 'done') return [];
    if (e.kind === 'tool_result' && p.request_id) answered.add(p.request_id);
    if (e.kind === 'client_tool_request' && !answered.has(p.request_id)) {
      requests.unshift({ ...p, turn: e.turn, seq: e.seq });
    }
  }
  return requests;
}
