import { readFileSync, readdirSync } from 'node:fs';
const file = readdirSync('/tmp/prof').find((f) => f.endsWith('.cpuprofile'));
const p = JSON.parse(readFileSync(`/tmp/prof/${file}`, 'utf8'));
const self = new Map(); const byId = new Map(p.nodes.map((n) => [n.id, n]));
const dt = new Map(); for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
let total = 0;
for (const n of p.nodes) { const t = dt.get(n.id) ?? 0; total += t; const cf = n.callFrame; const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').slice(-2).join('/')}:${cf.lineNumber}`; self.set(key, (self.get(key) ?? 0) + t); }
const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[2] ?? 30));
for (const [k, v] of top) console.log((100 * v / total).toFixed(1).padStart(5), k);
