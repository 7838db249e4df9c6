// Summary of tools/bench/ingest-bench.sh's results.tsv: per round, both sides' CPU-seconds (user + system of the
// whole process), job seconds and wall-clock, with the three ratios ours/chDB of that round; over all rounds, the
// median of every figure and ratio and how many rounds had each ratio ≥ 1.0.
// usage: node ingest-summary.js RESULTS_TSV [--round R]
//   --round R: only round R's lines (the harness prints them as each round ends)
// Ratios (> 1.0: ours is better), each against chDB's run of the same round:
//   cpu  = rows per CPU-second, ours / chDB  (= chDB CPU-s / ours CPU-s, same rows)
//   job  = job rows/s, ours / chDB           (= chDB query s / ours job s)
//   wall = process wall-clock, chDB / ours   (process start to exit: JVM + MiniCluster, node + chDB)
// WARM=K runs (rounds "R.i", run i of round R's process): medians and ratios leave out each process's first (cold)
// run; wall is then the run itself (ours: the command's run with its own MiniCluster; chDB: its INSERT).
const fs = require('fs');
const [file, flag, which] = process.argv.slice(2);
if (!file) { console.error('usage: ingest-summary.js RESULTS_TSV [--round R]'); process.exit(2); }
const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
const head = lines[0].split('\t');
let rows = lines.slice(1).map((l) => Object.fromEntries(l.split('\t').map((v, i) => [head[i], v])));
const num = (v) => (v === undefined || v === '-' || v === '' ? NaN : Number(v));
const median = (a) => { const v = a.filter((x) => !Number.isNaN(x)).sort((x, y) => x - y); if (!v.length) return NaN;
  const m = Math.floor(v.length / 2); return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2; };
const f = (x, d = 2) => (Number.isNaN(x) ? '-' : x.toFixed(d));
const ratios = (o, c) => ({ cpu: num(c.cpu_s) / num(o.cpu_s) * (num(o.rows) / num(c.rows)), job: num(o.rows_per_s) / num(c.rows_per_s),
  wall: num(c.wall_s) / num(o.wall_s) * (num(o.rows) / num(c.rows)) });
const chdbOf = (r) => rows.find((x) => x.round === r && x.side === 'chdb');
const label = (o) => (o.side === 'ours' ? `ours p=${o.p}` : `${o.side} p=${o.p}`);
const fig = (x) => `CPU ${f(num(x.cpu_s), 1)} s, job ${f(num(x.seconds))} s, wall ${f(num(x.wall_s))} s, load ${x.load} → ${x.load_end ?? '?'}`;

if (flag === '--round') {
  const c = chdbOf(which);
  if (!c) process.exit(0);
  console.log(`round ${which}: chDB ${fig(c)}`);
  for (const o of rows.filter((x) => x.round === which && x.side !== 'chdb')) {
    const q = ratios(o, c);
    console.log(`round ${which}: ${label(o)} ${fig(o)} | ours/chDB: rows per CPU-s ${f(q.cpu)}x, job rows/s ${f(q.job)}x, wall ${f(q.wall)}x`);
  }
  process.exit(0);
}

// WARM=K runs (rounds "R.i"): the first run of each process is the cold one; medians and ratios are of the others
const cold = rows.filter((r) => /\.1$/.test(r.round));
if (rows.some((r) => r.round.includes('.'))) {
  const c = cold.filter((r) => r.side === 'chdb'), o = cold.filter((r) => r.side !== 'chdb');
  console.log(`\nwarm runs: each process ran ${Math.max(...rows.map((r) => Number(r.round.split('.')[1])))} ingests; the first (cold) runs are left out below `
    + `(their CPU medians: chDB ${f(median(c.map((r) => num(r.cpu_s))))} s, ours ${f(median(o.map((r) => num(r.cpu_s))))} s)`);
  rows = rows.filter((r) => !cold.includes(r));
}
const rounds = [...new Set(rows.map((r) => r.round))];
const sides = [...new Set(rows.filter((r) => r.side !== 'chdb').map((r) => `${r.side}\t${r.p}`))];
const ds = rows[0]?.dataset ?? '?';
const loads = rows.map((r) => num((r.load || '').split(' ')[0])).concat(rows.map((r) => num((r.load_end || '').split(' ')[0])));
const lv = loads.filter((x) => !Number.isNaN(x));
console.log(`\ndata set ${ds}: ${rounds.length} ${cold.length ? 'warm runs' : 'rounds'}, ${num(rows[0]?.rows)} rows; load average (1 min) at the runs' starts and ends ${f(Math.min(...lv))}–${f(Math.max(...lv))}`);
console.log('medians over the rounds (CPU = user + system of the whole process; job = the query / the job\'s start of reading to its last commit; wall = process start to exit):');
const chdb = rows.filter((r) => r.side === 'chdb');
const med = (set, k) => median(set.map((r) => num(r[k])));
if (chdb.length) console.log(`  chDB          CPU ${f(med(chdb, 'cpu_s'))} s  job ${f(med(chdb, 'seconds'))} s  wall ${f(med(chdb, 'wall_s'))} s  ${Math.round(med(chdb, 'rows') / med(chdb, 'cpu_s'))} rows per CPU-s  ${Math.round(med(chdb, 'rows_per_s'))} rows/s  RSS ${Math.round(med(chdb, 'max_rss_mb'))} MB`);
const byRole = (set) => {
  const roles = set.map((r) => r.cpu_s_by_thread_role).filter((x) => x && x !== '-');
  if (!roles.length) return null;
  const by = {};
  for (const line of roles) for (const kv of line.split(' ')) { const [k, v] = kv.split('='); (by[k] ??= []).push(Number(v)); }
  return Object.entries(by).map(([k, v]) => [k, median(v.concat(Array(roles.length - v.length).fill(0)))])
    .sort((a, b) => b[1] - a[1]).filter(([, v]) => v >= 0.05).map(([k, v]) => `${k}=${f(v, 1)}`).join(' ');
};
const chdbThreads = byRole(chdb);
if (chdbThreads) console.log(`      chDB CPU s by thread name (medians; sampled from /proc every 0.5 s): ${chdbThreads}`);
const perSide = {};
for (const sp of sides) {
  const [side, p] = sp.split('\t');
  const set = rows.filter((r) => r.side === side && r.p === p);
  const qs = set.map((o) => { const c = chdbOf(o.round); return c ? ratios(o, c) : null; }).filter(Boolean);
  perSide[sp] = { set, qs };
  console.log(`  ${`${side} p=${p}`.padEnd(13)} CPU ${f(med(set, 'cpu_s'))} s  job ${f(med(set, 'seconds'))} s  wall ${f(med(set, 'wall_s'))} s  ${Math.round(med(set, 'rows') / med(set, 'cpu_s'))} rows per CPU-s  ${Math.round(med(set, 'rows_per_s'))} rows/s  RSS ${Math.round(med(set, 'max_rss_mb'))} MB`);
  for (const k of ['cpu', 'job', 'wall']) {
    const v = qs.map((q) => q[k]);
    const name = { cpu: 'rows per CPU-s', job: 'job rows/s    ', wall: 'wall-clock    ' }[k];
    if (!v.length) continue;  // no chDB runs (CHDB=0)
    console.log(`      ours/chDB ${name} median ${f(median(v))}x  (rounds ${f(Math.min(...v))}–${f(Math.max(...v))}x, ≥ 1.0 in ${v.filter((x) => x >= 1).length} of ${v.length})`);
  }
  const roles = byRole(set);
  if (roles) console.log(`      CPU s by thread role (medians): ${roles}`);
}
const s1 = perSide['ours\t1'], s2 = perSide['ours\t2'];
if (s1 && s2) {
  const sc = rounds.map((r) => { const a = s1.set.find((x) => x.round === r), b = s2.set.find((x) => x.round === r);
    return a && b ? num(b.rows_per_s) / num(a.rows_per_s) : NaN; });
  console.log(`  scaling p=1 → p=2 (job rows/s, same round): median ${f(median(sc))}x`);
}
if (perSide['s3\t2'] || perSide['s3\t1']) {
  // issue 17: an S3 table's ingest against a local table's, same data and round (target >= 0.85x rows/s)
  for (const p of ['1', '2']) {
    const a = perSide[`ours\t${p}`], b = perSide[`s3\t${p}`];
    if (!a || !b) continue;
    const v = rounds.map((r) => { const o = a.set.find((x) => x.round === r), q = b.set.find((x) => x.round === r);
      return o && q ? [num(q.rows_per_s) / num(o.rows_per_s), num(o.cpu_s) / num(q.cpu_s)] : null; }).filter(Boolean);
    console.log(`  s3/local table p=${p} (same round): job rows/s ${f(median(v.map((x) => x[0])))}x (>= 0.85 in ${v.filter((x) => x[0] >= 0.85).length} of ${v.length}), rows per CPU-s ${f(median(v.map((x) => x[1])))}x`);
  }
}
if (perSide['base\t2'] || perSide['base\t1']) {
  for (const p of ['1', '2']) {
    const a = perSide[`ours\t${p}`], b = perSide[`base\t${p}`];
    if (!a || !b) continue;
    const v = rounds.map((r) => { const o = a.set.find((x) => x.round === r), q = b.set.find((x) => x.round === r);
      return o && q ? [num(q.seconds) / num(o.seconds), num(q.cpu_s) / num(o.cpu_s)] : null; }).filter(Boolean);
    console.log(`  ours/base p=${p} (same round): job ${f(median(v.map((x) => x[0])))}x (faster in ${v.filter((x) => x[0] > 1).length} of ${v.length}), CPU ${f(median(v.map((x) => x[1])))}x (less in ${v.filter((x) => x[1] > 1).length} of ${v.length})`);
  }
}
