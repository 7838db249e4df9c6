// Judges an ingest: attaches the active parts of our table directories into chDB (a real ClickHouse
// engine) and compares them with chDB's own INSERT … SELECT of the same objects.
// usage: node ingest-compare.js DDL_FILE SOURCE_EXPR TABLE_DIR...
//   SOURCE_EXPR: what chDB reads for the reference table, e.g. "file('/data/bucket/posts/*.parquet')"
// For each TABLE_DIR: copies every active part (a part directory not covered by a bigger one of the
// same partition) into detached/, ALTER TABLE … ATTACH PART, CHECK TABLE, then compares count() and
// sum(cityHash64(toString(tuple(*)))) with the reference. Prints one JSON line per table; exits 1 on any difference.
const fs = require('fs'), os = require('os'), path = require('path');
const { Session } = require(process.env.CHDB_MODULE || require.resolve('chdb', { paths: [process.cwd(), __dirname] }));
const [ddlFile, src, ...tables] = process.argv.slice(2);
if (!ddlFile || !src || tables.length === 0) { console.error('usage: ingest-compare.js DDL_FILE SOURCE_EXPR TABLE_DIR...'); process.exit(2); }
const ddl = fs.readFileSync(ddlFile, 'utf8');
const name = ddl.match(/CREATE\s+TABLE\s+([`\w]+)/i)[1];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-compare-'));
const s = new Session(dir);
const one = (sql) => JSON.parse(s.query(sql, 'JSONEachRow').trim().split('\n')[0]);
s.query(ddl);
s.query(`INSERT INTO ${name} SELECT * FROM ${src}`);
const digest = (t) => one(`SELECT count() AS c, toString(sum(cityHash64(toString(tuple(*))))) AS h FROM ${t}`);
const ref = digest(name);
// part name: <partition>_<min>_<max>_<level>[_<mutation>]
const parse = (n) => { const m = n.match(/^(.+)_(\d+)_(\d+)_(\d+)(?:_(\d+))?$/); return m && { n, p: m[1], min: +m[2], max: +m[3], lvl: +m[4] }; };
let failed = false;
tables.forEach((tdir, i) => {
  const t = `${name}_ours_${i}`;
  s.query(ddl.replace(/CREATE\s+TABLE\s+[`\w]+/i, `CREATE TABLE ${t}`));
  const dataPath = one(`SELECT arrayJoin(data_paths) AS p FROM system.tables WHERE database = currentDatabase() AND name = '${t}'`).p;
  const parts = fs.readdirSync(tdir).filter((n) => !/^(tmp|delete_tmp|detached)/.test(n)).map(parse).filter((p) => p && fs.existsSync(path.join(tdir, p.n, 'checksums.txt')));
  const active = parts.filter((a) => !parts.some((b) => b !== a && b.p === a.p && b.min <= a.min && b.max >= a.max && b.lvl > a.lvl));
  for (const p of active) {
    fs.cpSync(path.join(tdir, p.n), path.join(dataPath, 'detached', p.n), { recursive: true });
    s.query(`ALTER TABLE ${t} ATTACH PART '${p.n}'`);
  }
  const check = s.query(`CHECK TABLE ${t} SETTINGS check_query_single_value_result = 0`, 'JSONEachRow').trim().split('\n').filter(Boolean).map(JSON.parse);
  const checkOk = check.length === active.length && check.every((r) => Number(r.is_passed) === 1);
  const d = digest(t);
  const equal = d.c === ref.c && d.h === ref.h;
  if (!equal || !checkOk) failed = true;
  console.log(JSON.stringify({ table_dir: tdir, active_parts: active.length, check_table: checkOk ? 'passed' : check,
    rows: Number(d.c), ref_rows: Number(ref.c), hash: d.h, ref_hash: ref.h, equal }));
});
fs.rmSync(dir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
