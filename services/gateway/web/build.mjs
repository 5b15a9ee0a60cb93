// Builds the web app into one directory the gateway serves (--web-dir): index.html, app.js,
// app.css. Usage: node build.mjs [--outdir DIR] [--watch]. Prints the gzipped size of the
// JavaScript, which must stay under 300 KB (checked here and by the test suite).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
let esbuild;
try {
  esbuild = await import('esbuild');
} catch (_) {
  console.error(`web app: esbuild is not installed in ${here}/node_modules: run bash tools/setup.sh (npm ci)`);
  process.exit(1);
}
const { build, context } = esbuild;
const args = process.argv.slice(2);
const at = args.indexOf('--outdir');
const outdir = resolve(at >= 0 ? args[at + 1] : join(here, 'dist'));
const budget = 300 * 1024;

const options = {
  entryPoints: { app: join(here, 'src/main.jsx') },
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir,
  legalComments: 'none',
  logLevel: 'warning',
};

mkdirSync(outdir, { recursive: true });
copyFileSync(join(here, 'index.html'), join(outdir, 'index.html'));
if (args.includes('--watch')) {
  const ctx = await context(options);
  await ctx.watch();
  console.log(`watching; writing ${outdir}`);
} else {
  await build(options);
  const js = readFileSync(join(outdir, 'app.js'));
  const gz = gzipSync(js, { level: 9 }).length;
  const report = { js_bytes: js.length, js_gzip_bytes: gz, budget_gzip_bytes: budget };
  writeFileSync(join(outdir, 'bundle-size.json'), JSON.stringify(report) + '\n');
  console.log(`web app: app.js ${(js.length / 1024).toFixed(1)} KB, ${(gz / 1024).toFixed(1)} KB gzipped (budget 300 KB) → ${outdir}`);
  if (gz > budget) {
    console.error('web app: the JavaScript is over its 300 KB gzipped budget');
    process.exit(1);
  }
}
