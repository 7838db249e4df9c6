#!/usr/bin/env bash
# End-to-end ingest benchmark (issue 8): our `s3-mergetree ingest` (S3 source → MergeTree sink, embedded
# MiniCluster, exactly-once checkpointing on) beside ClickHouse's own `INSERT INTO posts SELECT * FROM s3(…)`
# (chDB 26.x via ../shared/tools/chdb-ingest.js), on the same Parquet objects served by one local S3 API
# server (S3Proxy, filesystem store, 127.0.0.1), interleaved in the same run. Then attaches our active parts
# into chDB (ATTACH PART, CHECK TABLE) and compares count() and sum(cityHash64(*)) with chDB's table.
# Not part of `mvn verify`.
#
#   tools/bench/ingest-bench.sh                         # full run: 24 files × 100,000 rows
#   FILES=4 ROWS=50000 ROUNDS=1 tools/bench/ingest-bench.sh   # quick run
#
# Environment (defaults): FILES=24 ROWS=100000 (rows per file), COPIES=1 (COPIES=4: each object served 4 times
# under other keys, hard links: 4× the rows for a longer ingest, where the JVM's start and warm-up weigh less), ROUNDS=2 (each round: chDB, ours p=2, ours p=1),
# PARALLELISMS="2 1", SETTINGS="" (extra `--setting name=value` pairs for ours, space separated),
# CHDB_SETTINGS="" (SETTINGS clause of chDB's INSERT), JAVA_OPTS="" (ours, e.g. -Xmx4g), PROFILE=1 (JFR of the
# first p=2 run into $OUT/ingest-p2.jfr), CDS=1 (ours and base run, as ./s3-mergetree does, with a class-data
# sharing archive of their build, written once by a training run: tools/write-cds-archive.sh; CDS=0: none;
# BASE_CDS for base alone), SKIP_BUILD=1 (use the current target/), DATA=/tmp/ingest-bench-data,
# OUT=/tmp/ingest-bench-out. Every run of ours also records per-thread CPU by role (tools/bench/thread-cpu.py:
# $OUT/<side>-r<round>-p<p>.threads.{tsv,txt}, a 0.5 s timeline and totals). A/B of two builds in the same run: SAVE_SNAPSHOT=DIR keeps this run's classes;
# COMMAND_JVM_OPTS (default: those of ./s3-mergetree, tools/s3-mergetree-jvm.options; "" for none).
# OURS_SNAPSHOT=DIR runs saved classes as "ours"; a later run with BASE_SNAPSHOT=DIR also runs those (side "base", JVM options BASE_COMMAND_JVM_OPTS + BASE_JAVA_OPTS, settings BASE_SETTINGS) after each of ours. Results: one line per run on stdout and in $OUT/results.tsv.
# results.tsv: seconds = the job's start of reading to its last commit (for chDB: the query); insert_s = to the
# commit of its last inserted part (merges that settle at the end of a bounded ingest excluded).
# the body is one function, so bash has read all of it before it runs (editing the file mid-run is safe)
main() {
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
FILES="${FILES:-24}"; ROWS="${ROWS:-100000}"; ROUNDS="${ROUNDS:-2}"; PARALLELISMS="${PARALLELISMS:-2 1}"; COPIES="${COPIES:-1}"
SETTINGS="${SETTINGS:-}"; CHDB_SETTINGS="${CHDB_SETTINGS:-}"; JAVA_OPTS="${JAVA_OPTS:-}"; PROFILE="${PROFILE:-0}"
# the JVM options ./s3-mergetree starts with (tools/s3-mergetree-jvm.options), before JAVA_OPTS
COMMAND_JVM_OPTS="${COMMAND_JVM_OPTS-$(grep -v '^#' tools/s3-mergetree-jvm.options | xargs)}"
DATA="${DATA:-/tmp/ingest-bench-data}"; OUT="${OUT:-/tmp/ingest-bench-out}"
SHARED="${SHARED:-$root/../shared/tools}"; [ -d "$SHARED" ] || SHARED=/work/shared/tools
export CHDB_MODULE="${CHDB_MODULE:-$root/tools/chdb/node_modules/chdb}"
KEY=benchkey; SECRET=benchsecret
DDL="$SHARED/posts.sql"

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  mvn -B -q -o -Dinstall.engines.skip=true -DskipTests package dependency:build-classpath \
    -Dmdep.outputFile=target/bench.cp -Dmdep.includeScope=runtime -pl examples -am
fi

# run from a private copy of the classes and module jars, so a concurrent build cannot change them mid-run
snap="$(mktemp -d /tmp/ingest-bench-snap.XXXXXX)"
server_pid=""
cleanup() { if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi; rm -rf "$snap"; }
trap cleanup EXIT
# the examples' classes as a jar: class-data sharing archives only classes from jars
(cd examples/target/classes && jar cf "$snap/examples-classes.jar" .)
cp_entries=("$snap/examples-classes.jar")
IFS=':' read -r -a deps < examples/target/bench.cp || true
for d in "${deps[@]}"; do
  if [[ "$d" == "$root"/* ]]; then cp "$d" "$snap/"; cp_entries+=("$snap/$(basename "$d")"); else cp_entries+=("$d"); fi
done
CP="$(IFS=:; echo "${cp_entries[*]}")"
echo "$CP" > "$snap/cp"
if [ -n "${OURS_SNAPSHOT:-}" ]; then CP="$(cat "$OURS_SNAPSHOT/cp")"; echo "ours: classes of $OURS_SNAPSHOT" >&2; fi
if [ -n "${SAVE_SNAPSHOT:-}" ]; then  # keep these classes for a later A/B run (BASE_SNAPSHOT)
  rm -rf "$SAVE_SNAPSHOT"; cp -r "$snap" "$SAVE_SNAPSHOT"; sed "s|$snap|$SAVE_SNAPSHOT|g" "$snap/cp" > "$SAVE_SNAPSHOT/cp"
  echo "classes saved in $SAVE_SNAPSHOT" >&2
fi
BASE_CP=""; if [ -n "${BASE_SNAPSHOT:-}" ]; then BASE_CP="$(cat "$BASE_SNAPSHOT/cp")"; fi
# snapshots saved before the classes were jarred: jar them now (same classes)
jar_only() {  # classpath -> the same classpath with a leading classes directory replaced by a jar
  local first="${1%%:*}"
  if [ -d "$first" ]; then
    [ -f "$first.jar" ] || (cd "$first" && jar cf "$first.jar" .)
    echo "$first.jar:${1#*:}"
  else
    echo "$1"
  fi
}
CP="$(jar_only "$CP")"; if [ -n "$BASE_CP" ]; then BASE_CP="$(jar_only "$BASE_CP")"; fi
if [ "${SNAPSHOT_ONLY:-0}" = 1 ]; then exit 0; fi

# data: FILES monthly Parquet files of ROWS rows, bucket "bucket", keys posts/*.parquet
data="$DATA/posts-${FILES}x${ROWS}"
if [ ! -f "$data/.done" ]; then
  rm -rf "$data"; mkdir -p "$data/bucket/posts"
  node "$SHARED/gen-posts.js" "$data/bucket/posts" "$FILES" "$ROWS" >&2
  touch "$data/.done"
fi
if [ "$COPIES" -gt 1 ]; then  # COPIES× the objects: hard links of the generated files under other keys
  copies="$DATA/posts-${FILES}x${ROWS}-copies$COPIES"
  if [ ! -f "$copies/.done" ]; then
    rm -rf "$copies"; mkdir -p "$copies/bucket/posts"
    for k in $(seq "$COPIES"); do
      for f in "$data"/bucket/posts/*.parquet; do ln "$f" "$copies/bucket/posts/c$k-$(basename "$f")"; done
    done
    touch "$copies/.done"
  fi
  data="$copies"
fi
bytes=$(du -cb "$data"/bucket/posts/*.parquet | tail -1 | cut -f1)
echo "data: $COPIES × $FILES files × $ROWS rows, $(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1e6}') MB Parquet in $data" >&2

# the S3 API server (one JVM for both sides)
mkdir -p "$OUT"; rm -f "$OUT/port"
java -Xmx1g -cp "$CP" tools/bench/BenchS3Server.java "$data" 0 "$KEY" "$SECRET" "$OUT/port" >"$OUT/s3-server.log" 2>&1 &
server_pid=$!
for _ in $(seq 600); do [ -f "$OUT/port" ] && break; sleep 0.1; done
[ -f "$OUT/port" ] || { echo "the S3 API server did not start (see $OUT/s3-server.log)" >&2; exit 1; }
PORT=$(cat "$OUT/port"); EP="http://127.0.0.1:$PORT"
echo "S3 API server at $EP (pid $server_pid)" >&2

load() { cut -d' ' -f1-3 /proc/loadavg; }
printf 'round\tside\tp\tload\trows\tseconds\twall_s\trows_per_s\tmb_per_s\tmax_rss_mb\tcpu_s\tparts\tactive_parts\tmerges\tcpu_s_by_thread_role\tinsert_s\n' > "$OUT/results.tsv"
emit() { printf '%s\n' "$1" | tee -a "$OUT/results.tsv"; }

run_chdb() {  # round
  local l; l=$(load)
  local t0 t1 j; t0=$(date +%s.%N)
  j=$(/usr/bin/time -f '%M %U %S' -o "$OUT/chdb.time" node "$SHARED/chdb-ingest.js" "$DDL" \
      "s3('$EP/bucket/posts/*.parquet', '$KEY', '$SECRET', 'Parquet')" "$CHDB_SETTINGS" | tail -1)
  t1=$(date +%s.%N)
  echo "$j" > "$OUT/chdb-$1.json"
  emit "$(node -e '
    const j = JSON.parse(process.argv[1]); const [r, l, w, t] = process.argv.slice(2); const [rss, u, sy] = t.trim().split(/\s+/).map(Number);
    console.log([r, "chdb", "-", l, j.rows, j.seconds, (+w).toFixed(2), j.rows_per_s, j.mb_per_s_uncompressed,
      Math.round(rss / 1024), (u + sy).toFixed(1), "-", j.active_parts, "-", "-", j.seconds].join("\t"));' "$j" "$1" "$l" "$(echo "$t1 - $t0" | bc)" "$(cat "$OUT/chdb.time")")"
}

# as ./s3-mergetree does: a class-data sharing archive per build, from a small training run
# (tools/write-cds-archive.sh), beside the build's jars; CDS=0 runs without one
cds_opts() {  # classpath [CDS] -> JVM options
  [ "${2:-${CDS:-1}}" = 1 ] || return 0
  local archive; archive="$(dirname "${1%%:*}")/s3-mergetree.jsa"
  if [ ! -f "$archive" ]; then
    echo "writing the class-data sharing archive $archive (training run)" >&2
    # shellcheck disable=SC2086
    tools/write-cds-archive.sh "$1" "$archive" $JAVA_OPTS >&2 || return 0
  fi
  echo "-XX:SharedArchiveFile=$archive -Xlog:cds=off -Xlog:cds+dynamic=off"
}

run_ours() {  # round parallelism [side classpath]
  local side="${3:-ours}" cp="${4:-$CP}" opts="$COMMAND_JVM_OPTS $JAVA_OPTS"
  local settings="$SETTINGS"
  if [ "$side" = base ]; then
    opts="${BASE_COMMAND_JVM_OPTS-$COMMAND_JVM_OPTS} ${BASE_JAVA_OPTS-$JAVA_OPTS}"; settings="${BASE_SETTINGS-$SETTINGS}"
  fi
  local cds="${CDS:-1}"; if [ "$side" = base ]; then cds="${BASE_CDS:-$cds}"; fi
  opts="$opts $(cds_opts "$cp" "$cds")"
  local table="$OUT/table-r$1-p$2"; [ "$side" = ours ] || table="$OUT/table-r$1-p$2-$side"; rm -rf "$table"
  local jfr=""
  if [ "$PROFILE" = 1 ] && [ "$2" = 2 ] && [ ! -f "$OUT/ingest-p2.jfr" ]; then
    jfr="-XX:StartFlightRecording=filename=$OUT/ingest-p2.jfr,settings=profile"
  fi
  local extra=(); for s in $settings; do extra+=(--setting "$s"); done
  local l; l=$(load)
  local t0 t1; t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  /usr/bin/time -f '%M %U %S' -o "$OUT/ours.time" java $opts $jfr -cp "$cp" \
    io.github.s3mergetree.examples.cli.S3MergeTreeCommand ingest \
    --source "s3://bucket/posts/*.parquet" --format Parquet --table-ddl-file "$DDL" --table-path "$table" \
    --s3-endpoint "$EP" --s3-access-key "$KEY" --s3-secret-key "$SECRET" --s3-path-style \
    --parallelism "$2" "${extra[@]}" >"$OUT/$side-r$1-p$2.out" 2>"$OUT/$side-r$1-p$2.err" &
  local run_pid=$!
  # per-thread CPU by role (fetch/decode, insert/write, jit, gc, ...), every 0.5 s, from /proc
  python3 tools/bench/thread-cpu.py "$run_pid" "$OUT/$side-r$1-p$2.threads" 0.5 &
  local cpu_pid=$!
  wait "$run_pid" \
    || { echo "our ingest failed (see $OUT/$side-r$1-p$2.err)" >&2; tail -5 "$OUT/$side-r$1-p$2.err" >&2; exit 1; }
  wait "$cpu_pid" || true
  t1=$(date +%s.%N)
  local j; j=$(tail -1 "$OUT/$side-r$1-p$2.out")
  emit "$(node -e '
    const j = JSON.parse(process.argv[1]); const [r, p, l, w, t] = process.argv.slice(2); const [rss, u, sy] = t.trim().split(/\s+/).map(Number);
    console.log([r, process.argv[7], p, l, j.rows, j.seconds, (+w).toFixed(2), j.rows_per_s,
      (j.bytes_uncompressed / 1e6 / j.seconds).toFixed(1), Math.round(rss / 1024), (u + sy).toFixed(1), j.parts_written, j.active_parts, j.merges,
      process.argv[8], j.insert_seconds ?? "-"].join("\t"));' \
    "$j" "$1" "$2" "$l" "$(echo "$t1 - $t0" | bc)" "$(cat "$OUT/ours.time")" "$side" \
    "$(cat "$OUT/$side-r$1-p$2.threads.txt" 2>/dev/null || echo -)")"
  # only the last round's tables are compared with chDB's: drop the others (1.2 GB each)
  if [ "$1" != "$ROUNDS" ]; then rm -rf "$table"; fi
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; $(java -version 2>&1 | head -1)" >&2
cat "$OUT/results.tsv"
for r in $(seq "$ROUNDS"); do
  run_chdb "$r"
  for p in $PARALLELISMS; do
    run_ours "$r" "$p"
    if [ -n "$BASE_CP" ]; then run_ours "$r" "$p" base "$BASE_CP"; fi
  done
done

# correctness: our tables (the last round's) against chDB's INSERT … SELECT of the same objects
tables=(); for p in $PARALLELISMS; do tables+=("$OUT/table-r$ROUNDS-p$p"); done
node tools/bench/ingest-compare.js "$DDL" "file('$data/bucket/posts/*.parquet', 'Parquet')" "${tables[@]}" | tee "$OUT/compare.jsonl"

# summary: best of rounds per side; ratio ours/chDB on rows/s (the job's seconds vs chDB's query seconds)
node -e '
  const fs = require("fs"); const rows = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").slice(1).map((l) => l.split("\t"));
  const best = (f) => rows.filter(f).reduce((a, b) => (!a || +b[7] > +a[7] ? b : a), null);
  const c = best((r) => r[1] === "chdb"); const ps = [...new Set(rows.filter((r) => r[1] === "ours").map((r) => r[2]))];
  const sides = [...new Set(rows.filter((r) => r[1] !== "chdb").map((r) => r[1]))];
  console.log("\nbest of rounds (rows/s; load at start):");
  console.log(`  chDB INSERT … SELECT FROM s3(): ${c[7]} rows/s, ${c[8]} MB/s, ${c[5]} s (wall ${c[6]} s), RSS ${c[9]} MB, CPU ${c[10]} s (${Math.round(c[4] / c[10])} rows per CPU-s), load ${c[3]}`);
  const o = {};
  for (const p of ps) { const b = best((r) => r[1] === "ours" && r[2] === p); o[p] = b;
    console.log(`  ours p=${p}: ${b[7]} rows/s, ${b[8]} MB/s, ${b[5]} s (wall ${b[6]} s), RSS ${b[9]} MB, CPU ${b[10]} s (${Math.round(b[4] / b[10])} rows per CPU-s), load ${b[3]}; ratio ours/chDB ${(b[7] / c[7]).toFixed(2)}x`);
    console.log(`    CPU s by thread role: ${b[14] || "-"}`); }
  for (const r of rows.filter((r) => r[1] !== "chdb")) { const cr = rows.find((x) => x[0] === r[0] && x[1] === "chdb");
    console.log(`  round ${r[0]} ${r[1]} p=${r[2]}: ratio ${(r[7] / cr[7]).toFixed(2)}x rows/s, ${(cr[10] / r[10]).toFixed(2)}x rows per CPU-s (same round)`); }
  if (sides.includes("base")) for (const p of ps) { const b = best((r) => r[1] === "base" && r[2] === p);
    if (b) console.log(`  base p=${p} (BASE_SNAPSHOT): ${b[7]} rows/s, ${b[5]} s, CPU ${b[10]} s; ours/base ${(o[p][7] / b[7]).toFixed(2)}x rows/s`); }
  for (const p of ps) { const cpu = (side) => { const v = rows.filter((r) => r[1] === side && r[2] === p).map((r) => +r[10]).sort((a, b) => a - b); return v[Math.floor((v.length - 1) / 2)]; };
    if (sides.includes("base")) console.log(`  p=${p} median CPU s: ours ${cpu("ours")}, base ${cpu("base")}; base/ours ${(cpu("base") / cpu("ours")).toFixed(2)}x`); }
  if (o["1"] && o["2"]) console.log(`  scaling p=1 → p=2: ${(o["2"][7] / o["1"][7]).toFixed(2)}x (efficiency ${(50 * o["2"][7] / o["1"][7]).toFixed(0)} %)`);
' "$OUT/results.tsv"
}
main "$@"; exit $?
