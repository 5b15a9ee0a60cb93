// `tracewise mcp` driven by the official MCP TypeScript SDK client over stdio: the handshake,
// the tool and resource lists, every trace and skill tool on tracegen traces (checked against
// their ground truth), progress, errors as isError results, malformed input answered with a
// JSON-RPC error while the server keeps serving. The SDK validates every structured result
// against the tool's outputSchema, so a result that breaks its schema fails here.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { connect, text, tracegen } from './mcp_client_harness.mjs';

const TOOLS = ['load_trace', 'trace_info', 'list_traces', 'query', 'list_skills', 'describe_skill', 'run_skill',
  'analyze', 'ask', 'list_sessions'];

describe('tracewise mcp through the SDK client', () => {
  let session;
  let binder;
  let traceId;

  before(async () => {
    binder = tracegen('scroll_binder_jank', ['--seed', '7']);
    session = await connect();
  });
  after(async () => { await session.client.close(); });

  test('initialize negotiates the protocol and announces tools and resources', () => {
    const info = session.client.getServerVersion();
    assert.equal(info.name, 'tracewise');
    assert.ok(info.version);
    const caps = session.client.getServerCapabilities();
    assert.ok(caps.tools, 'tools capability');
    assert.ok(caps.resources, 'resources capability');
    assert.match(session.client.getInstructions(), /load_trace/);
    assert.match(session.log.text, /initialized by tracewise-sdk-test with protocol 2025-11-25/);
  });

  test('tools/list has every tool with JSON Schemas', async () => {
    const { tools } = await session.client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of TOOLS) assert.ok(names.includes(name), `${name} listed`);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.ok(tool.description.length > 40, `${tool.name} is described`);
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an output schema`);
    }
    const query = tools.find((t) => t.name === 'query');
    assert.deepEqual(query.inputSchema.required, ['trace_id', 'sql']);
    assert.equal(query.annotations.readOnlyHint, true);
  });

  test('load_trace returns the trace id and an overview, with progress', async () => {
    const progress = [];
    const result = await session.client.callTool(
      { name: 'load_trace', arguments: { path: binder.path } }, undefined,
      { onprogress: (p) => progress.push(p) });
    assert.equal(result.isError, false, text(result));
    const s = result.structuredContent;
    assert.match(s.trace_id, /^[0-9a-f]{64}$/);
    assert.equal(s.state, 'loaded');
    assert.equal(s.format, 'perfetto_proto');
    assert.ok(s.duration_ns > 1e9, 'a 2 s scroll');
    assert.equal(s.context.focus_app, binder.truth.app.package);
    assert.ok(s.context.frames > 0);
    assert.ok(Math.abs(s.context.refresh_hz - 60) < 1, `60 Hz, got ${s.context.refresh_hz}`);
    assert.match(text(result), new RegExp(s.trace_id));
    assert.ok(progress.length >= 2, `progress notifications: ${JSON.stringify(progress)}`);
    assert.ok(progress.every((p, i) => i === 0 || p.progress > progress[i - 1].progress));
    traceId = s.trace_id;
    // The same file again is the same trace.
    const again = await session.client.callTool({ name: 'load_trace', arguments: { path: binder.path } });
    assert.equal(again.structuredContent.trace_id, traceId);
  });

  test('trace_info and list_traces describe it', async () => {
    const info = await session.client.callTool({ name: 'trace_info', arguments: { trace_id: traceId } });
    assert.equal(info.isError, false, text(info));
    assert.equal(info.structuredContent.trace_id, traceId);
    assert.equal(info.structuredContent.context.processes > 5, true);
    const list = await session.client.callTool({ name: 'list_traces', arguments: {} });
    assert.deepEqual(list.structuredContent.traces.map((t) => t.trace_id), [traceId]);
  });

  test('query runs read-only SQL with bound parameters and limits', async () => {
    const r = await session.client.callTool({
      name: 'query',
      arguments: {
        trace_id: traceId,
        sql: 'SELECT COUNT(*) AS janky FROM actual_frame_timeline_slice WHERE jank_type != :none AND upid = (SELECT upid FROM process WHERE name = :app)',
        params: { none: 'None', app: binder.truth.app.package },
      },
    });
    assert.equal(r.isError, false, text(r));
    assert.deepEqual(r.structuredContent.columns, ['janky']);
    assert.equal(r.structuredContent.row_count, 1);
    assert.ok(r.structuredContent.rows[0][0] > 0);
    assert.match(text(r), /janky/);

    const big = await session.client.callTool({
      name: 'query', arguments: { trace_id: traceId, sql: 'SELECT ts, dur FROM sched', max_rows: 7 },
    });
    assert.equal(big.structuredContent.row_count, 7);
    assert.equal(big.structuredContent.truncated, true);
    assert.ok(Number.isInteger(big.structuredContent.rows[0][0]));
  });

  test('query errors are isError results that say what went wrong', async () => {
    const cases = [
      [{ trace_id: traceId, sql: 'SELEC nonsense' }, /SQL error/],
      [{ trace_id: traceId, sql: 'DELETE FROM slice' }, /read-only/],
      [{ trace_id: traceId, sql: 'SELECT * FROM no_such_table' }, /no such table: no_such_table/],
      [{ trace_id: 'f'.repeat(64), sql: 'SELECT 1' }, /unknown trace|not found|NOT_FOUND/i],
      [{ trace_id: traceId }, /missing required property "sql"/],
      [{ trace_id: traceId, sql: 'SELECT 1', max_rows: 0 }, /max_rows: must be at least 1/],
      [{ trace_id: traceId, sql: 'SELECT 1', max_rows: 'ten' }, /max_rows: must be an integer/],
      [{ trace_id: traceId, sql: 'SELECT 1', limit: 5 }, /unknown property "limit"/],
    ];
    for (const [args, message] of cases) {
      const r = await session.client.callTool({ name: 'query', arguments: args });
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(text(r), message, JSON.stringify(args));
    }
    // The trace is untouched.
    const r = await session.client.callTool({ name: 'query', arguments: { trace_id: traceId, sql: 'SELECT COUNT(*) FROM slice' } });
    assert.ok(r.structuredContent.rows[0][0] > 0);
  });

  test('load_trace errors name the problem', async () => {
    const missing = await session.client.callTool({ name: 'load_trace', arguments: { path: '/no/such/file.pftrace' } });
    assert.equal(missing.isError, true);
    assert.match(text(missing), /no such file: \/no\/such\/file\.pftrace/);
    const dir = await session.client.callTool({ name: 'load_trace', arguments: { path: '/tmp' } });
    assert.match(text(dir), /is a directory/);
    const { writeFileSync } = await import('node:fs');
    const junk = `${binder.path}.junk`;
    writeFileSync(junk, Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01, 0x02, 0x03]));
    const bad = await session.client.callTool({ name: 'load_trace', arguments: { path: junk } });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /cannot load/);
  });

  test('list_skills, describe_skill and run_skill', async () => {
    const list = await session.client.callTool({ name: 'list_skills', arguments: {} });
    const names = list.structuredContent.skills.map((s) => s.name);
    for (const name of ['binder_slow_calls', 'jank_root_causes', 'frame_overview']) assert.ok(names.includes(name), name);
    const binderOnly = await session.client.callTool({ name: 'list_skills', arguments: { category: 'ipc' } });
    assert.ok(binderOnly.structuredContent.skills.every((s) => s.category === 'ipc'));

    const described = await session.client.callTool({ name: 'describe_skill', arguments: { skill: 'binder_slow_calls' } });
    assert.equal(described.structuredContent.name, 'binder_slow_calls');
    const minDur = described.structuredContent.inputs.find((i) => i.name === 'min_dur');
    assert.equal(minDur.type, 'duration_ns');
    assert.equal(minDur.default, 1000000);

    const run = await session.client.callTool({
      name: 'run_skill',
      arguments: { trace_id: traceId, skill: 'binder_slow_calls', params: { min_dur: 20000000 } },
    });
    assert.equal(run.isError, false, text(run));
    assert.equal(run.structuredContent.outcome, 'ok');
    const calls = run.structuredContent.steps.find((s) => s.step === 'calls');
    assert.equal(calls.rows.length, binder.truth.binder.injected_count, 'the planted slow calls, no others');
    assert.match(JSON.stringify(calls.rows), /system_server/);
    assert.match(text(run), /Slow binder calls/);
  });

  test('run_skill and describe_skill errors', async () => {
    const cases = [
      [{ trace_id: traceId, skill: 'binder_slow_cals' }, /no skill named "binder_slow_cals" \(similar: .*binder_slow_calls/],
      [{ trace_id: traceId, skill: 'binder_slow_calls', params: { min_dur: 'soon' } }, /bad params for binder_slow_calls: .*min_dur/],
      [{ trace_id: traceId, skill: 'binder_slow_calls', params: { bogus: 1 } }, /unknown input 'bogus'/],
      [{ trace_id: traceId, skill: 'binder_slow_calls', params: { min_dur: [1] } }, /params.min_dur: must be a string or a number/],
      [{ trace_id: 'nope', skill: 'binder_slow_calls' }, /unknown trace id "nope"/],
      [{ skill: 'binder_slow_calls' }, /missing required property "trace_id"/],
    ];
    for (const [args, message] of cases) {
      const r = await session.client.callTool({ name: 'run_skill', arguments: args });
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(text(r), message, JSON.stringify(args));
    }
    const d = await session.client.callTool({ name: 'describe_skill', arguments: { skill: 'nope' } });
    assert.equal(d.isError, true);
  });

  test('a skill the trace lacks data for says so', async () => {
    const r = await session.client.callTool({ name: 'run_skill', arguments: { trace_id: traceId, skill: 'startup_list' } });
    // A scrolling trace has no app startups: either an empty result or not_supported, never a crash.
    if (r.isError) {
      assert.match(text(r), /not_supported|no rows|startup/i);
    } else {
      assert.equal(r.structuredContent.outcome, 'ok');
    }
  });

  test('an unknown tool is a JSON-RPC error, and the server goes on', async () => {
    await assert.rejects(session.client.callTool({ name: 'drop_tables', arguments: {} }),
      (e) => e.code === -32602 && /Unknown tool: drop_tables/.test(e.message));
    const r = await session.client.callTool({ name: 'list_traces', arguments: {} });
    assert.equal(r.isError, false);
  });

  test('malformed JSON gets a JSON-RPC parse error and the server keeps serving', async () => {
    const seen = [];
    const original = session.transport.onmessage;
    session.transport.onmessage = (message, extra) => {
      if (message.id === null || message.id === undefined) seen.push(message);
      if (message.id !== null && message.id !== undefined) original(message, extra);
    };
    try {
      // Raw bytes on the server's stdin, past the SDK (which only ever sends valid JSON).
      const stdin = session.transport._process.stdin;
      stdin.write('{"jsonrpc": "2.0", "id": 5, "method": \n');
      stdin.write('[1, 2, 3]\n');
      stdin.write('{"jsonrpc": "2.0", "method": 42}\n');
      stdin.write(`{"a": ${'['.repeat(5000)}${']'.repeat(5000)}}\n`);
      stdin.write('\u0000\u0001\u0002 not json at all\n');
      const deadline = Date.now() + 10000;
      while (seen.length < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const codes = seen.map((m) => m.error?.code);
      assert.deepEqual(codes, [-32700, -32600, -32600, -32600, -32700], JSON.stringify(seen));
      // ...and it still answers.
      const r = await session.client.callTool({ name: 'query', arguments: { trace_id: traceId, sql: 'SELECT 42 AS answer' } });
      assert.deepEqual(r.structuredContent.rows, [[42]]);
    } finally {
      session.transport.onmessage = original;
    }
  });
});
