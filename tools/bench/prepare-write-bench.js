// Prepares the data sets of the part-write benchmark: the same rows as RowBinary (what our engine
// reads into column blocks) and as Native (what chDB inserts from, at near-zero parsing cost).
// usage: node prepare-write-bench.js OUTDIR [POSTS_MONTHS] [POSTS_ROWS_PER_MONTH] [NUMERIC_ROWS]
// Needs chDB (tools/chdb) and ../shared/tools/gen-posts.js.
const fs = require('fs'), path = require('path'), { execFileSync } = require('child_process');
const chdbDir = process.env.CHDB_MODULE || path.join(__dirname, '..', 'chdb', 'node_modules', 'chdb');
const { query, Session } = require(chdbDir);
const [outDir, months = '2', perMonth = '100000', numericRows = '2000000'] = process.argv.slice(2);
if (!outDir) { console.error('usage: prepare-write-bench.js OUTDIR [MONTHS] [ROWS_PER_MONTH] [NUMERIC_ROWS]'); process.exit(2); }
fs.mkdirSync(outDir, { recursive: true });
const shared = process.env.SHARED_DIR || path.join(__dirname, '..', '..', '..', 'shared');
const pq = path.join(outDir, 'posts-parquet');
execFileSync('node', [path.join(shared, 'tools', 'gen-posts.js'), pq, months, perMonth, '1'],
  { env: { ...process.env, CHDB_MODULE: chdbDir }, stdio: ['ignore', 'ignore', 'inherit'] });
const postsDdl = fs.readFileSync(path.join(shared, 'tools', 'posts.sql'), 'utf8');
const structureOf = (ddl) => ddl.slice(ddl.indexOf('(') + 1, ddl.search(/\)\s*ENGINE/i)).replace(/\s+/g, ' ').trim();
const postsStructure = structureOf(postsDdl);
const esc = (s) => s.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
const numericDdl = "CREATE TABLE numeric (id UInt64, ts DateTime('UTC'), user UInt32, value Float64, qty Int32, flag UInt8, price Decimal(18, 4), cat UInt16) ENGINE = MergeTree ORDER BY (cat, ts, id)";
const numericStructure = structureOf(numericDdl);
const sets = [
  { name: 'posts', ddl: postsDdl.trim(), structure: postsStructure,
    select: `SELECT * FROM file('${pq}/*.parquet', Parquet, '${esc(postsStructure)}')` },
  { name: 'numeric', ddl: numericDdl, structure: numericStructure,
    select: `SELECT number AS id, toDateTime('2024-01-01 00:00:00', 'UTC') + (cityHash64(number, 1) % 31536000) AS ts,
      toUInt32(cityHash64(number, 2) % 1000000) AS user, (cityHash64(number, 3) % 100000) / 100 AS value,
      toInt32(cityHash64(number, 4) % 1000) - 500 AS qty, toUInt8(cityHash64(number, 5) % 2) AS flag,
      toDecimal64((cityHash64(number, 6) % 10000000) / 1000, 4) AS price, toUInt16(cityHash64(number, 7) % 100) AS cat
      FROM numbers(${numericRows})` },
];
// rows go through a Memory table of the benchmark table's structure, so every value has exactly
// the column's type (as an INSERT would convert it)
const session = new Session(fs.mkdtempSync(path.join(require('os').tmpdir(), 'prepare-bench-')));
for (const s of sets) {
  session.query(`CREATE TABLE staging_${s.name} (${s.structure}) ENGINE = Memory`);
  session.query(`INSERT INTO staging_${s.name} ${s.select}`);
  for (const fmt of ['RowBinary', 'Native']) {
    const f = path.join(outDir, `${s.name}.${fmt.toLowerCase()}`);
    session.query(`SELECT * FROM staging_${s.name} INTO OUTFILE '${f}' TRUNCATE FORMAT ${fmt}`);
  }
  fs.writeFileSync(path.join(outDir, `${s.name}.sql`), s.ddl + '\n');
  fs.writeFileSync(path.join(outDir, `${s.name}.structure`), s.structure);
  const rows = session.query(`SELECT count() FROM staging_${s.name}`, 'TSV').trim();
  process.stdout.write(`${s.name}: ${rows} rows\n`);
}
