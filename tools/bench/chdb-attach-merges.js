// What ClickHouse's own merge selector does with a table's parts: attaches every committed part of one of our
// table directories into chDB at once (ALTER TABLE … ATTACH PART), prints the active parts per partition with
// their sizes, watches system.merges for SECONDS and prints each merge ClickHouse starts, then the parts again.
// usage: CHDB_MODULE=tools/chdb/node_modules/chdb node tools/bench/chdb-attach-merges.js DDL_FILE TABLE_DIR SECONDS
const fs = require('fs'), os = require('os'), path = require('path');
const { Session } = require(process.env.CHDB_MODULE);
const [ddlFile, tdir, secs] = process.argv.slice(2);
const ddl = fs.readFileSync(ddlFile, 'utf8');
const name = ddl.match(/CREATE\s+TABLE\s+([`\w]+)/i)[1];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'selexp-'));
const s = new Session(dir);
const q = (sql) => s.query(sql, 'JSONEachRow').trim().split('\n').filter(Boolean).map(JSON.parse);
s.query(ddl);
const dataPath = q(`SELECT arrayJoin(data_paths) AS p FROM system.tables WHERE database = currentDatabase() AND name = '${name}'`)[0].p;
const parts = fs.readdirSync(tdir).filter((n) => /^\d+_\d+_\d+_\d+$/.test(n) && fs.existsSync(path.join(tdir, n, 'checksums.txt')));
for (const p of parts) { fs.cpSync(path.join(tdir, p), path.join(dataPath, 'detached', p), { recursive: true }); s.query(`ALTER TABLE ${name} ATTACH PART '${p}'`); }
const show = (label) => console.log(label, JSON.stringify(q(`SELECT partition_id, count() c, groupArray(name) names, groupArray(bytes_on_disk) sizes FROM system.parts WHERE table='${name}' AND active GROUP BY partition_id ORDER BY partition_id`)));
show('attached');
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const seen = new Set();
const t0 = Date.now();
while (Date.now() - t0 < secs * 1000) {
  sleep(500);
  for (const m of q(`SELECT result_part_name, num_parts, elapsed FROM system.merges WHERE table='${name}'`)) { if (!seen.has(m.result_part_name)) { seen.add(m.result_part_name); console.log(((Date.now()-t0)/1000).toFixed(1), 'merge', JSON.stringify(m)); } }
}
show('after');
try { console.log(JSON.stringify(q(`SELECT event_type, part_name, merged_from FROM system.part_log WHERE table='${name}' AND event_type='MergeParts'`))); } catch (e) { console.log('no part_log'); }
fs.rmSync(dir, { recursive: true, force: true });
