// Checks rendered chart manifests (render.go's output) the way a cluster's API server would
// before accepting them, and the chart's own wiring:
//   1. every object validates against its Kubernetes schema (npm kubernetes-models);
//   2. every container's args are flags its binary accepts (`BINARY --help` lists them);
//   3. ports, probes and names agree: probe and Service target ports exist on the pods they
//      select, every Service selects some pod, every --trace-query/--skill-engine/--verifier/
//      --orchestrator address names a Service (port included) of the release, volumes and
//      ConfigMap/Secret/PVC references resolve, HPAs and PDBs target real workloads.
//
//   node validate.mjs MANIFESTS.yaml --binaries DIR [--require-all-binaries]
//                     [--external Secret/NAME,PersistentVolumeClaim/NAME,...]
//
// Prints one line per problem and exits 1 if there is any.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';

const args = process.argv.slice(2);
const file = args[0];
const binDir = args.includes('--binaries') ? args[args.indexOf('--binaries') + 1] : null;
const requireAll = args.includes('--require-all-binaries');
// Objects the values say exist beforehand (existingSecret, existingClaim): KIND/NAME,...
const external = new Set(args.includes('--external') ? args[args.indexOf('--external') + 1].split(',') : []);
if (!file) {
  console.error('usage: node validate.mjs MANIFESTS.yaml --binaries DIR [--require-all-binaries]');
  process.exit(2);
}

const problems = [];
const problem = (where, what) => problems.push(`${where}: ${what}`);

// ---- parse ----
const text = fs.readFileSync(file, 'utf8');
const objects = [];
for (const doc of parseAllDocuments(text)) {
  if (doc.errors.length) {
    problem('yaml', doc.errors.map((e) => e.message).join('; '));
    continue;
  }
  const obj = doc.toJS();
  if (obj == null) continue;
  objects.push(obj);
}
if (objects.length === 0) problem('manifests', 'nothing rendered');
const id = (o) => `${o.kind}/${o.metadata?.name}`;

// ---- 1. schemas ----
function modelFor(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const dir = group ? `${group}/${version}` : version;
  return `kubernetes-models/${dir}/${kind}`;
}
for (const o of objects) {
  if (!o.apiVersion || !o.kind) {
    problem('object', `missing apiVersion or kind: ${JSON.stringify(o).slice(0, 120)}`);
    continue;
  }
  let Model;
  try {
    Model = (await import(modelFor(o.apiVersion, o.kind)))[o.kind];
  } catch (e) {
    problem(id(o), `unknown kind ${o.apiVersion} ${o.kind}`);
    continue;
  }
  try {
    new Model(o).validate();
  } catch (e) {
    const details = (e.errors || []).map((x) => `${x.instancePath || '/'} ${x.message}`).join('; ');
    problem(id(o), `schema: ${details || e.message}`);
  }
  const name = o.metadata?.name || '';
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name) || name.length > 253) {
    problem(id(o), `invalid object name '${name}'`);
  }
  if (['Service', 'StatefulSet'].includes(o.kind) && name.length > 63) {
    problem(id(o), `name longer than 63 characters (DNS label)`);
  }
}

// ---- indexes ----
const byKind = (kind) => objects.filter((o) => o.kind === kind);
const workloads = objects.filter((o) => ['Deployment', 'StatefulSet'].includes(o.kind));
const podLabels = (w) => w.spec?.template?.metadata?.labels || {};
const matches = (selector, labels) =>
  Object.entries(selector || {}).every(([k, v]) => labels[k] === v);
const containersOf = (w) => w.spec?.template?.spec?.containers || [];
const named = (kind, name) => objects.find((o) => o.kind === kind && o.metadata?.name === name);
// In the release, or declared as existing beforehand.
const exists = (kind, name) => named(kind, name) || external.has(`${kind}/${name}`);

// ---- 3. wiring ----
for (const w of workloads) {
  const selector = w.spec?.selector?.matchLabels;
  if (!matches(selector, podLabels(w))) problem(id(w), 'selector does not match its pod labels');
  const spec = w.spec?.template?.spec || {};
  const volumes = new Map((spec.volumes || []).map((v) => [v.name, v]));
  for (const t of w.spec?.volumeClaimTemplates || []) volumes.set(t.metadata?.name, { pvc: true });
  for (const v of spec.volumes || []) {
    if (v.configMap && !named('ConfigMap', v.configMap.name)) {
      problem(id(w), `volume ${v.name}: ConfigMap ${v.configMap.name} is not in the release`);
    }
    if (v.configMap && named('ConfigMap', v.configMap.name)) {
      const data = named('ConfigMap', v.configMap.name).data || {};
      for (const item of v.configMap.items || []) {
        if (!(item.key in data)) problem(id(w), `volume ${v.name}: ConfigMap has no key ${item.key}`);
      }
    }
    if (v.secret && !exists('Secret', v.secret.secretName)) {
      problem(id(w), `volume ${v.name}: Secret ${v.secret.secretName} is not in the release (must exist beforehand)`);
    }
    if (v.persistentVolumeClaim && !exists('PersistentVolumeClaim', v.persistentVolumeClaim.claimName)) {
      problem(id(w), `volume ${v.name}: claim ${v.persistentVolumeClaim.claimName} is not in the release (must exist beforehand)`);
    }
  }
  for (const c of containersOf(w)) {
    const ports = new Map((c.ports || []).map((p) => [p.name, p.containerPort]));
    const portNumbers = new Set((c.ports || []).map((p) => p.containerPort));
    for (const m of c.volumeMounts || []) {
      if (!volumes.has(m.name)) problem(id(w), `container ${c.name} mounts unknown volume ${m.name}`);
    }
    for (const probeName of ['readinessProbe', 'livenessProbe', 'startupProbe']) {
      const probe = c[probeName];
      if (!probe) continue;
      const port = probe.grpc?.port ?? probe.httpGet?.port ?? probe.tcpSocket?.port;
      if (port === undefined) continue;
      const ok = typeof port === 'number' ? portNumbers.has(port) : ports.has(port);
      if (!ok) problem(id(w), `container ${c.name} ${probeName} probes port ${port}, which it does not expose`);
    }
    // The address a --listen flag names must be the container port.
    const a = c.args || [];
    const listen = a.indexOf('--listen');
    if (listen >= 0) {
      const port = Number(String(a[listen + 1]).split(':').pop());
      if (!portNumbers.has(port)) problem(id(w), `container ${c.name} listens on ${port} but exposes ${[...portNumbers]}`);
    }
    for (const e of c.env || []) {
      const ref = e.valueFrom?.secretKeyRef;
      if (ref && named('Secret', ref.name)) {
        const s = named('Secret', ref.name);
        if (!((s.data && ref.key in s.data) || (s.stringData && ref.key in s.stringData))) {
          problem(id(w), `env ${e.name}: Secret ${ref.name} has no key ${ref.key}`);
        }
      } else if (ref && !ref.optional && !exists('Secret', ref.name)) {
        problem(id(w), `env ${e.name}: Secret ${ref.name} is not in the release (must exist beforehand)`);
      }
    }
  }
}

const services = byKind('Service');
for (const s of services) {
  const selected = workloads.filter((w) => matches(s.spec?.selector, podLabels(w)));
  if (selected.length === 0) {
    problem(id(s), 'selects no pod of the release');
    continue;
  }
  for (const p of s.spec?.ports || []) {
    const target = p.targetPort ?? p.port;
    for (const w of selected) {
      const exposed = containersOf(w).flatMap((c) => c.ports || []);
      const ok = exposed.some((cp) => (typeof target === 'number' ? cp.containerPort === target : cp.name === target));
      if (!ok) problem(id(s), `port ${p.port} targets ${target}, which ${id(w)} does not expose`);
    }
  }
}
for (const w of byKind('StatefulSet')) {
  const svc = named('Service', w.spec?.serviceName);
  if (!svc) problem(id(w), `serviceName ${w.spec?.serviceName} is not a Service of the release`);
}

// Addresses the services are given must be Services of the release, on a port they serve.
function serviceServes(host, port) {
  const s = named('Service', host.split('.')[0]);
  return s && (s.spec?.ports || []).some((p) => p.port === port);
}
for (const w of workloads) {
  for (const c of containersOf(w)) {
    const a = c.args || [];
    for (const flag of ['--trace-query', '--skill-engine', '--verifier', '--orchestrator']) {
      const i = a.indexOf(flag);
      if (i < 0) continue;
      for (const target of String(a[i + 1]).split(',')) {
        const hostPort = target.replace(/^dns:\/\/[^/]*\//, '');
        const port = Number(hostPort.split(':').pop());
        const host = hostPort.slice(0, hostPort.lastIndexOf(':'));
        if (!serviceServes(host, port)) problem(id(w), `${flag} ${target}: no Service ${host} serving port ${port}`);
        if (flag === '--trace-query') {
          const svc = named('Service', host);
          if (svc && svc.spec?.clusterIP !== 'None') {
            problem(id(w), `${flag} ${target}: routing needs the headless Service (every pod), not ${host}`);
          }
        }
      }
    }
  }
}
for (const h of byKind('HorizontalPodAutoscaler')) {
  const ref = h.spec?.scaleTargetRef;
  const target = named(ref?.kind, ref?.name);
  if (!target) problem(id(h), `scales ${ref?.kind}/${ref?.name}, which is not in the release`);
  else if (target.spec?.replicas !== undefined) problem(id(h), `${id(target)} sets replicas, which fights the autoscaler`);
}
for (const p of byKind('PodDisruptionBudget')) {
  if (!workloads.some((w) => matches(p.spec?.selector?.matchLabels, podLabels(w)))) {
    problem(id(p), 'selects no pod of the release');
  }
}
for (const n of byKind('NetworkPolicy')) {
  if (!workloads.some((w) => matches(n.spec?.podSelector?.matchLabels, podLabels(w)))) {
    problem(id(n), 'applies to no pod of the release');
  }
}

// ---- 2. flags ----
const helpCache = new Map();
function flagsOf(binary) {
  if (helpCache.has(binary)) return helpCache.get(binary);
  let flags = null;
  const file = binDir ? path.join(binDir, path.basename(binary)) : null;
  if (file && fs.existsSync(file)) {
    // Usage may go to stdout or stderr, with exit 0 or 2: what counts is the flags it lists.
    const run = spawnSync(file, ['--help'], { encoding: 'utf8', timeout: 10000, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = `${run.stdout || ''}\n${run.stderr || ''}`;
    if (run.error || !/--[a-z]/.test(out)) {
      problem(binary, `--help lists no flags${run.error ? `: ${run.error.message}` : ''}`);
    }
    flags = new Set(out.match(/--[a-z][a-z0-9-]*/g) || []);
  }
  helpCache.set(binary, flags);
  return flags;
}
const unchecked = new Set();
for (const w of workloads) {
  for (const c of containersOf(w)) {
    const command = (c.command || [])[0];
    if (!command || !command.includes('tracewise')) continue;  // e.g. postgres
    const flags = flagsOf(command);
    if (!flags) {
      unchecked.add(path.basename(command));
      if (requireAll) problem(id(w), `no binary ${path.basename(command)} in ${binDir} to check its flags`);
      continue;
    }
    for (const arg of c.args || []) {
      if (typeof arg !== 'string' || !arg.startsWith('--')) continue;
      const flag = arg.split('=')[0];
      if (!flags.has(flag)) problem(id(w), `container ${c.name}: ${path.basename(command)} does not take ${flag} (see its --help)`);
    }
  }
}

const kinds = {};
for (const o of objects) kinds[o.kind] = (kinds[o.kind] || 0) + 1;
console.log(`${path.basename(file)}: ${objects.length} objects (${Object.entries(kinds).map(([k, n]) => `${n} ${k}`).join(', ')})`);
if (unchecked.size) console.log(`  flags not checked (binary not built): ${[...unchecked].join(', ')}`);
for (const p of problems) console.log(`  PROBLEM ${p}`);
process.exit(problems.length ? 1 : 0);
