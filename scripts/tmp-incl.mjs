import { readFileSync, readdirSync } from 'node:fs';
const file = readdirSync('/tmp/prof').find((f) => f.endsWith('.cpuprofile'));
const p = JSON.parse(readFileSync(`/tmp/prof/${file}`, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const selfT = new Map(); for (let i = 0; i < p.samples.length; i++) selfT.set(p.samples[i], (selfT.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
let total = 0; for (const v of selfT.values()) total += v;
const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map();
for (const n of p.nodes) {
  const t = selfT.get(n.id) ?? 0; if (!t) continue;
  const seen = new Set(); let cur = n.id;
  while (cur !== undefined) { const cf = byId.get(cur).callFrame; const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').slice(-1)[0]}:${cf.lineNumber}`; if (!seen.has(key)) { seen.add(key); incl.set(key, (incl.get(key) ?? 0) + t); } cur = parent.get(cur); }
}
const want = process.argv.slice(2);
for (const [k, v] of [...incl.entries()].sort((a, b) => b[1] - a[1])) if (want.some((w) => k.includes(w))) console.log((100 * v / total).toFixed(1).padStart(5), k);
