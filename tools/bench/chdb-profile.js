// Where ClickHouse's CPU goes for the harness's INSERT … SELECT (the other side of tools/bench/profile-summary.py):
// runs it in chDB with query and thread logging, then prints the query's CPU (user + system) by thread name
// (system.query_thread_log) and its time-like ProfileEvents (system.query_log), largest first.
// usage: node chdb-profile.js DDL_FILE SOURCE_EXPR [SETTINGS]
//   SOURCE_EXPR as for ../shared/tools/chdb-ingest.js, e.g. "s3('http://127.0.0.1:P/bucket/posts/*.parquet', 'k', 's', 'Parquet')"
const fs = require('fs'), os = require('os'), path = require('path');
const { Session } = require(process.env.CHDB_MODULE || require.resolve('chdb', { paths: [process.cwd(), __dirname] }));
const [ddlFile, src, settings = ''] = process.argv.slice(2);
if (!ddlFile || !src) { console.error('usage: chdb-profile.js DDL_FILE SOURCE_EXPR [SETTINGS]'); process.exit(2); }
const ddl = fs.readFileSync(ddlFile, 'utf8');
const table = ddl.match(/CREATE\s+TABLE\s+([`\w]+)/i)[1];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chdb-profile-'));
const s = new Session(dir);
const rows = (sql) => s.query(sql, 'JSONEachRow').trim().split('\n').filter(Boolean).map(JSON.parse);
s.query(ddl);
// chDB keeps no query_log: the query's ProfileEvents are the change of system.events (global counters, to which
// every thread's counters add up) across it
const events = () => Object.fromEntries(rows('SELECT event, value FROM system.events').map((r) => [r.event, Number(r.value)]));
const e0 = events();
const t0 = process.hrtime.bigint();
const cpu0 = process.cpuUsage();
s.query(`INSERT INTO ${table} SELECT * FROM ${src}${settings ? ' SETTINGS ' + settings : ''}`);
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu = process.cpuUsage(cpu0);
const e1 = events();
const pe = Object.fromEntries(Object.keys(e1).map((k) => [k, e1[k] - (e0[k] ?? 0)]).filter(([, v]) => v > 0));
const written = rows(`SELECT sum(rows) AS r FROM system.parts WHERE table = '${table}' AND database = currentDatabase() AND active`)[0].r;
console.log(`INSERT: ${secs.toFixed(2)} s, ${written} rows; process CPU during it ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (user ${(cpu.user / 1e6).toFixed(2)}, system ${(cpu.system / 1e6).toFixed(2)})`);
const us = (k) => (pe[k] ? pe[k] / 1e6 : 0);
console.log(`ProfileEvents: user ${us('UserTimeMicroseconds').toFixed(2)} s, system ${us('SystemTimeMicroseconds').toFixed(2)} s, OS CPU ${us('OSCPUVirtualTimeMicroseconds').toFixed(2)} s, OS CPU wait ${us('OSCPUWaitMicroseconds').toFixed(2)} s`);
const timed = Object.entries(pe).filter(([k]) => /Microseconds$|Nanoseconds$/.test(k) && !/^(UserTime|SystemTime|OSCPU|RealTime)/.test(k))
  .map(([k, v]) => [k, v / (k.endsWith('Nanoseconds') ? 1e9 : 1e6)]).sort((a, b) => b[1] - a[1]);
console.log('time-like ProfileEvents (seconds of thread time, overlapping: stages nest and run in parallel):');
for (const [k, v] of timed.slice(0, Number(process.env.TOP || 30))) console.log(`  ${v.toFixed(3).padStart(8)}  ${k}`);
const bytes = Object.entries(pe).filter(([k]) => /Bytes$/.test(k)).sort((a, b) => b[1] - a[1]).slice(0, 12);
console.log('byte counters (MB):');
for (const [k, v] of bytes) console.log(`  ${(v / 1e6).toFixed(1).padStart(8)}  ${k}`);
fs.rmSync(dir, { recursive: true, force: true });
