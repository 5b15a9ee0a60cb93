// Shared by the SDK client tests: starts `tracewise mcp` through the official MCP TypeScript SDK
// (Client + StdioClientTransport, the way IDE assistants and coding agents start it) and makes
// tracegen traces with their ground truth.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// node_modules comes from `npm ci` in tools/setup.sh (never from the network during a test).
let sdk;
try {
  sdk = {
    ...(await import('@modelcontextprotocol/sdk/client/index.js')),
    ...(await import('@modelcontextprotocol/sdk/client/stdio.js')),
  };
} catch (e) {
  throw new Error(`the MCP SDK is not installed here (${e.message}): run bash tools/setup.sh`);
}
const { Client, StdioClientTransport } = sdk;

export const BIN = process.env.TW_TRACEWISE_BIN;
export const SRC = process.env.TW_SOURCE_DIR;
if (!BIN || !SRC) throw new Error('set TW_TRACEWISE_BIN and TW_SOURCE_DIR (ctest does)');

export const workDir = mkdtempSync(path.join(tmpdir(), 'tw-mcp-sdk-'));
process.on('exit', () => rmSync(workDir, { recursive: true, force: true }));

// A tracegen scenario written to a fresh file; returns its path and ground truth.
export function tracegen(scenario, extra = []) {
  const out = path.join(workDir, `${scenario}-${extra.join('_').replace(/[^a-z0-9]/gi, '')}.pftrace`);
  execFileSync(BIN, ['tracegen', scenario, '-o', out, ...extra], { stdio: ['ignore', 'ignore', 'inherit'] });
  return { path: out, truth: JSON.parse(readFileSync(`${out}.truth.json`, 'utf8')) };
}

// A connected client; `stderr` collects what the server logged. `env` adds to the server's
// environment (everything else is inherited minus any LLM configuration, so the offline
// analyst answers unless a test configures a model).
export async function connect({ args = [], env = {} } = {}) {
  const serverEnv = { ...process.env, ...env };
  for (const key of Object.keys(serverEnv)) {
    if (key.startsWith('TRACEWISE_LLM_') && !(key in env)) delete serverEnv[key];
  }
  const transport = new StdioClientTransport({
    command: BIN,
    args: ['mcp', '--skills', path.join(SRC, 'skills'), '--strategies', path.join(SRC, 'strategies'), ...args],
    env: serverEnv,
    stderr: 'pipe',
  });
  const log = { text: '' };
  transport.stderr.on('data', (chunk) => { log.text += chunk.toString(); });
  const client = new Client({ name: 'tracewise-sdk-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, log };
}

// The text of a tool result's first content block.
export function text(result) {
  return result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}
