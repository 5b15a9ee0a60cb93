// analyze / ask / list_sessions through the official MCP TypeScript SDK client over stdio: the
// diagnosis of tracegen traces names the cause their ground truth planted (several scenarios,
// seeds, refresh rates and phrasings), each step arrives as a progress notification, a follow-up
// continues the session, a cancelled analyze stops (its turn is recorded as cancelled and the
// server keeps serving), and bad arguments are isError results naming what is wrong.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { connect, text, tracegen } from './mcp_client_harness.mjs';

// What a report says, in one string: the answer, findings and causal chain.
function reportText(result) {
  const r = result.structuredContent.report;
  return [r.overview ?? '', ...(r.findings ?? []).map((f) => `${f.title} ${f.description ?? ''}`),
    JSON.stringify(r.causal_chain ?? [])].join('\n');
}

// How each planted cause shows in a diagnosis.
const CAUSE_WORDS = { binder: /binder/i, gc: /\bGC\b|garbage collect/i, lock: /lock|monitor/i };

describe('analyze, ask and list_sessions through the SDK client', () => {
  let session;
  const traces = {};

  before(async () => {
    session = await connect();
    const load = async (name, scenario, extra) => {
      const t = tracegen(scenario, extra);
      const r = await session.client.callTool({ name: 'load_trace', arguments: { path: t.path } });
      assert.equal(r.isError, false, text(r));
      traces[name] = { ...t, id: r.structuredContent.trace_id };
    };
    await load('binder', 'scroll_binder_jank', ['--seed', '7']);
    await load('gc', 'scroll_gc_pressure', ['--seed', '23', '--fps', '120']);
    await load('lock', 'scroll_lock_contention', ['--seed', '5', '--fps', '90', '--duration-s', '3']);
  });
  after(async () => { await session.client.close(); });

  test('tools/list has the analysis tools with their schemas', async () => {
    const { tools } = await session.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of ['analyze', 'ask', 'list_sessions']) {
      assert.ok(byName[name], `${name} listed`);
      assert.equal(byName[name].outputSchema?.type, 'object');
    }
    assert.deepEqual(byName.analyze.inputSchema.required, ['trace_id']);
    assert.ok(byName.analyze.inputSchema.properties.scene.enum.includes('scrolling'));
    assert.deepEqual(byName.ask.inputSchema.required, ['session_id', 'question']);
  });

  for (const [name, question] of [
    ['binder', 'Why does scrolling stutter?'],
    ['gc', 'Why does it drop frames?'],
    ['lock', 'the list feels janky when I fling it — what is going on?'],
  ]) {
    test(`analyze names the planted cause (${name}: "${question}"), with progress`, async () => {
      const t = traces[name];
      const progress = [];
      const result = await session.client.callTool(
        { name: 'analyze', arguments: { trace_id: t.id, question } }, undefined,
        { onprogress: (p) => progress.push(p), timeout: 120000 });
      assert.equal(result.isError, false, text(result));
      const s = result.structuredContent;
      assert.equal(s.status, 'done');
      assert.equal(s.trace_id, t.id);
      assert.equal(s.turn, 1);
      assert.equal(s.deterministic, true, 'no LLM configured: the offline analyst');
      assert.equal(s.report.scene, 'scrolling');
      for (const cause of t.truth.planted_causes) {
        assert.match(reportText(result), CAUSE_WORDS[cause], `planted cause ${cause} named:\n${text(result)}`);
      }
      assert.match(text(result), new RegExp(`session_id ${s.session_id}`));
      assert.match(text(result), CAUSE_WORDS[t.truth.planted_causes[0]]);
      assert.ok(progress.length >= 3, `progress per step: ${JSON.stringify(progress)}`);
      assert.ok(progress.every((p, i) => i === 0 || p.progress > progress[i - 1].progress));
      assert.ok(progress.some((p) => /skill /.test(p.message)), JSON.stringify(progress));
      t.session = s.session_id;
    });
  }

  test('ask continues the session on its trace; list_sessions shows the turns', async () => {
    const t = traces.binder;
    assert.ok(t.session, 'analyze ran first');
    const r = await session.client.callTool(
      { name: 'ask', arguments: { session_id: t.session, question: 'Which process do the slow binder calls go to?' } },
      undefined, { timeout: 120000 });
    assert.equal(r.isError, false, text(r));
    assert.equal(r.structuredContent.session_id, t.session);
    assert.equal(r.structuredContent.trace_id, t.id);
    assert.equal(r.structuredContent.turn, 2);
    assert.match(text(r), /binder/i);

    const all = await session.client.callTool({ name: 'list_sessions', arguments: {} });
    assert.equal(all.isError, false, text(all));
    assert.ok(all.structuredContent.sessions.length >= 3);
    const mine = await session.client.callTool({ name: 'list_sessions', arguments: { trace_id: t.id } });
    assert.equal(mine.structuredContent.sessions.length, 1);
    const turns = mine.structuredContent.sessions[0].turns;
    assert.deepEqual(turns.map((x) => x.status), ['done', 'done']);
    assert.equal(turns[1].question, 'Which process do the slow binder calls go to?');
    assert.match(text(mine), new RegExp(t.session));
  });

  test('a cancelled analyze stops, is recorded as cancelled, and the server keeps serving', async () => {
    const t = traces.gc;
    const controller = new AbortController();
    let steps = 0;
    const call = session.client.callTool(
      { name: 'analyze', arguments: { trace_id: t.id, question: 'Give me everything: why is it slow?', mode: 'full' } },
      undefined,
      { signal: controller.signal, timeout: 120000, onprogress: () => { if (++steps === 1) controller.abort('user stopped it'); } });
    await assert.rejects(call, /abort|cancel|user stopped it/i);
    // The turn ends as cancelled (the runner stops at its next step, the SQL at its next poll).
    let turns = [];
    const deadline = Date.now() + 30000;
    while (Date.now() < deadline) {
      const r = await session.client.callTool({ name: 'list_sessions', arguments: { trace_id: t.id } });
      turns = r.structuredContent.sessions.flatMap((x) => x.turns).filter((x) => x.question.startsWith('Give me everything'));
      if (turns.length === 1 && turns[0].status !== 'running') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    assert.equal(turns.length, 1, JSON.stringify(turns));
    assert.equal(turns[0].status, 'cancelled');
    const q = await session.client.callTool({ name: 'query', arguments: { trace_id: t.id, sql: 'SELECT 7 AS x' } });
    assert.deepEqual(q.structuredContent.rows, [[7]]);
  });

  test('bad arguments are isError results that say what is wrong', async () => {
    const id = traces.binder.id;
    const cases = [
      ['analyze', { question: 'why?' }, /missing required property "trace_id"/],
      ['analyze', { trace_id: 'f'.repeat(64), question: 'why?' }, /unknown trace id/],
      ['analyze', { trace_id: id, scene: 'bogus' }, /scene: must be one of/],
      ['analyze', { trace_id: id, mode: 'fast' }, /mode: must be one of/],
      ['analyze', { trace_id: id, colour: 'red' }, /unknown property "colour"/],
      ['ask', { session_id: 'nope', question: 'and now?' }, /unknown session "nope"/],
      ['ask', { session_id: traces.binder.session ?? 'x' }, /missing required property "question"/],
      ['list_sessions', { limit: 0 }, /limit: must be at least 1/],
    ];
    for (const [name, args, message] of cases) {
      const r = await session.client.callTool({ name, arguments: args });
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
      assert.match(text(r), message, `${name} ${JSON.stringify(args)}`);
    }
  });
});
