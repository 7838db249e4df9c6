// ClickHouse (chDB) running the benchmark's INSERT K times in one process, for tools/bench/ingest-bench.sh's WARM=K
// mode: what the INSERT costs once the engine has run one (as a long-running ClickHouse server does), beside
// tools/bench/WarmIngest.java for ours. Run i inserts into a fresh table named <table>_w<i> (the DDL's CREATE TABLE
// name with a suffix); after its figures are taken, SYSTEM STOP MERGES on it cancels the merges it would still run,
// as chdb-ingest.js's exit does; the tables are kept until the process ends (dropping one deletes its files, which
// makes ext4's inode allocation in the next run slower: see WarmIngest.java); then a pause of PAUSE_MS (default
// 6000) before the next run.
// usage: node chdb-ingest-warm.js DDL_FILE SOURCE_EXPR K [SETTINGS]
// prints one line per run: WARM {"run":i,"cpu_s","wall_s","seconds","rows","rows_per_s","mb_per_s_uncompressed",
// "active_parts","compressed_mb","rss_mb"}; cpu_s = user + system CPU of the whole process (every thread:
// process.cpuUsage() is getrusage(RUSAGE_SELF)) from the INSERT's start to its end.
const fs = require('fs'), os = require('os'), path = require('path');
const { Session } = require(process.env.CHDB_MODULE || require.resolve('chdb', { paths: [process.cwd(), __dirname] }));
const [ddlFile, src, k, settings = ''] = process.argv.slice(2);
if (!ddlFile || !src || !(Number(k) >= 1)) { console.error('usage: chdb-ingest-warm.js DDL_FILE SOURCE_EXPR K [SETTINGS]'); process.exit(2); }
const pauseMs = Number(process.env.PAUSE_MS || 6000);
const ddl = fs.readFileSync(ddlFile, 'utf8');
const nameMatch = ddl.match(/CREATE\s+TABLE\s+([`\w]+)/i);
const base = nameMatch[1].replace(/`/g, '');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chdb-ingest-warm-'));
const s = new Session(dir);
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
for (let run = 1; run <= Number(k); run++) {
  const table = `${base}_w${run}`;
  s.query(ddl.replace(nameMatch[0], `CREATE TABLE ${table}`));
  sleep(pauseMs);
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  s.query(`INSERT INTO ${table} SELECT * FROM ${src} ${settings ? 'SETTINGS ' + settings : ''}`);
  const t1 = process.hrtime.bigint();
  const c1 = process.cpuUsage(c0);
  const secs = Number(t1 - t0) / 1e9;
  const p = JSON.parse(s.query(`SELECT sum(rows) AS rows, sum(data_uncompressed_bytes) AS bytes, sum(data_compressed_bytes) AS cbytes,
    count() AS parts FROM system.parts WHERE table = '${table}' AND database = currentDatabase() AND active`, 'JSONEachRow'));
  const rows = Number(p.rows);
  console.log('WARM ' + JSON.stringify({ run, cpu_s: +((c1.user + c1.system) / 1e6).toFixed(3), wall_s: +secs.toFixed(3),
    seconds: +secs.toFixed(3), rows, rows_per_s: Math.round(rows / secs), mb_per_s_uncompressed: +(Number(p.bytes) / 1e6 / secs).toFixed(1),
    active_parts: Number(p.parts), compressed_mb: +(Number(p.cbytes) / 1e6).toFixed(1), rss_mb: Math.round(process.memoryUsage().rss / 1048576) }));
  s.query(`SYSTEM STOP MERGES ${table}`);
}
fs.rmSync(dir, { recursive: true, force: true });
