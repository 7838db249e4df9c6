// Draws an SVG bar chart of ingest-bench.sh's results: per data set, ours (p=2) against ClickHouse (chDB) in
// rows per CPU-second (absolute) and in job rows/s (ours relative to ClickHouse's of the same round, ClickHouse
// = 1.00; the absolute rows/s are printed under the bars when the summary has them).
// Input: the harness's summaries ($OUT/summary.txt, what ingest-summary.js prints), one or more files, each
// holding one or more "data set …" blocks; unknown figures may be '-' or NaN, as ingest-summary.js prints them.
// usage: node tools/bench/ingest-chart.js SUMMARY_TXT... > chart.svg
//   e.g. node tools/bench/ingest-chart.js /tmp/c40-posts/summary.txt /tmp/c40-wide/summary.txt > docs/bench/ingest.svg
const fs = require('fs');
const files = process.argv.slice(2);
if (!files.length) { console.error('usage: ingest-chart.js SUMMARY_TXT... > chart.svg'); process.exit(2); }

const num = (s) => (s === undefined || s === '-' || s === 'NaN' ? NaN : Number(s));
const sets = [];
for (const file of files) {
  let cur = null;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    let m;
    if ((m = line.match(/^data set (\S+): (\d+) (?:rounds|warm runs), (\d+) rows/))) {
      cur = { name: m[1], rounds: Number(m[2]), rows: Number(m[3]) };
      sets.push(cur);
    } else if (cur && (m = line.match(/^\s+(chDB|ours p=2)\s+CPU (\S+) s\s+job (\S+) s\s+wall (\S+) s\s+(\S+) rows per CPU-s\s+(\S+) rows\/s/))) {
      const side = m[1] === 'chDB' ? 'chdb' : 'ours';
      cur[side] = { cpu: num(m[2]), perCpu: num(m[5]), rowsPerS: num(m[6]) };
      cur.last = side;
    } else if (cur && cur.last === 'ours' && (m = line.match(/ours\/chDB (rows per CPU-s|job rows\/s)\s+median (\S+)x/))) {
      cur[m[1] === 'job rows/s' ? 'jobRatio' : 'cpuRatio'] = num(m[2]);
    }
  }
}
const complete = sets.filter((s) => s.chdb && s.ours);
if (!complete.length) { console.error('ingest-chart: no data set with both a chDB and an "ours p=2" line'); process.exit(1); }
for (const s of complete) {
  const label = s.name + (complete.filter((x) => x.name === s.name).length > 1 ? ` ${(s.rows / 1e6).toFixed(1)}M` : '');
  s.label = label;
  // rows per CPU-second: the summary's own figure, else rows / CPU-s
  for (const side of ['chdb', 'ours']) if (Number.isNaN(s[side].perCpu)) s[side].perCpu = s.rows / s[side].cpu;
}

const W = 860, H = 360, top = 56, bottom = 64, panelW = 400, gap = 40, left = 20;
const esc = (t) => String(t).replace(/&/g, '&amp;').replace(/</g, '&lt;');
const out = [];
out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
out.push(`<text x="${W / 2}" y="20" text-anchor="middle" font-size="15">s3-mergetree ingest (p=2) vs ClickHouse INSERT … SELECT FROM s3() (chDB)</text>`);
out.push(`<rect x="${W / 2 - 120}" y="30" width="12" height="12" fill="#9e9e9e"/><text x="${W / 2 - 104}" y="40">ClickHouse</text>`);
out.push(`<rect x="${W / 2 + 10}" y="30" width="12" height="12" fill="#1f77b4"/><text x="${W / 2 + 26}" y="40">s3-mergetree</text>`);

function panel(x0, title, values, fmt, sub) {
  const plotH = H - top - bottom - 20, y0 = top + 20 + plotH;
  const max = Math.max(...values.flat().filter((v) => !Number.isNaN(v))) * 1.15;
  out.push(`<text x="${x0 + panelW / 2}" y="${top + 8}" text-anchor="middle" font-size="13">${esc(title)}</text>`);
  out.push(`<line x1="${x0}" y1="${y0}" x2="${x0 + panelW}" y2="${y0}" stroke="black"/>`);
  const groupW = panelW / values.length, barW = Math.min(34, groupW / 3);
  values.forEach(([c, o], i) => {
    const gx = x0 + i * groupW + groupW / 2;
    [[c, '#9e9e9e', -barW - 2], [o, '#1f77b4', 2]].forEach(([v, color, dx]) => {
      if (Number.isNaN(v)) return;
      const h = (v / max) * plotH;
      out.push(`<rect x="${(gx + dx).toFixed(1)}" y="${(y0 - h).toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}" fill="${color}"/>`);
      out.push(`<text x="${(gx + dx + barW / 2).toFixed(1)}" y="${(y0 - h - 4).toFixed(1)}" text-anchor="middle" font-size="11">${esc(fmt(v))}</text>`);
    });
    out.push(`<text x="${gx.toFixed(1)}" y="${y0 + 16}" text-anchor="middle">${esc(complete[i].label)}</text>`);
    if (sub) out.push(`<text x="${gx.toFixed(1)}" y="${y0 + 30}" text-anchor="middle" font-size="10" fill="#555">${esc(sub(complete[i]))}</text>`);
  });
}
panel(left, 'rows per CPU-second (thousands; higher is better)',
  complete.map((s) => [s.chdb.perCpu / 1000, s.ours.perCpu / 1000]), (v) => v.toFixed(0),
  (s) => `${s.rounds} rounds, ${(s.rows / 1e6).toFixed(1)}M rows`);
panel(left + panelW + gap, 'job rows/s, relative to ClickHouse (= 1.00)',
  complete.map((s) => [Number.isNaN(s.jobRatio) ? NaN : 1, s.jobRatio]), (v) => v.toFixed(2),
  (s) => (Number.isNaN(s.chdb.rowsPerS) ? '' : `${Math.round(s.chdb.rowsPerS / 1000)}k vs ${Math.round(s.ours.rowsPerS / 1000)}k rows/s`));
out.push(`<text x="${left}" y="${H - 8}" font-size="10" fill="#555">medians over the rounds, both sides in the same round on the same machine (tools/bench/ingest-bench.sh; drawn by tools/bench/ingest-chart.js)</text>`);
out.push('</svg>');
process.stdout.write(out.join('\n') + '\n');
