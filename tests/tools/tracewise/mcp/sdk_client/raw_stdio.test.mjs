// `tracewise mcp` spoken to byte by byte, below any SDK: the 2026-07-28 per-request era
// (server/discover, `_meta` on every request, resultType and cache hints), stdout carrying only
// protocol messages, oversized and hostile lines, and a prompt exit when stdin closes.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';

import { BIN, SRC, tracegen } from './mcp_client_harness.mjs';

const MODERN = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1' },
};

// A server process with line-level access to its stdout.
function start() {
  const child = spawn(BIN, ['mcp', '--skills', path.join(SRC, 'skills'), '--strategies', path.join(SRC, 'strategies')],
    { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = [];
  const waiters = [];
  let buffer = '';
  child.stdout.on('data', (chunk) => {
    buffer += chunk.toString();
    for (let i; (i = buffer.indexOf('\n')) >= 0;) {
      lines.push(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
    }
    for (const w of waiters.splice(0)) w();
  });
  let stderr = '';
  child.stderr.on('data', (c) => { stderr += c.toString(); });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    stderr: () => stderr,
    send(message) { child.stdin.write(typeof message === 'string' ? `${message}\n` : `${JSON.stringify(message)}\n`); },
    // The parsed message answering `id` (or, for id undefined, the next unmatched error).
    async answer(id, timeoutMs = 20000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.map((l) => JSON.parse(l)).find((m) => m.id === id && (m.result || m.error));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no answer to ${id}; stdout: ${lines.join('\n')}`);
        await new Promise((r) => { waiters.push(r); setTimeout(r, 50); });
      }
    },
  };
}

describe('tracewise mcp on raw stdio', () => {
  test('the 2026-07-28 era: no handshake, per-request metadata', async () => {
    const s = start();
    s.send({ jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: MODERN } });
    const discover = await s.answer('d');
    assert.equal(discover.result.resultType, 'complete');
    assert.deepEqual(discover.result.supportedVersions.slice(0, 2), ['2026-07-28', '2025-11-25']);
    assert.ok(discover.result.capabilities.tools);
    assert.equal(discover.result._meta['io.modelcontextprotocol/serverInfo'].name, 'tracewise');
    assert.ok(discover.result.ttlMs >= 0);
    assert.equal(discover.result.cacheScope, 'public');

    s.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: MODERN } });
    const list = await s.answer(1);
    assert.equal(list.result.resultType, 'complete');
    assert.ok(list.result.tools.some((t) => t.name === 'query'));
    assert.ok('ttlMs' in list.result);

    const trace = tracegen('scroll_smooth', ['--duration-s', '1']);
    s.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'load_trace', arguments: { path: trace.path }, _meta: { ...MODERN, progressToken: 'p2' } } });
    const loaded = await s.answer(2);
    assert.equal(loaded.result.resultType, 'complete');
    assert.equal(loaded.result.isError, false);
    const progress = s.lines.map((l) => JSON.parse(l)).filter((m) => m.method === 'notifications/progress');
    assert.ok(progress.length >= 2 && progress.every((m) => m.params.progressToken === 'p2'));

    s.send({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'tracewise://nope', _meta: MODERN } });
    assert.equal((await s.answer(3)).error.code, -32602, 'resource not found is -32602 since 2026-07-28');

    s.send({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: { ...MODERN, 'io.modelcontextprotocol/protocolVersion': '2030-01-01' } } });
    const unsupported = await s.answer(4);
    assert.equal(unsupported.error.code, -32022);
    assert.equal(unsupported.error.data.requested, '2030-01-01');
    assert.ok(unsupported.error.data.supported.includes('2026-07-28'));

    s.send({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    const noVersion = await s.answer(5);
    assert.equal(noVersion.error.code, -32602);
    assert.match(noVersion.error.message, /send initialize first .* or give _meta/);

    s.send({ jsonrpc: '2.0', id: 6, method: 'logging/setLevel', params: { level: 'debug', _meta: MODERN } });
    assert.equal((await s.answer(6)).error.code, -32601);

    s.child.stdin.end();
    assert.equal(await s.exited, 0);
    // Every line of stdout was a JSON-RPC message; the logs went to stderr.
    for (const line of s.lines) assert.equal(JSON.parse(line).jsonrpc, '2.0');
    assert.match(s.stderr(), /serving \d+ tools/);
  });

  test('hostile input: an oversized line, deep nesting, binary noise', async () => {
    const s = start();
    s.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    assert.equal((await s.answer(1)).result.protocolVersion, '2025-06-18');
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    s.send(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"${'x'.repeat(17 << 20)}"}}`);
    s.send(`${'{"a":'.repeat(100000)}1${'}'.repeat(100000)}`);
    s.send(Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0x00, 0x7b]).toString('latin1'));
    s.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'query', arguments: 'SELECT 1' } });
    s.send({ jsonrpc: '2.0', id: 4, method: 'ping' });
    assert.deepEqual((await s.answer(4)).result, {});
    const errors = s.lines.map((l) => JSON.parse(l)).filter((m) => m.error);
    assert.deepEqual(errors.map((m) => m.error.code), [-32600, -32600, -32700, -32602]);
    assert.match(errors[0].error.message, /longer than/);
    assert.equal(errors[3].id, 3);
    s.child.stdin.end();
    assert.equal(await s.exited, 0);
  });

  test('a client that stops reading does not hang the server', async () => {
    const s = start();
    s.child.stdout.destroy();
    s.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    s.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    const code = await Promise.race([s.exited, new Promise((r) => setTimeout(() => r('hung'), 10000))]);
    assert.notEqual(code, 'hung');
    if (code === 'hung') s.child.kill('SIGKILL');
  });
});
