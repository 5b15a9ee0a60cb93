// analyze with a model: `tracewise mcp` configured for an OpenAI-compatible provider whose server
// is a scripted one on loopback speaking the real Chat Completions streaming protocol (SSE
// chunks, tool calls streamed in pieces, usage, [DONE]). The model's SQL call runs on the loaded
// trace, the answer comes back as the MCP result, each step arrives as progress, and a follow-up
// sends the earlier exchange to the model.

import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';

import { connect, text, tracegen } from './mcp_client_harness.mjs';

// A scripted provider: each request gets the next scripted reply (a list of SSE chunks).
function scriptedProvider() {
  const script = [];
  const requests = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      requests.push({ path: req.url, headers: req.headers, body: JSON.parse(body || '{}') });
      const reply = script.shift();
      if (!reply) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'script exhausted', type: 'server_error' } }));
        return;
      }
      // A model takes a while: the progress of the steps before this call reaches the client
      // well before the result (the SDK drops progress it handles after the response).
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for (const chunk of reply) res.write(chunk);
        res.end();
      }, 150);
    });
  });
  const chunk = (delta, finish = null) => `data: ${JSON.stringify({
    id: 'chatcmpl-mcp', object: 'chat.completion.chunk', model: 'gpt-4o-2024-08-06',
    choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const usage = `data: ${JSON.stringify({ id: 'chatcmpl-mcp', object: 'chat.completion.chunk', choices: [],
    usage: { prompt_tokens: 1500, completion_tokens: 80 } })}\n\n`;
  const pieces = (s, n) => { const out = []; for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n)); return out; };
  return {
    server, requests,
    toolCall(id, name, args) {
      const a = JSON.stringify(args);
      script.push([chunk({ role: 'assistant', content: '' }),
        chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }] }),
        ...pieces(a, 9).map((p) => chunk({ tool_calls: [{ index: 0, function: { arguments: p } }] })),
        chunk({}, 'tool_calls'), usage, 'data: [DONE]\n\n']);
    },
    text(t) {
      script.push([chunk({ role: 'assistant', content: '' }), ...pieces(t, 40).map((p) => chunk({ content: p })),
        chunk({}, 'stop'), usage, 'data: [DONE]\n\n']);
    },
  };
}

describe('analyze with an LLM provider', () => {
  let provider;
  let session;
  let traceId;

  before(async () => {
    provider = scriptedProvider();
    await new Promise((res) => provider.server.listen(0, '127.0.0.1', res));
    const { port } = provider.server.address();
    session = await connect({ env: {
      TRACEWISE_LLM_PROVIDER: 'openai', TRACEWISE_LLM_MODEL: 'gpt-4o',
      TRACEWISE_LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, TRACEWISE_LLM_API_KEY: 'sk-mcp-test',
      TRACEWISE_LLM_RETRY_BACKOFF_MS: '1' } });
    const t = tracegen('scroll_binder_jank', ['--seed', '3']);
    const r = await session.client.callTool({ name: 'load_trace', arguments: { path: t.path } });
    traceId = r.structuredContent.trace_id;
  });
  after(async () => {
    await session?.client.close();
    provider?.server.close();
  });

  test('the model investigates through the tools and its answer is the result', async () => {
    assert.match(session.log.text, /analyze with the LLM agent \(gpt-4o\)/);
    provider.toolCall('call_1', 'execute_sql', { sql: 'SELECT COUNT(*) AS threads FROM thread' });
    provider.text('The trace has the threads counted in sql-1.');
    const progress = [];
    const r = await session.client.callTool(
      { name: 'analyze', arguments: { trace_id: traceId, question: 'how many threads are in the trace?', mode: 'quick' } },
      undefined, { timeout: 120000, onprogress: (p) => progress.push(p) });
    assert.equal(r.isError, false, text(r));
    assert.equal(r.structuredContent.deterministic, false);
    assert.equal(r.structuredContent.status, 'done');
    assert.match(text(r), /The trace has the threads counted in sql-1\./);
    assert.ok(progress.some((p) => /tool execute_sql/.test(p.message)), JSON.stringify(progress));
    assert.equal(provider.requests[0].path, '/v1/chat/completions');
    assert.equal(provider.requests[0].headers.authorization, 'Bearer sk-mcp-test');
    assert.equal(provider.requests[0].body.stream, true);
    // The SQL ran on the trace: its result went back to the model.
    const toolMessage = provider.requests[1].body.messages.find((m) => m.role === 'tool');
    assert.ok(toolMessage, JSON.stringify(provider.requests[1].body.messages.map((m) => m.role)));
    assert.match(JSON.stringify(toolMessage.content), /threads/);

    provider.text('As counted in sql-1 above.');
    const follow = await session.client.callTool(
      { name: 'ask', arguments: { session_id: r.structuredContent.session_id, question: 'and processes?', mode: 'quick' } },
      undefined, { timeout: 120000 });
    assert.equal(follow.isError, false, text(follow));
    assert.match(JSON.stringify(provider.requests.at(-1).body.messages), /how many threads are in the trace\?/);
  });

  test('a provider failure is an isError result and the server keeps serving', async () => {
    // Nothing scripted: the provider answers 500 on every attempt.
    const r = await session.client.callTool(
      { name: 'analyze', arguments: { trace_id: traceId, question: 'what is slow?', mode: 'quick' } },
      undefined, { timeout: 120000 });
    assert.equal(r.isError, true);
    assert.match(text(r), /the analysis ended with status error: .*(500|script exhausted)/is);
    const q = await session.client.callTool({ name: 'query', arguments: { trace_id: traceId, sql: 'SELECT 1 AS one' } });
    assert.deepEqual(q.structuredContent.rows, [[1]]);
  });
});
