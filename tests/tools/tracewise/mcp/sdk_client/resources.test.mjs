// The resources of `tracewise mcp` through the SDK client: the skill library, the strategies
// and knowledge, the SQL schema (whole and per table), and the errors for unknown URIs.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { connect } from './mcp_client_harness.mjs';

describe('tracewise mcp resources', () => {
  let session;
  before(async () => { session = await connect(); });
  after(async () => { await session.client.close(); });

  async function read(uri) {
    const r = await session.client.readResource({ uri });
    assert.equal(r.contents.length, 1);
    assert.equal(r.contents[0].uri, uri);
    return r.contents[0];
  }

  test('resources/list covers skills, strategies, knowledge and the schema', async () => {
    const { resources } = await session.client.listResources();
    const uris = resources.map((r) => r.uri);
    for (const uri of ['tracewise://skills', 'tracewise://skills/binder_slow_calls', 'tracewise://strategies',
      'tracewise://strategies/scrolling', 'tracewise://schema']) {
      assert.ok(uris.includes(uri), uri);
    }
    assert.ok(uris.some((u) => u.startsWith('tracewise://knowledge/')));
    for (const r of resources) {
      assert.ok(r.name && r.mimeType, r.uri);
    }
    const { resourceTemplates } = await session.client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ['tracewise://schema/{table}']);
  });

  test('the skill library', async () => {
    const index = await read('tracewise://skills');
    assert.equal(index.mimeType, 'text/markdown');
    assert.match(index.text, /\*\*jank_root_causes\*\*/);
    const yaml = await read('tracewise://skills/binder_slow_calls');
    assert.equal(yaml.mimeType, 'application/yaml');
    assert.match(yaml.text, /name: binder_slow_calls/);
    assert.match(yaml.text, /android_binder_txns/);
  });

  test('the strategies and knowledge', async () => {
    const index = await read('tracewise://strategies');
    for (const scene of ['scrolling', 'startup', 'anr']) assert.match(index.text, new RegExp(`\\*\\*${scene}\\*\\*`));
    const scrolling = await read('tracewise://strategies/scrolling');
    assert.match(scrolling.text, /^---/);
    assert.match(scrolling.text, /scene: scrolling/);
  });

  test('the SQL schema, whole and per table', async () => {
    const schema = await read('tracewise://schema');
    for (const table of ['thread_state', 'actual_frame_timeline_slice', 'sched', 'slice']) {
      assert.match(schema.text, new RegExp(`\\*\\*${table}\\*\\*`), table);
    }
    assert.match(schema.text, /`android\.frames\.timeline`/);
    const slice = await read('tracewise://schema/slice');
    assert.match(slice.text, /## slice/);
    for (const column of ['ts', 'dur', 'track_id', 'name', 'depth']) {
      assert.match(slice.text, new RegExp(`\\| ${column} \\|`), column);
    }
  });

  test('unknown resources are JSON-RPC errors', async () => {
    await assert.rejects(session.client.readResource({ uri: 'tracewise://skills/nope' }),
      (e) => e.code === -32002 && /no resource tracewise:\/\/skills\/nope/.test(e.message));
    await assert.rejects(session.client.readResource({ uri: 'tracewise://schema/no_such_table' }),
      (e) => e.code === -32002 && /no table or view named "no_such_table"/.test(e.message));
    await assert.rejects(session.client.readResource({ uri: 'file:///etc/passwd' }), (e) => e.code === -32002);
  });
});
