// ClickHouse (chDB) ingesting the benchmark's objects as ../shared/tools/chdb-ingest.js does, and then letting its
// background merges settle before the process exits: the same end state as our ingest's default
// `merges_at_end_of_input = settle` (merges run until the selector picks nothing more), so that both sides' CPU-seconds
// pay for the merges. chdb-ingest.js exits right after the INSERT, which cancels the merges ClickHouse would still run.
//
// usage: node chdb-ingest-settle.js DDL_FILE SOURCE_EXPR [SETTINGS]
// Settled means: no merge running and the active part count unchanged for QUIET_S seconds (default 25: ClickHouse's
// merge assignee re-checks a table with nothing to merge about every 10 s, so two such checks pass). The quiet wait
// is idle (a poll every 0.5 s); it adds to the wall-clock, not to the CPU.
// prints one JSON line: seconds (the INSERT), rows, rows_per_s, mb_per_s_uncompressed, active_parts (after settling),
// compressed_mb, parts_at_insert_end, merges (merges seen running while polling, by result part), settle_seconds
// (from the INSERT's end to the last part change).
const fs = require('fs'), os = require('os'), path = require('path');
const { Session } = require(process.env.CHDB_MODULE || require.resolve('chdb', { paths: [process.cwd(), __dirname] }));
const [ddlFile, src, settings = ''] = process.argv.slice(2);
if (!ddlFile || !src) { console.error('usage: chdb-ingest-settle.js DDL_FILE SOURCE_EXPR [SETTINGS]'); process.exit(2); }
const quietSeconds = Number(process.env.QUIET_S || 25);
const ddl = fs.readFileSync(ddlFile, 'utf8');
const table = ddl.match(/CREATE\s+TABLE\s+([`\w]+)/i)[1];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chdb-ingest-'));
const s = new Session(dir);
s.query(ddl);
const t0 = process.hrtime.bigint();
s.query(`INSERT INTO ${table} SELECT * FROM ${src} ${settings ? 'SETTINGS ' + settings : ''}`);
const tInsertEnd = process.hrtime.bigint();
const secs = Number(tInsertEnd - t0) / 1e9;

const parts = () => JSON.parse(s.query(`SELECT sum(rows) AS rows, sum(data_uncompressed_bytes) AS bytes,
  sum(data_compressed_bytes) AS cbytes, count() AS parts, groupArray(name) AS names
  FROM system.parts WHERE table = '${table}' AND database = currentDatabase() AND active`, 'JSONEachRow'));
const running = () => s.query(`SELECT result_part_name FROM system.merges WHERE table = '${table}'`, 'TSV')
  .split('\n').filter((l) => l.length > 0);
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const level = (name) => Number(name.split('_')[3]);
const atInsertEnd = parts();
const merged = new Set();  // result parts of merges: seen in system.merges, or active with a level above 0
const note = (names) => names.filter((n) => level(n) > 0).forEach((n) => merged.add(n));
note(atInsertEnd.names);
let last = atInsertEnd.names.slice().sort().join(',');
let lastChange = process.hrtime.bigint();
for (;;) {
  sleep(500);
  const now = running();
  const p = parts();
  note(now); note(p.names);
  const names = p.names.slice().sort().join(',');
  const t = process.hrtime.bigint();
  if (names !== last || now.length > 0) {
    last = names; lastChange = t;
  } else if (Number(t - lastChange) / 1e9 >= quietSeconds) {
    break;
  }
}
const p = parts();
const rows = Number(p.rows);
console.log(JSON.stringify({ seconds: +secs.toFixed(3), rows, rows_per_s: Math.round(rows / secs),
  mb_per_s_uncompressed: +(Number(p.bytes) / 1e6 / secs).toFixed(1), active_parts: Number(p.parts),
  compressed_mb: +(Number(p.cbytes) / 1e6).toFixed(1), parts_at_insert_end: Number(atInsertEnd.parts),
  merges: merged.size, settle_seconds: +(Number(lastChange - tInsertEnd) / 1e9).toFixed(1) }));
fs.rmSync(dir, { recursive: true, force: true });
