import { chromium } from '@playwright/test';
import { SourceMapConsumer } from 'source-map-js';
import { readFileSync, existsSync } from 'node:fs';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-quic','--no-first-run'] });
const agg = new Map(); let bootSum = 0;
const N = 3;
for (let k = 0; k < N; k++) {
const ctx = await b.newContext({ viewport: { width: 1280, height: 720 } });
const p = await ctx.newPage();
const cdp = await ctx.newCDPSession(p);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
await cdp.send('Profiler.start');
const t0 = performance.now();
await p.goto('http://localhost:4800/' + (process.argv[2] ?? '#/step/percpu-classic'));
await p.getByRole('heading', { level: 2 }).first().waitFor();
bootSum += performance.now() - t0;
const { profile } = await cdp.send('Profiler.stop');
await ctx.close();
const maps = new Map();
const smc = (url) => { const f = '/tmp/distmap/assets/' + url.split('/').pop(); if (!maps.has(f)) maps.set(f, existsSync(f + '.map') ? new SourceMapConsumer(JSON.parse(readFileSync(f + '.map', 'utf8'))) : null); return maps.get(f); };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
// inclusive time per source function: walk parents
const parent = new Map(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n) => { const cf = n.callFrame; const m = cf.url && smc(cf.url); if (m) { const o = m.originalPositionFor({ line: cf.lineNumber + 1, column: cf.columnNumber }); if (o.source) return `${o.name ?? cf.functionName} ${o.source.replace(/.*\/(src|node_modules)\//, '$1/')}:${o.line}`; } return `${cf.functionName || '(anon)'} ${cf.url.split('/').pop()}`; };
profile.samples.forEach((id, i) => { const d = (profile.timeDeltas[i] ?? 0) / 1000; const seen = new Set(); let cur = id; while (cur !== undefined) { const key = name(byId.get(cur)); if (!seen.has(key)) { seen.add(key); agg.set(key, (agg.get(key) ?? 0) + d / N); } cur = parent.get(cur); } });
}
console.log('boot', (bootSum / N).toFixed(0));
console.log([...agg].sort((a,b)=>b[1]-a[1]).slice(0,60).map(([k,v])=>`${v.toFixed(0)} ${k}`).join('\n'));
await b.close();
