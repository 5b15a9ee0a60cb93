// `tracewise mcp --services`: the same tools against real trace-query and skill-engine service
// processes on loopback. load_trace uploads the file to trace-query; SQL runs there and skills on
// the skill-engine; the answers match the embedded server's.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { SRC, connect, text, tracegen, workDir } from './mcp_client_harness.mjs';

const TRACE_QUERY = process.env.TW_TRACE_QUERY_BIN;
const SKILL_ENGINE = process.env.TW_SKILL_ENGINE_BIN;
const ORCHESTRATOR = process.env.TW_ORCHESTRATOR_BIN;

// Starts a service on an ephemeral loopback port; resolves with its process and address.
function startService(binary, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [...args, '--listen', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${binary} did not start: ${out}`)), 30000);
    child.stdout.on('data', (chunk) => {
      out += chunk.toString();
      const m = out.match(/listening on (\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ child, address: m[1] });
      }
    });
    child.on('exit', (code) => reject(new Error(`${binary} exited with ${code}: ${out}`)));
  });
}

describe('tracewise mcp --services', { skip: !TRACE_QUERY || !SKILL_ENGINE }, () => {
  const services = [];
  let remote;
  let local;
  let deployed;
  let trace;

  before(async () => {
    trace = tracegen('scroll_binder_jank', ['--seed', '11']);
    const tq = await startService(TRACE_QUERY, ['--data-dir', mkdtempSync(path.join(workDir, 'tq-'))]);
    services.push(tq);
    const se = await startService(SKILL_ENGINE, ['--trace-query', tq.address, '--skills', path.join(SRC, 'skills')]);
    services.push(se);
    remote = await connect({ args: ['--services', `${tq.address},${se.address}`] });
    local = await connect();
    if (ORCHESTRATOR) {
      const orch = await startService(ORCHESTRATOR, ['--trace-query', tq.address, '--skill-engine', se.address,
        '--data-dir', mkdtempSync(path.join(workDir, 'orch-')), '--skills', path.join(SRC, 'skills'),
        '--strategies', path.join(SRC, 'strategies')]);
      services.push(orch);
      deployed = await connect({ args: ['--services', `${tq.address},${se.address}`, '--orchestrator', orch.address] });
    }
  });
  after(async () => {
    await remote?.client.close();
    await local?.client.close();
    await deployed?.client.close();
    for (const s of services) s.child.kill('SIGTERM');
  });

  test('load, query and run a skill through the services, as embedded', async () => {
    assert.match(remote.log.text, /services \(trace-query at 127\.0\.0\.1:\d+, skill-engine at 127\.0\.0\.1:\d+\)/);
    const r = await remote.client.callTool({ name: 'load_trace', arguments: { path: trace.path } });
    const l = await local.client.callTool({ name: 'load_trace', arguments: { path: trace.path } });
    assert.equal(r.isError, false, text(r));
    assert.equal(r.structuredContent.trace_id, l.structuredContent.trace_id, 'the same content id');
    assert.deepEqual(r.structuredContent.context, l.structuredContent.context);
    const id = r.structuredContent.trace_id;

    const sql = 'SELECT name, COUNT(*) AS n FROM slice GROUP BY name ORDER BY n DESC, name LIMIT 20';
    const rq = await remote.client.callTool({ name: 'query', arguments: { trace_id: id, sql } });
    const lq = await local.client.callTool({ name: 'query', arguments: { trace_id: id, sql } });
    assert.deepEqual(rq.structuredContent.rows, lq.structuredContent.rows);

    const args = { trace_id: id, skill: 'binder_slow_calls', params: { min_dur: 20000000 } };
    const rs = await remote.client.callTool({ name: 'run_skill', arguments: args });
    const ls = await local.client.callTool({ name: 'run_skill', arguments: args });
    assert.equal(rs.isError, false, text(rs));
    const rows = (s) => s.structuredContent.steps.find((x) => x.step === 'calls').rows;
    assert.deepEqual(rows(rs), rows(ls));
    assert.equal(rows(rs).length, trace.truth.binder.injected_count);

    const info = await remote.client.callTool({ name: 'trace_info', arguments: { trace_id: id } });
    assert.equal(info.structuredContent.state, 'loaded');
    const list = await remote.client.callTool({ name: 'list_traces', arguments: {} });
    assert.ok(list.structuredContent.traces.some((t) => t.trace_id === id));
  });

  test('analyze through the services gives the embedded diagnosis', async () => {
    const id = (await remote.client.callTool({ name: 'load_trace', arguments: { path: trace.path } })).structuredContent.trace_id;
    await local.client.callTool({ name: 'load_trace', arguments: { path: trace.path } });
    const args = { trace_id: id, question: 'why is scrolling janky?' };
    const progress = [];
    const r = await remote.client.callTool({ name: 'analyze', arguments: args }, undefined,
      { timeout: 120000, onprogress: (p) => progress.push(p) });
    const l = await local.client.callTool({ name: 'analyze', arguments: args }, undefined, { timeout: 120000 });
    assert.equal(r.isError, false, text(r));
    assert.ok(progress.length >= 3);
    const findings = (x) => x.structuredContent.report.findings.map((f) => [f.severity, f.title]);
    assert.deepEqual(findings(r), findings(l));
    assert.match(findings(r).map((f) => f[1]).join('\n'), /binder/i);
    const follow = await remote.client.callTool({ name: 'ask', arguments: {
      session_id: r.structuredContent.session_id, question: 'how long are the slow binder calls?' } },
    undefined, { timeout: 120000 });
    assert.equal(follow.isError, false, text(follow));
    assert.equal(follow.structuredContent.turn, 2);
  });

  test('--orchestrator: analyze, ask, list_sessions and cancel run on the deployment', { skip: !ORCHESTRATOR }, async () => {
    assert.match(deployed.log.text, /analyze on the orchestrator at 127\.0\.0\.1:\d+/);
    const id = (await deployed.client.callTool({ name: 'load_trace', arguments: { path: trace.path } })).structuredContent.trace_id;
    await local.client.callTool({ name: 'load_trace', arguments: { path: trace.path } });
    const args = { trace_id: id, question: 'what makes the scroll stutter?' };
    const progress = [];
    const r = await deployed.client.callTool({ name: 'analyze', arguments: args }, undefined,
      { timeout: 120000, onprogress: (p) => progress.push(p) });
    assert.equal(r.isError, false, text(r));
    assert.equal(r.structuredContent.status, 'done');
    assert.equal(r.structuredContent.trace_id, id);
    assert.ok(progress.length >= 3, JSON.stringify(progress));
    const l = await local.client.callTool({ name: 'analyze', arguments: args }, undefined, { timeout: 120000 });
    const findings = (x) => x.structuredContent.report.findings.map((f) => [f.severity, f.title]);
    assert.deepEqual(findings(r), findings(l), 'the orchestrator runs the same turn runner');
    assert.match(text(r), /binder/i);

    const session = r.structuredContent.session_id;
    const follow = await deployed.client.callTool({ name: 'ask', arguments: { session_id: session, question: 'and the binder server?' } },
      undefined, { timeout: 120000 });
    assert.equal(follow.isError, false, text(follow));
    assert.equal(follow.structuredContent.turn, 2);
    const listed = await deployed.client.callTool({ name: 'list_sessions', arguments: { trace_id: id } });
    const mine = listed.structuredContent.sessions.find((s) => s.session_id === session);
    assert.deepEqual(mine.turns.map((t) => t.status), ['done', 'done']);

    const unknown = await deployed.client.callTool({ name: 'ask', arguments: { session_id: 'nope', question: 'hm?' } });
    assert.equal(unknown.isError, true);
    assert.match(text(unknown), /unknown session "nope"|not found/i);

    // Cancelled: the orchestrator's turn ends as cancelled.
    const controller = new AbortController();
    let steps = 0;
    await assert.rejects(deployed.client.callTool(
      { name: 'ask', arguments: { session_id: session, question: 'everything again, in full', mode: 'full' } }, undefined,
      { signal: controller.signal, timeout: 120000, onprogress: () => { if (++steps === 1) controller.abort('stop'); } }));
    let status = '';
    const deadline = Date.now() + 30000;
    while (Date.now() < deadline) {
      const again = await deployed.client.callTool({ name: 'list_sessions', arguments: { trace_id: id } });
      const turns = again.structuredContent.sessions.find((s) => s.session_id === session).turns;
      status = turns.length === 3 ? turns[2].status : '';
      if (status && status !== 'running') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    assert.equal(status, 'cancelled');
  });

  test('errors come back the same way', async () => {
    const q = await remote.client.callTool({ name: 'query', arguments: { trace_id: 'a'.repeat(64), sql: 'SELECT 1' } });
    assert.equal(q.isError, true);
    const w = await remote.client.callTool({ name: 'load_trace', arguments: { path: '/no/such.pftrace' } });
    assert.match(text(w), /no such file/);
  });
});
