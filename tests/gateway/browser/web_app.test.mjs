// The web app end to end in headless Debian chromium (playwright-core), one browser and one page
// reused across the steps. Started by tests/gateway/web_app_browser_test.cc, which runs the
// services, the gateway and a scripted model, and passes everything in the environment:
// TW_GATEWAY_URL, TW_CONTROL_URL (scripts the model), TW_TRACE, TW_REFERENCE_TRACE,
// TW_JUNK_TRACE, TW_OVERSIZED_TRACE, TW_ARTIFACTS (screenshots), TW_HOSTILE_NAME(2), TW_SLOW_ANSWER.
// Run from services/gateway/web (its node_modules).

import { createRequire } from 'node:module';
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const require = createRequire(join(process.cwd(), 'package.json'));
const { chromium } = require('playwright-core');

const env = process.env;
const base = env.TW_GATEWAY_URL;
const shots = env.TW_ARTIFACTS;
const figures = {};
let stepNo = 0;

function check(condition, message) {
  if (!condition) throw new Error('check failed: ' + message);
}

async function control(path, method = 'POST') {
  const r = await fetch(env.TW_CONTROL_URL + path, { method });
  if (!r.ok) throw new Error(`control ${path}: ${r.status} ${await r.text()}`);
  return r.status === 204 ? null : r.json();
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
const page = await context.newPage();
const dialogs = [];
page.on('dialog', async (d) => {
  dialogs.push(d.message());
  await d.dismiss();
});
const consoleErrors = [];
page.on('console', (m) => {
  if (m.type() === 'error') consoleErrors.push(m.text());
});
page.setDefaultTimeout(30000);

async function step(name, fn) {
  stepNo += 1;
  const t0 = Date.now();
  try {
    await fn();
  } finally {
    await page.screenshot({ path: join(shots, `${String(stepNo).padStart(2, '0')}-${name}.png`), fullPage: true });
  }
  console.log(`ok ${stepNo} ${name} (${Date.now() - t0} ms)`);
}

const answer = () => page.getByRole('region', { name: 'Answer' }).last();
const ask = async (question) => {
  await page.getByRole('textbox', { name: 'Question' }).fill(question);
  await page.getByRole('button', { name: 'Ask' }).click();
};
const traceIdFromUrl = () => decodeURIComponent(page.url().split('#/traces/')[1].split('/')[0]);
const sessionIdFromUrl = () => decodeURIComponent(page.url().split('/sessions/')[1]);
const waitTurnDone = async (n) =>
  page.locator(`article.turn[data-turn="${n}"] .turn-foot`).waitFor({ timeout: 60000 });

try {
  await step('home-first-render', async () => {
    await page.goto(base + '/');
    await page.getByLabel('Trace file').waitFor({ state: 'attached' });
    const [firstRender, nav] = await page.evaluate(() => {
      const m = performance.getEntriesByName('tracewise-first-render');
      const n = performance.getEntriesByType('navigation')[0];
      return [m.length ? m[0].startTime : null,
        { responseEnd: n.responseEnd, domInteractive: n.domInteractive, domContentLoaded: n.domContentLoadedEventEnd, load: n.loadEventEnd }];
    });
    console.log('navigation timing (ms):', JSON.stringify(nav));
    check(firstRender !== null, 'first render mark');
    figures.first_render_ms = Math.round(firstRender);
    console.log(`first render: ${firstRender.toFixed(0)} ms after navigation start`);
    check(firstRender < 1000, `first render ${firstRender} ms < 1000 ms`);
  });

  await step('junk-upload', async () => {
    await page.getByLabel('Trace file').setInputFiles(env.TW_JUNK_TRACE);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = await alert.innerText();
    check(/junk\.pftrace/.test(text) && text.length > 20, `junk error shown: ${text}`);
    check(!/HTTP_|network/i.test(text), `the server's own message, not a transport error: ${text}`);
  });

  await step('oversized-upload', async () => {
    await page.getByLabel('Trace file').setInputFiles(env.TW_OVERSIZED_TRACE);
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: 'upload limit' }).waitFor();
    // The server refuses it too (for clients that do not check first).
    const status = await page.evaluate(async () => {
      const r = await fetch('/api/traces?name=big', {
        method: 'POST',
        body: new Blob([new Uint8Array(8 * 1024 * 1024 + 4096)]),
      });
      return { status: r.status, body: await r.json() };
    });
    check(status.status === 413 && status.body.error.code === 'RESOURCE_EXHAUSTED', 'server 413');
  });

  let referenceId = '';
  await step('upload-reference', async () => {
    await page.getByLabel('Trace file').setInputFiles(env.TW_REFERENCE_TRACE);
    await page.waitForURL(/#\/traces\//);
    referenceId = traceIdFromUrl();
    await page.goto(base + '/#/');
    await page.locator('table.trace-list').waitFor();
  });

  let traceId = '';
  await step('upload-and-overview', async () => {
    await page.getByLabel('Trace file').setInputFiles(env.TW_TRACE);
    await page.waitForURL(/#\/traces\//);
    traceId = traceIdFromUrl();
    const overview = page.getByRole('region', { name: 'Trace overview' });
    await overview.waitFor();
    await page.getByLabel('Focus app').getByText('com.example.feed').waitFor();
    await page.getByLabel('Capabilities').getByText('frame timeline').waitFor();
    // The hostile process name is shown as text and nothing ran.
    const processes = page.getByRole('table', { name: 'Processes' });
    await processes.getByText(env.TW_HOSTILE_NAME, { exact: true }).waitFor({ state: 'attached' });
    await processes.getByText(env.TW_HOSTILE_NAME2, { exact: true }).waitFor({ state: 'attached' });
    const injected = await page.evaluate(() => document.querySelectorAll('img').length);
    check(injected === 0, 'no <img> from a process name');
    check(dialogs.length === 0, 'no alert() ran');
  });

  await step('charts-and-timeline', async () => {
    await page.getByRole('img', { name: 'Timeline of the main thread and RenderThread' }).waitFor();
    const frames = page.locator('figure[aria-label="Frame durations over time"] canvas');
    await frames.first().waitFor();
    const box = await frames.first().boundingBox();
    check(box && box.width > 200 && box.height > 100, 'frames chart drawn');
    await page.locator('figure[aria-label="Jank causes (app-late frames)"] canvas').first().waitFor();
    await page.locator('figure[aria-label="CPU time by thread (focus app)"] canvas').first().waitFor();
    await page.locator('figure[aria-label="Main thread states"] canvas').first().waitFor();
    const caption = await page.locator('figure[aria-label="Frame durations over time"] figcaption').innerText();
    check(/janky/.test(caption) && /budget 11\.1/.test(caption), `frames caption: ${caption}`);
  });

  await step('ask-stream-findings-evidence', async () => {
    await control(`/script/investigation?trace=${traceId}`);
    await ask('why does scrolling stutter?');
    // The answer streams in: seen partly before the turn ends.
    await answer().getByText('Scrolling stutters').waitFor({ timeout: 60000 });
    const partial = await answer().innerText();
    await waitTurnDone(1);
    const full = await answer().innerText();
    check(full.length >= partial.length, 'answer grew');
    await page.getByRole('region', { name: 'Findings' }).getByText('Janky frames').waitFor();
    await page.getByText('Verifier:').first().waitFor();
    // Plan and steps as they ran.
    await page.getByLabel('Steps').getByText('execute_sql').first().waitFor();
    await page.getByLabel('Steps').getByText('invoke_skill jank_root_causes').first().waitFor();
    // The evidence table: sortable, units from the column types, numbers linked to their row.
    const table = page.getByRole('table', { name: 'Evidence sql-1' });
    await table.waitFor();
    const header = table.getByRole('button', { name: /frames/ }).first();
    await header.click();
    await table.locator('th[aria-sort="ascending"]').waitFor();
    const link = page.locator('.findings a.number-link').first();
    await link.waitFor();
    await link.click();
    await table.locator('tr.target').waitFor();
  });

  await step('scoped-question', async () => {
    const canvas = page.getByRole('img', { name: 'Timeline of the main thread and RenderThread' });
    const box = await canvas.boundingBox();
    const y = box.y + 20;
    await page.mouse.move(box.x + 300, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 420, y, { steps: 5 });
    await page.mouse.up();
    const chip = page.getByLabel('Scope', { exact: true });
    await chip.waitFor();
    // Set by an effect after the chip renders: wait for it rather than read it once.
    await page.waitForFunction(() => window.__tracewiseSelection && window.__tracewiseSelection.kind === 'range');
    const scope = await page.evaluate(() => window.__tracewiseSelection);
    check(scope && scope.kind === 'range' && scope.end_ns > scope.start_ns, 'a range is selected');
    await control('/script/scoped');
    await ask('what happens in this range?');
    await waitTurnDone(2);
    const requests = await control('/requests', 'GET');
    const last = requests[requests.length - 1];
    check(last.includes(`Time range ${scope.start_ns} .. ${scope.end_ns} ns`),
      'the selection reached the orchestrator and the model');
    await page.getByRole('button', { name: 'Remove scope' }).click();
    check((await page.getByLabel('Scope', { exact: true }).count()) === 0, 'the chip is removable');
  });

  let turn = 3;
  await step('client-tool-round-trip', async () => {
    const config = await (await fetch(base + '/api/config')).json();
    check(config.client_tools.includes('select_slice'), 'select_slice offered');
    await control(`/script/client_tool?trace=${traceId}`);
    await ask('show me the slowest frame');
    // select_slice: the page highlights the slice and answers; the turn resumes in the same
    // stream, and the model's next step pins a note on it and captures the CPU chart.
    await page.getByLabel('Selected slice').getByText('Choreographer#doFrame').waitFor({ timeout: 60000 });
    // The model's note (with markup in it) is pinned as text.
    const note = page.getByLabel('Annotations').getByText('slowest frame: binder <img src=z onerror=alert(3)> on the main thread');
    await note.waitFor({ timeout: 60000 });
    check((await page.locator('ul.annotations img').count()) === 0, 'the note is inert text');
    await waitTurnDone(turn);
    await answer().getByText('is the slowest frame').waitFor();
    const session = await (await fetch(`${base}/api/sessions/${sessionIdFromUrl()}`)).json();
    check(session.turns[turn - 1].status === 'done', `turn ${turn} done: ${session.turns[turn - 1].status}`);
    const events = await page.evaluate(() => window.__tracewise.stream.events);
    const mine = events.filter((e) => e.turn === turn);
    const requested = mine.filter((e) => e.kind === 'client_tool_request').map((e) => e.payload.tool);
    const answered = mine.filter((e) => e.kind === 'tool_result' && e.payload.client);
    check(requested.join(',') === 'select_slice,add_annotation,capture_view', `client tools asked: ${requested}`);
    check(answered.length === 3 && answered.every((e) => e.payload.ok), `client tools answered ok: ${JSON.stringify(answered.map((e) => e.payload))}`);
    check(mine[mine.length - 1].kind === 'done', 'the turn ended in the same stream');
    // What the model read: the selection, then the note and the chart as an image.
    const requests = await control('/requests', 'GET');
    const afterCapture = requests.find((r) => r.includes('data:image/png;base64,')) || '';
    check(requests.some((r) => r.includes('\\"selected\\":true')), 'the selection reached the model');
    check(afterCapture.includes('\\"annotated\\":true'), 'the note and the PNG of the CPU chart reached the model');
    turn += 1;
  });

  await step('reload-mid-answer', async () => {
    const sessionId = sessionIdFromUrl();
    await control('/script/slow_answer');
    await ask('tell me everything');
    await answer().getByText('part 3 of the answer').waitFor({ timeout: 60000 });
    await page.reload();
    await waitTurnDone(turn);
    await answer().getByText('The end.').waitFor();
    const text = await answer().innerText();
    check(text.includes(env.TW_SLOW_ANSWER.slice(0, 200)) && text.includes('part 40 of the answer'), 'whole answer after reload');
    const received = await page.evaluate(() => window.__tracewise.stream.received);
    const session = await (await fetch(`${base}/api/sessions/${sessionId}`)).json();
    check(received.length === session.last_seq, `received ${received.length} events, session has ${session.last_seq}`);
    received.forEach((seq, i) => check(seq === i + 1, `event ${i + 1} is seq ${seq}: none lost, none doubled`));
    turn += 1;
  });

  await step('export-report', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('article.turn[data-turn="1"]').getByRole('link', { name: 'Export report' }).click(),
    ]);
    const path = join(shots, 'report.html');
    await download.saveAs(path);
    const html = readFileSync(path, 'utf8');
    check(html.includes(traceId) && html.includes('Verifier') && html.includes('gpt-4o'), 'report provenance');
    check(!html.includes('<script'), 'report has no script');
  });

  await step('comparison', async () => {
    await page.getByLabel('Compare with').selectOption(referenceId);
    await control('/script/comparison');
    await ask('why is this slower than the reference?');
    await waitTurnDone(turn);
    const session = await (await fetch(`${base}/api/sessions/${sessionIdFromUrl()}`)).json();
    check(session.turns[session.turns.length - 1].reference_trace_id === referenceId, 'reference trace sent');
  });

  await step('sessions-list', async () => {
    await page.goto(base + '/#/sessions');
    await page.getByRole('region', { name: 'Sessions' }).locator('tbody tr').first().waitFor();
  });

  check(dialogs.length === 0, `no dialogs: ${dialogs.join(', ')}`);
  writeFileSync(join(shots, 'figures.json'), JSON.stringify(figures, null, 1) + '\n');
  console.log('web app browser test: all steps passed');
} catch (e) {
  console.error(e.stack || String(e));
  if (consoleErrors.length) console.error('browser console errors:\n' + consoleErrors.join('\n'));
  process.exitCode = 1;
} finally {
  await browser.close();
}
