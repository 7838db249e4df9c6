// Generates the "wide numeric" data set of tools/bench/ingest-bench.sh with chDB (a real ClickHouse engine):
// monthly Parquet files of 60 Int/UInt/Float/Date/DateTime columns (no strings), every value a pure function
// of (seed, file, row), so a rerun writes the same rows. Its table is tools/bench/wide.sql
// (`node gen-wide.js --ddl` prints it from the same column list).
// usage: node gen-wide.js OUTDIR MONTHS ROWS_PER_MONTH [SEED]   |   node gen-wide.js --ddl
const fs = require('fs'), path = require('path');

// name, type, expression over h(k) = cityHash64(seed, number, k) (UInt64) and the month's start `t0`
const cols = [];
const add = (name, type, expr) => cols.push({ name, type, expr });
add('id', 'UInt64', (h, base) => `toUInt64(${base} + number + 1)`);
// dates and times: within the month (event_*), or around it
add('event_date', 'Date', (h, b, t0) => `toDate(${t0} + toIntervalSecond(${h(1)} % (28 * 86400)))`);
add('event_time', 'DateTime(\'UTC\')', (h, b, t0) => `${t0} + toIntervalSecond(${h(1)} % (28 * 86400))`);
add('event_time_ms', 'DateTime64(3, \'UTC\')', (h, b, t0) => `toDateTime64(${t0}, 3) + toIntervalMillisecond(toInt64(${h(1)} % (28 * 86400000)))`);
for (let i = 1; i <= 3; i++) add(`date_${i}`, 'Date', (h, b, t0) => `toDate(${t0}) - toIntervalDay(${h(10 + i)} % (365 * ${i}))`);
for (let i = 1; i <= 2; i++) add(`time_${i}`, 'DateTime(\'UTC\')', (h, b, t0) => `${t0} + toIntervalSecond(${h(20 + i)} % (86400 * 90))`);
// integers: categories (few values), counters (small), ids (large), signed deltas
const ints = [['Int8', 3, 100], ['UInt8', 3, 250], ['Int16', 3, 30000], ['UInt16', 3, 60000],
  ['Int32', 6, 2000000000], ['UInt32', 6, 4000000000], ['Int64', 6, 1e15], ['UInt64', 5, 1e15]];
let k = 100;
for (const [t, n, span] of ints) {
  for (let i = 1; i <= n; i++, k++) {
    const kk = k;
    // the first of each type: few distinct values (a category); the others: counters of growing range;
    // the last 64-bit one: a hash (any value)
    const range = i === 1 ? 8 : t.endsWith('64') && i === n ? null : Math.max(2, Math.floor(span / Math.pow(10, n - i)));
    const signed = t.startsWith('Int');
    add(`${t.toLowerCase()}_${i}`, t, (h) => {
      if (range === null) return signed ? `reinterpretAsInt64(${h(kk)})` : `${h(kk)}`;
      return signed ? `to${t}(toInt64(${h(kk)} % ${range}) - ${Math.floor(range / 2)})` : `to${t}(${h(kk)} % ${range})`;
    });
  }
}
// floats: prices (2 decimals), ratios in [0, 1), measurements with a spread
for (let i = 1; i <= 8; i++, k++) {
  const kk = k;
  add(`float32_${i}`, 'Float32', (h) => i % 2 ? `toFloat32(round((${h(kk)} % 1000000) / 100, 2))` : `toFloat32((${h(kk)} % 16777216) / 16777216)`);
}
for (let i = 1; i <= 8; i++, k++) {
  const kk = k;
  add(`float64_${i}`, 'Float64', (h) => i % 2 ? `round((${h(kk)} % 100000000) / 100, 2)` : `(${h(kk)} % 9007199254740992) / 9007199254740992 * ${Math.pow(10, i % 5)}`);
}

const ddl = `CREATE TABLE wide (\n  ${cols.map((c) => `${c.name} ${c.type}`).join(',\n  ')})\n`
  + 'ENGINE = MergeTree PARTITION BY toYYYYMM(event_date) ORDER BY (uint8_1, event_date, int16_1, id)\n';

if (process.argv[2] === '--ddl') { process.stdout.write(ddl); process.exit(0); }
const [outDir, months = '24', rowsPerMonth = '100000', seed = '1'] = process.argv.slice(2);
if (!outDir) { console.error('usage: gen-wide.js OUTDIR MONTHS ROWS_PER_MONTH [SEED] | gen-wide.js --ddl'); process.exit(2); }
if (cols.length !== 60) throw new Error(`expected 60 columns, have ${cols.length}`);
const { query } = require(process.env.CHDB_MODULE || require.resolve('chdb', { paths: [process.cwd(), __dirname] }));
fs.mkdirSync(outDir, { recursive: true });
for (let m = 0; m < Number(months); m++) {
  const y = 2020 + Math.floor(m / 12), mo = (m % 12) + 1;
  const t0 = `toDateTime('${y}-${String(mo).padStart(2, '0')}-01 00:00:00', 'UTC')`;
  const n = Number(rowsPerMonth), base = m * n;
  const h = (kk) => `cityHash64(${seed}, ${m}, number, ${kk})`;
  const sql = `SELECT ${cols.map((c) => `CAST(${c.expr(h, base, t0)} AS ${c.type}) AS ${c.name}`).join(',\n  ')} FROM numbers(${n})`;
  const file = path.join(outDir, `${y}-${String(mo).padStart(2, '0')}.parquet`);
  try { fs.unlinkSync(file); } catch (e) {}
  query(`${sql} INTO OUTFILE '${file}' FORMAT Parquet SETTINGS session_timezone = 'UTC'`);
  process.stdout.write(file + '\n');
}
