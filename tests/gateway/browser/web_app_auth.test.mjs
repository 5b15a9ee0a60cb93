// The web app against a gateway that requires tokens (issue #16), in headless Debian chromium
// (playwright-core). Started by tests/gateway/web_app_browser_test.cc with TW_GATEWAY_URL (HTTPS,
// a test CA the browser is told to accept), TW_TOKEN (an API key of tenant alpha), TW_TRACE_NAME
// (a trace alpha uploaded), TW_OTHER_TRACE_NAME (one tenant beta uploaded) and TW_ARTIFACTS.
// Run from services/gateway/web (its node_modules).

import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(join(process.cwd(), 'package.json'));
const { chromium } = require('playwright-core');

const env = process.env;
function check(condition, message) {
  if (!condition) throw new Error('check failed: ' + message);
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ignoreHTTPSErrors: true });
const page = await context.newPage();
page.setDefaultTimeout(30000);
const shot = (name) => page.screenshot({ path: join(env.TW_ARTIFACTS, `auth-${name}.png`), fullPage: true });
try {
  // No token: the app loads (its files need none) and asks for one instead of showing traces.
  await page.goto(env.TW_GATEWAY_URL + '/');
  const dialog = page.getByRole('dialog', { name: 'Sign in' });
  await dialog.waitFor();
  check((await page.getByText(env.TW_TRACE_NAME).count()) === 0, 'a trace is listed before signing in');
  await shot('1-asked');
  console.log('ok 1 asked for a token');

  // A wrong token is refused and asked for again.
  await page.getByLabel('Token').fill('twk_not-a-key-anyone-issued');
  await page.getByRole('button', { name: 'Use token' }).click();
  await dialog.waitFor();
  await page.getByText('The one given was refused').waitFor();
  console.log('ok 2 a wrong token is refused');

  // The right one: alpha's trace is listed, beta's is not.
  await page.getByLabel('Token').fill('Bearer ' + env.TW_TOKEN);
  await page.getByRole('button', { name: 'Use token' }).click();
  await page.getByText(env.TW_TRACE_NAME).first().waitFor();
  check((await dialog.count()) === 0, 'still asking after a good token');
  check((await page.getByText(env.TW_OTHER_TRACE_NAME).count()) === 0, "another tenant's trace is listed");
  await shot('2-signed-in');
  console.log('ok 3 signed in: own traces only');

  // It stays for the tab (a reload keeps it); signing out forgets it.
  await page.reload();
  await page.getByText(env.TW_TRACE_NAME).first().waitFor();
  await page.getByRole('link', { name: 'Sign out' }).click();
  await dialog.waitFor();
  console.log('ok 4 reload keeps the token, sign out forgets it');
  console.log('web app auth browser test: all steps passed');
} finally {
  await browser.close();
}
