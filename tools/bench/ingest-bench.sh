#!/usr/bin/env bash
# End-to-end ingest benchmark (issues 8, 20): our `s3-mergetree ingest` (S3 source → MergeTree sink, embedded
# MiniCluster, exactly-once checkpointing on) beside ClickHouse's own `INSERT INTO t SELECT * FROM s3(…)`
# (chDB 26.x via ../shared/tools/chdb-ingest.js), on the same objects served by one local S3 API server
# (S3Proxy, filesystem store, 127.0.0.1; its CPU counts for neither side), interleaved in the same run. Then
# attaches our active parts into chDB (ATTACH PART, CHECK TABLE) and compares count() and sum(cityHash64(toString(tuple(*))))
# with chDB's table. Not part of `mvn verify`.
#
#   tools/bench/ingest-bench.sh                                   # posts, 24 files × 100,000 rows, 2 rounds
#   tools/bench/ingest-bench.sh --dataset wide --rounds 10        # 60 numeric columns, 10 interleaved rounds
#   tools/bench/ingest-bench.sh --dataset csv --scale 4           # posts as CSVWithNames.gz, 4× the objects
#   FILES=4 ROWS=50000 ROUNDS=1 tools/bench/ingest-bench.sh       # quick run
#
# Data sets (--dataset / DATASET), generated once into DATA, reproducibly (every value a function of the row):
#   posts  StackOverflow-like posts (../shared/tools/gen-posts.js, posts.sql): 22 columns, ~340-byte bodies,
#          Enum8, LowCardinality, DateTime64; monthly Parquet objects written by ClickHouse (ZSTD).
#   wide   60 Int/UInt/Float/Date/DateTime columns, no strings (tools/bench/gen-wide.js, wide.sql); Parquet.
#   csv    the posts rows as CSVWithNames, gzip-compressed objects (*.csv.gz), converted by chDB.
# --scale N (SCALE, alias COPIES): each object is served N times under other keys (hard links): N× the rows, a
# longer ingest in which the JVM's start and warm-up weigh less (--scale 4: 9.6M rows).
#
# Each round runs chDB and ours (every parallelism of PARALLELISMS) one after the other; the order alternates
# between rounds (ORDER=alternate; chdb-first / ours-first to fix it), so a drift of the machine's speed does
# not favour one side. Per run it records the load average (1/5/15 min) at its start and end, the job seconds
# (ours: from the job's start of reading to its last commit, as the command's JSON summary reports it; chDB: its
# INSERT query), the process's wall-clock (JVM / node start to exit) and CPU-seconds (user + system of the
# whole process tree, from /usr/bin/time, which also counts reaped children), max RSS, and the kernel's memory
# counters over the process (reclaim, compaction, page faults: $OUT/<side>-r<round>[-p<p>].vmstat). After each round it
# prints the three ratios ours/chDB of that round: rows per CPU-second (chDB CPU / ours CPU), job rows/s
# (chDB job s / ours job s), wall-clock (chDB wall / ours wall). At the end: the medians of every figure and
# ratio over the rounds, and how many rounds had each ratio ≥ 1.0 ($OUT/summary.txt).
#
# Environment (defaults): DATASET=posts, FILES=24 ROWS=100000 (objects and rows per object), SCALE=1,
# ROUNDS=2, PARALLELISMS="2 1", ORDER=alternate, SETTINGS="" (extra `--setting name=value` pairs for ours,
# space separated), CHDB_SETTINGS="" (SETTINGS clause of chDB's INSERT), CHDB_MERGES=exit (chDB's process exits
# right after its INSERT, cancelling the background merges it would still run; settle: it waits until no merge has
# run and no part changed for 25 s (tools/bench/chdb-ingest-settle.js), the end state of our default
# merges_at_end_of_input = settle, so both sides pay for the merges; the wait is idle, wall-clock only), JAVA_OPTS="" (ours, e.g. -Xmx4g),
# PROFILE=1 (JFR of the first p=2 run into $OUT/ingest-p2.jfr), ASYNC_PROFILER=<path of libasyncProfiler.so>
# (async-profiler of the first run of ours at p=PROFILE_P, default 2, every thread, collapsed stacks into
# $OUT/ingest-p<P>.collapsed; PROFILE_EVENT=cpu, PROFILE_INTERVAL=1ms; tools/bench/profile-summary.py reads it), CDS=1 (ours and base run, as ./s3-mergetree
# does, with a class-data sharing archive of their build, written once by a training run:
# tools/write-cds-archive.sh; CDS=0: none; BASE_CDS for base alone), SKIP_BUILD=1 (use the current target/),
# DATA=/tmp/ingest-bench-data, OUT=/tmp/ingest-bench-out. JAVA_BIN=<java> runs ours (and base unless
# BASE_JAVA_BIN) on another JVM, e.g. /usr/lib/jvm/temurin-25-jdk-amd64/bin/java (an AOT cache instead of the
# archive on JDK 25+); CHDB=0 leaves chDB out (an A/B of ours and base only; no ratios to chDB then). Every run of ours also records per-thread CPU by role
# (tools/bench/thread-cpu.py: $OUT/<side>-r<round>-p<p>.threads.{tsv,txt}, a 0.5 s timeline and totals).
# A/B of two builds in the same run: SAVE_SNAPSHOT=DIR keeps this run's classes; COMMAND_JVM_OPTS (default:
# those of ./s3-mergetree, tools/s3-mergetree-jvm-options.sh; "" for none). OURS_SNAPSHOT=DIR runs saved classes
# as "ours"; a later run with BASE_SNAPSHOT=DIR also runs those (side "base", JVM options
# BASE_COMMAND_JVM_OPTS + BASE_JAVA_OPTS, settings BASE_SETTINGS) after each of ours. OURS_ARGS="" (more
# arguments of ours' `ingest`, e.g. "--checkpoint-interval 30s"; BASE_ARGS for base, default OURS_ARGS).
# WARM=K: each process runs K ingests one after the other (ours: tools/bench/WarmIngest.java, each run its own
# MiniCluster in the same JVM; chDB: tools/bench/chdb-ingest-warm.js, K INSERTs into fresh tables of one session),
# so runs 2..K show what a job costs on a JVM (or a ClickHouse) that has run one already, as on a Flink cluster's
# long-lived TaskManagers; run i of round R is reported as round "R.i", cpu_s is the whole process's CPU from the
# run's start to its end (every thread), and the summary's medians and ratios leave out the first (cold) runs.
# Local tables, chDB's merges as with CHDB_MERGES=exit (SYSTEM STOP MERGES after each run); every run's table is
# kept until its process ends (tools/bench/WarmIngest.java says why).
# Tables of finished runs (both sides) are moved into $OUT/.trash and deleted between rounds once it holds more
# than TRASH_MAX_GB (default 6), followed by a wait of TRASH_WAIT_S (default 65) seconds, also at the start: ext4
# without a journal makes whoever creates files within 60 s of a deletion pay for it (see discard() below).
# S3 tables (issue 17: an S3 table's ingest should reach >= 0.85x the rows/s of a local table's): TABLE_STORE=
# local (default) | s3 | both (--table-store). s3 writes ours into s3://tables/table-r<round>-p<p> on the same
# S3 API server (its filesystem store: $DATA/tables/…, ClickHouse's plain layout; checkpoints on S3 too, through
# Flink's flink-s3-fs-presto plugin from cli/target/plugins); both runs each parallelism into a local table
# (side "ours") and then into an S3 table (side "s3"); the summary adds the s3/ours ratios of the same round.
# Results: one line per run on stdout and in $OUT/results.tsv; seconds = job seconds as above; insert_s = to the
# commit of its last inserted part (merges that settle at the end of a bounded ingest excluded).
# the body is one function, so bash has read all of it before it runs (editing the file mid-run is safe)
main() {
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
while [ $# -gt 0 ]; do
  case "$1" in
    --dataset) DATASET="$2"; shift 2 ;;
    --scale) SCALE="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --parallelisms) PARALLELISMS="$2"; shift 2 ;;
    --table-store) TABLE_STORE="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^# the body/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; return 0 ;;
    *) echo "unknown argument '$1' (--dataset posts|wide|csv, --scale N, --rounds N, --parallelisms \"2 1\", --table-store local|s3|both)" >&2; return 2 ;;
  esac
done
DATASET="${DATASET:-posts}"
FILES="${FILES:-24}"; ROWS="${ROWS:-100000}"; ROUNDS="${ROUNDS:-2}"; PARALLELISMS="${PARALLELISMS:-2 1}"
COPIES="${SCALE:-${COPIES:-1}}"; ORDER="${ORDER:-alternate}"
SETTINGS="${SETTINGS:-}"; CHDB_SETTINGS="${CHDB_SETTINGS:-}"; JAVA_OPTS="${JAVA_OPTS:-}"; PROFILE="${PROFILE:-0}"
# the JVM options ./s3-mergetree starts with (tools/s3-mergetree-jvm-options.sh), before JAVA_OPTS
COMMAND_JVM_OPTS="${COMMAND_JVM_OPTS-$(tools/s3-mergetree-jvm-options.sh | xargs)}"
DATA="${DATA:-/tmp/ingest-bench-data}"; OUT="${OUT:-/tmp/ingest-bench-out}"
SHARED="${SHARED:-$root/../shared/tools}"; [ -d "$SHARED" ] || SHARED=/work/shared/tools
case "${CHDB_MERGES:-exit}" in  # chDB exits after its INSERT (cancelling its merges), or lets them settle first
  exit) CHDB_SCRIPT="$SHARED/chdb-ingest.js" ;;
  settle) CHDB_SCRIPT="$root/tools/bench/chdb-ingest-settle.js" ;;
  *) echo "CHDB_MERGES must be exit or settle, not '$CHDB_MERGES'" >&2; exit 2 ;;
esac
WARM="${WARM:-}"
if [ -n "$WARM" ]; then
  [ "$WARM" -ge 2 ] 2>/dev/null || { echo "WARM must be a number of runs >= 2, not '$WARM'" >&2; exit 2; }
  [ "${CHDB_MERGES:-exit}" = exit ] || { echo "WARM supports CHDB_MERGES=exit only" >&2; exit 2; }
  [ "${TABLE_STORE:-local}" = local ] || { echo "WARM supports local tables only (TABLE_STORE=local)" >&2; exit 2; }
  CHDB_SCRIPT="$root/tools/bench/chdb-ingest-warm.js"
fi
export CHDB_MODULE="${CHDB_MODULE:-$root/tools/chdb/node_modules/chdb}"
KEY=benchkey; SECRET=benchsecret
case "$DATASET" in  # DDL, key prefix, object extension, format (ClickHouse name, for both sides)
  posts) DDL="$SHARED/posts.sql"; PREFIX=posts; EXT=parquet; FORMAT=Parquet ;;
  wide) DDL="$root/tools/bench/wide.sql"; PREFIX=wide; EXT=parquet; FORMAT=Parquet ;;
  csv) DDL="$SHARED/posts.sql"; PREFIX=posts; EXT=csv.gz; FORMAT=CSVWithNames ;;
  *) echo "unknown dataset '$DATASET' (posts, wide, csv)" >&2; return 2 ;;
esac

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  mvn -B -q -o -Dinstall.engines.skip=true -DskipTests package dependency:build-classpath \
    -Dmdep.outputFile=target/bench.cp -DincludeScope=runtime -pl cli -am
fi

# run from a private copy of the classes and module jars, so a concurrent build cannot change them mid-run
snap="$(mktemp -d /tmp/ingest-bench-snap.XXXXXX)"
server_pid=""
cleanup() { if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi; rm -rf "$snap" "${TRASH:-$snap}"; }
trap cleanup EXIT
# the command's classes as a jar: class-data sharing archives only classes from jars
(cd cli/target/classes && jar cf "$snap/cli-classes.jar" .)
cp_entries=("$snap/cli-classes.jar")
IFS=':' read -r -a deps < cli/target/bench.cp || true
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

# data: FILES monthly objects of ROWS rows, bucket "bucket", keys $PREFIX/*.$EXT
gen_posts() {  # dir
  if [ ! -f "$1/.done" ]; then
    rm -rf "$1"; mkdir -p "$1/bucket/posts"
    node "$SHARED/gen-posts.js" "$1/bucket/posts" "$FILES" "$ROWS" >&2
    touch "$1/.done"
  fi
}
case "$DATASET" in
  posts) data="$DATA/posts-${FILES}x${ROWS}"; gen_posts "$data" ;;
  wide)
    data="$DATA/wide-${FILES}x${ROWS}"
    if [ ! -f "$data/.done" ]; then
      rm -rf "$data"; mkdir -p "$data/bucket/wide"
      node tools/bench/gen-wide.js "$data/bucket/wide" "$FILES" "$ROWS" >&2
      touch "$data/.done"
    fi ;;
  csv)  # the posts objects converted by ClickHouse: CSVWithNames, gzip by the .gz extension
    gen_posts "$DATA/posts-${FILES}x${ROWS}"
    data="$DATA/posts-csv-${FILES}x${ROWS}"
    if [ ! -f "$data/.done" ]; then
      rm -rf "$data"; mkdir -p "$data/bucket/posts"
      node -e '
        const { query } = require(process.env.CHDB_MODULE); const fs = require("fs"), path = require("path");
        const [src, dst] = process.argv.slice(1);
        for (const f of fs.readdirSync(src).filter((n) => n.endsWith(".parquet")).sort()) {
          const out = path.join(dst, f.replace(/\.parquet$/, ".csv.gz"));
          query(`SELECT * FROM file(\x27${path.join(src, f)}\x27, Parquet) INTO OUTFILE \x27${out}\x27 FORMAT CSVWithNames`);
          console.error(out);
        }' "$DATA/posts-${FILES}x${ROWS}/bucket/posts" "$data/bucket/posts"
      touch "$data/.done"
    fi ;;
esac
if [ "$COPIES" -gt 1 ]; then  # COPIES× the objects: hard links of the generated files under other keys
  copies="${data}-copies$COPIES"
  if [ ! -f "$copies/.done" ]; then
    rm -rf "$copies"; mkdir -p "$copies/bucket/$PREFIX"
    for k in $(seq "$COPIES"); do
      for f in "$data/bucket/$PREFIX"/*."$EXT"; do ln "$f" "$copies/bucket/$PREFIX/c$k-$(basename "$f")"; done
    done
    touch "$copies/.done"
  fi
  data="$copies"
fi
bytes=$(du -cb "$data/bucket/$PREFIX"/*."$EXT" | tail -1 | cut -f1)
echo "data set $DATASET: $COPIES × $FILES objects × $ROWS rows, $(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1e6}') MB of $FORMAT ($EXT) in $data" >&2

TABLE_STORE="${TABLE_STORE:-local}"
case "$TABLE_STORE" in local|s3|both) ;; *) echo "TABLE_STORE must be local, s3 or both, not '$TABLE_STORE'" >&2; exit 2 ;; esac
if [ "$TABLE_STORE" != local ]; then
  # the S3 tables' bucket, a directory of the server's filesystem store
  rm -rf "$data/tables"; mkdir -p "$data/tables"
  [ -d cli/target/plugins ] || { echo "no cli/target/plugins (Flink's S3 plugin for the S3 tables' checkpoints): build first" >&2; exit 1; }
fi

# the S3 API server (one JVM for both sides)
mkdir -p "$OUT"; rm -f "$OUT/port"
# free space, before minutes of rounds: the discarded tables (up to TRASH_MAX_GB) plus, per side, a table of
# about the input's size with room for its merges (a ×4 run once failed at its last step, chDB's reference
# table: NOT_ENOUGH_SPACE); FREE_SPACE_CHECK=0 skips this
need_kb=$(( ${TRASH_MAX_GB:-6} * 1048576 + 4 * bytes * COPIES / 1024 ))
avail_kb=$(df -Pk "$OUT" | awk 'NR == 2 { print $4 }')
if [ "${FREE_SPACE_CHECK:-1}" != 0 ] && [ "$avail_kb" -lt "$need_kb" ]; then
  echo "not enough free space for $OUT: $((avail_kb / 1048576)) GB free, about $(( (need_kb + 1048575) / 1048576 )) GB needed (TRASH_MAX_GB=${TRASH_MAX_GB:-6} + 4 × the input); free some, or FREE_SPACE_CHECK=0" >&2
  exit 1
fi
java -Xmx1g -cp "$CP" tools/bench/BenchS3Server.java "$data" 0 "$KEY" "$SECRET" "$OUT/port" >"$OUT/s3-server.log" 2>&1 &
server_pid=$!
for _ in $(seq 600); do [ -f "$OUT/port" ] && break; sleep 0.1; done
[ -f "$OUT/port" ] || { echo "the S3 API server did not start (see $OUT/s3-server.log)" >&2; exit 1; }
PORT=$(cat "$OUT/port"); EP="http://127.0.0.1:$PORT"
echo "S3 API server at $EP (pid $server_pid)" >&2

load() { cut -d' ' -f1-3 /proc/loadavg; }
# Tables are not deleted while processes are measured. On this machine's ext4 (no journal), an inode deleted in the
# last 60 s (360 s while its inode table block is dirty) is skipped one by one when a new file is created
# (fs/ext4/ialloc.c: find_inode_bit / recently_deleted, RECENTCY_MIN 60): a run that created its part files right
# after another table's deletion paid ~1 CPU-s per 3,300 files (async-profiler: our insert threads after chDB's
# script had deleted its tables; chDB's after ours), a cost of the benchmark, not of either ingest. So discard()
# moves a table into $TRASH (a rename frees no inode), chDB's scripts do the same with theirs
# (tools/bench/keep-deleted.js), and empty_trash, between rounds, deletes the trash once it holds more than
# TRASH_MAX_GB (default 6), writes the inode tables back and waits TRASH_WAIT_S (default 65) seconds.
# Before each measured process: write back dirty pages and wait FS_SETTLE_S (default 6) seconds.
TRASH="$OUT/.trash"; mkdir -p "$TRASH"
export BENCH_TRASH="$TRASH"
# chDB's scripts run with the preload that moves their deleted directories into $TRASH
CHDB_NODE=(node --require "$root/tools/bench/keep-deleted.js")
discard() { local d; for d in "$@"; do if [ -e "$d" ]; then mv "$d" "$TRASH/$(date +%s%N)-$(basename "$d")"; fi; done; }
age_deleted_inodes() { sync; sleep "${TRASH_WAIT_S:-65}"; }  # after a deletion: past ext4's 60-s window
empty_trash() {
  local kb; kb=$(du -sk "$TRASH" | cut -f1)
  if [ "$kb" -gt $(( ${TRASH_MAX_GB:-6} * 1048576 )) ]; then
    echo "deleting $((kb / 1024)) MB of discarded tables, then ${TRASH_WAIT_S:-65} s for ext4 to reuse their inodes" >&2
    rm -rf "${TRASH:?}"/*; age_deleted_inodes
  fi
}
settle_fs() { sync; sleep "${FS_SETTLE_S:-6}"; }
# the kernel's memory counters around each measured process (system-wide, nothing else runs then): reclaim
# by the process itself (pgscan/pgsteal_direct, allocstall), by kswapd, compaction stalls, page faults,
# transparent huge pages, and the free and page-cache memory at its start; vmstat_begin before the process,
# vmstat_end FILE after it writes the differences into FILE ($OUT/<side>-r<round>[-p<p>].vmstat)
VMSTAT_KEYS="pgscan_direct pgsteal_direct allocstall_normal allocstall_movable pgscan_kswapd pgsteal_kswapd compact_stall pgfault pgmajfault thp_fault_alloc thp_fault_fallback"
vmstat_now() { awk -v keys="$VMSTAT_KEYS" 'BEGIN { n = split(keys, k); for (i = 1; i <= n; i++) want[k[i]] = 1 } ($1 in want) { print $1, $2 }' /proc/vmstat; }
vmstat_begin() { cp /proc/meminfo "$OUT/vm.before.meminfo"; vmstat_now > "$OUT/vm.before"; }
vmstat_end() {  # out-file
  { awk '/^(MemFree|Cached):/ { printf "%s_mb_at_start %d\n", tolower(substr($1, 1, length($1) - 1)), $2 / 1024 }' "$OUT/vm.before.meminfo"
    vmstat_now | awk 'NR == FNR { b[$1] = $2; next } { print $1, $2 - b[$1] }' "$OUT/vm.before" -; } > "$1"
  rm -f "$OUT/vm.before" "$OUT/vm.before.meminfo"
}
printf 'round\tside\tp\tload\trows\tseconds\twall_s\trows_per_s\tmb_per_s\tmax_rss_mb\tcpu_s\tparts\tactive_parts\tmerges\tcpu_s_by_thread_role\tinsert_s\tload_end\tdataset\n' > "$OUT/results.tsv"
emit() { printf '%s\n' "$1" | tee -a "$OUT/results.tsv"; }

run_chdb() {  # round
  settle_fs
  if [ -n "$WARM" ]; then run_chdb_warm "$1"; return; fi
  local l; l=$(load)
  vmstat_begin
  local t0 t1 j; t0=$(date +%s.%N)
  /usr/bin/time -f '%M %U %S' -o "$OUT/chdb.time" "${CHDB_NODE[@]}" "$CHDB_SCRIPT" "$DDL" \
      "s3('$EP/bucket/$PREFIX/*.$EXT', '$KEY', '$SECRET', '$FORMAT')" "$CHDB_SETTINGS" > "$OUT/chdb-$1.out" &
  local run_pid=$!
  # chDB's CPU by thread name (ClickHouse names its threads by pool and stage), every 0.5 s, from /proc
  python3 tools/bench/thread-cpu.py "$run_pid" "$OUT/chdb-r$1.threads" 0.5 --by-name node &
  local cpu_pid=$!
  wait "$run_pid" || { echo "chDB's ingest failed" >&2; exit 1; }
  wait "$cpu_pid" || true
  j=$(tail -1 "$OUT/chdb-$1.out")
  t1=$(date +%s.%N)
  vmstat_end "$OUT/chdb-r$1.vmstat"
  echo "$j" > "$OUT/chdb-$1.json"
  emit "$(node -e '
    const j = JSON.parse(process.argv[1]); const [r, l, w, t, le, ds] = process.argv.slice(2); const [rss, u, sy] = t.trim().split(/\s+/).map(Number);
    console.log([r, "chdb", "-", l, j.rows, j.seconds, (+w).toFixed(2), j.rows_per_s, j.mb_per_s_uncompressed,
      Math.round(rss / 1024), (u + sy).toFixed(2), "-", j.active_parts, j.merges ?? "-", process.argv[8], j.seconds, le, ds].join("\t"));' "$j" "$1" "$l" "$(echo "$t1 - $t0" | bc)" "$(cat "$OUT/chdb.time")" "$(load)" "$DATASET" \
    "$(cat "$OUT/chdb-r$1.threads.txt" 2>/dev/null || echo -)")"
}

warm_rows() {  # side round p load -> results.tsv lines, from the WARM lines of stdin (one per run)
  local line
  while read -r _ line; do
    emit "$(node -e '
      const j = JSON.parse(process.argv[1]); const [side, r, p, l, le, ds] = process.argv.slice(2);
      const s = j.summary ?? j; const chdb = side === "chdb";
      const roles = chdb ? "-" : `jit=${j.jit_s} gc=${j.gc_s} other=${(j.cpu_s - j.jit_s - j.gc_s).toFixed(2)}`;
      console.log([`${r}.${j.run}`, side, p, l, s.rows, s.seconds, j.wall_s.toFixed(2), s.rows_per_s,
        chdb ? s.mb_per_s_uncompressed : (s.bytes_uncompressed / 1e6 / s.seconds).toFixed(1), j.rss_mb, j.cpu_s.toFixed(2),
        chdb ? "-" : s.parts_written, s.active_parts, chdb ? "-" : s.merges, roles,
        chdb ? s.seconds : (s.insert_seconds ?? "-"), le, ds].join("\t"));' "$line" "$1" "$2" "$3" "$4" "$(load)" "$DATASET")"
  done
}

run_chdb_warm() {  # round: one chDB process, WARM INSERTs
  local l; l=$(load)
  /usr/bin/time -f '%M %U %S' -o "$OUT/chdb.time" "${CHDB_NODE[@]}" "$CHDB_SCRIPT" "$DDL" \
      "s3('$EP/bucket/$PREFIX/*.$EXT', '$KEY', '$SECRET', '$FORMAT')" "$WARM" "$CHDB_SETTINGS" > "$OUT/chdb-$1.out" \
    || { echo "chDB's ingest failed" >&2; exit 1; }
  grep '^WARM ' "$OUT/chdb-$1.out" | warm_rows chdb "$1" - "$l"
}

# as ./s3-mergetree does: a class-data sharing archive per build, from a small training run
# (tools/write-cds-archive.sh), beside the build's jars; CDS=0 runs without one
cds_opts() {  # classpath [CDS] [java] -> JVM options (an AOT cache on JDK 25+, tools/write-cds-archive.sh)
  [ "${2:-${CDS:-1}}" = 1 ] || return 0
  local jv="${3:-java}" feature archive
  feature="$(java_feature "$jv")"
  archive="$(dirname "${1%%:*}")/s3-mergetree-jdk$feature.jsa"
  if [ ! -f "$archive" ]; then
    echo "writing the class-data sharing archive $archive (training run, JDK $feature)" >&2
    # shellcheck disable=SC2086
    AOT_CACHE=1 JAVA="$jv" tools/write-cds-archive.sh "$1" "$archive" $JAVA_OPTS >&2 || return 0
    age_deleted_inodes  # its training run deleted a table
  fi
  if [ "$feature" -ge 25 ]; then echo "-XX:AOTCache=$archive -Xlog:aot=off -Xlog:cds=off"
  else echo "-XX:SharedArchiveFile=$archive -Xlog:cds=off -Xlog:cds+dynamic=off"; fi
}
java_feature() { "$1" -version 2>&1 | head -1 | sed -E 's/.*version "([0-9]+).*/\1/'; }

run_ours() {  # round parallelism [side classpath]
  local side="${3:-ours}" cp="${4:-$CP}" opts="$COMMAND_JVM_OPTS $JAVA_OPTS"
  local settings="$SETTINGS" args="${OURS_ARGS:-}"
  if [ "$side" = base ]; then
    opts="${BASE_COMMAND_JVM_OPTS-$COMMAND_JVM_OPTS} ${BASE_JAVA_OPTS-$JAVA_OPTS}"; settings="${BASE_SETTINGS-$SETTINGS}"; args="${BASE_ARGS-${OURS_ARGS:-}}"
  fi
  local cds="${CDS:-1}"; if [ "$side" = base ]; then cds="${BASE_CDS:-$cds}"; fi
  local jv="${JAVA_BIN:-java}"; if [ "$side" = base ]; then jv="${BASE_JAVA_BIN:-$jv}"; fi
  opts="$opts $(cds_opts "$cp" "$cds" "$jv")"
  local table="$OUT/table-r$1-p$2"; [ "$side" = ours ] || table="$OUT/table-r$1-p$2-$side"; discard "$table"
  local table_path="$table"
  if [ "$side" = s3 ]; then
    # on the S3 API server: its objects are the files of $data/tables/<name> (filesystem store)
    table="$data/tables/table-r$1-p$2"; discard "$table"; table_path="s3://tables/table-r$1-p$2"
    opts="$opts -Ds3mergetree.plugins.dir=$root/cli/target/plugins"
  fi
  local jfr=""
  if [ "$PROFILE" = 1 ] && [ "$2" = 2 ] && [ ! -f "$OUT/ingest-p2.jfr" ]; then
    jfr="-XX:StartFlightRecording=filename=$OUT/ingest-p2.jfr,settings=profile"
  fi
  if [ -n "${ASYNC_PROFILER:-}" ] && [ "$side" = ours ] && [ "$2" = "${PROFILE_P:-2}" ] && [ ! -f "$OUT/ingest-p$2.collapsed" ]; then
    # async-profiler (libasyncProfiler.so of tools.profiler:async-profiler), every thread, collapsed stacks
    jfr="$jfr -agentpath:$ASYNC_PROFILER=start,event=${PROFILE_EVENT:-cpu},interval=${PROFILE_INTERVAL:-1ms},threads,collapsed,file=$OUT/ingest-p$2.collapsed"
  fi
  local extra=(); for s in $settings; do extra+=(--setting "$s"); done
  # shellcheck disable=SC2206
  extra+=($args)
  settle_fs
  local l; l=$(load)
  vmstat_begin
  local t0 t1; t0=$(date +%s.%N)
  # WARM: the same command WARM times in one JVM (tools/bench/WarmIngest.java), run i into "$table-w<i>"
  local launcher=(io.github.s3mergetree.cli.S3MergeTreeCommand)
  if [ -n "$WARM" ]; then launcher=(tools/bench/WarmIngest.java "$WARM" --); discard "$table"-w*; table_path="$table-w{run}"; fi
  # shellcheck disable=SC2086
  /usr/bin/time -f '%M %U %S' -o "$OUT/ours.time" "$jv" --add-opens=java.base/java.nio=ALL-UNNAMED $opts $jfr -cp "$cp" \
    "${launcher[@]}" ingest \
    --source "s3://bucket/$PREFIX/*.$EXT" --format "$FORMAT" --table-ddl-file "$DDL" --table-path "$table_path" \
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
  vmstat_end "$OUT/$side-r$1-p$2.vmstat"
  if [ -n "$WARM" ]; then
    grep '^WARM ' "$OUT/$side-r$1-p$2.out" | warm_rows "$side" "$1" "$2" "$l"
    # only the last round's last run is compared with chDB's table
    if [ "$1" = "$ROUNDS" ]; then mv "$table-w$WARM" "$table"; fi
    discard "$table"-w*
    return
  fi
  local j; j=$(grep '^{' "$OUT/$side-r$1-p$2.out" | tail -1)
  emit "$(node -e '
    const j = JSON.parse(process.argv[1]); const [r, p, l, w, t] = process.argv.slice(2); const [rss, u, sy] = t.trim().split(/\s+/).map(Number);
    console.log([r, process.argv[7], p, l, j.rows, j.seconds, (+w).toFixed(2), j.rows_per_s,
      (j.bytes_uncompressed / 1e6 / j.seconds).toFixed(1), Math.round(rss / 1024), (u + sy).toFixed(2), j.parts_written, j.active_parts, j.merges,
      process.argv[8], j.insert_seconds ?? "-", process.argv[9], process.argv[10]].join("\t"));' \
    "$j" "$1" "$2" "$l" "$(echo "$t1 - $t0" | bc)" "$(cat "$OUT/ours.time")" "$side" \
    "$(cat "$OUT/$side-r$1-p$2.threads.txt" 2>/dev/null || echo -)" "$(load)" "$DATASET")"
  # only the last round's tables are compared with chDB's: drop the others (1.2 GB each)
  if [ "$1" != "$ROUNDS" ]; then discard "$table"; fi
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; ours: $("${JAVA_BIN:-java}" -version 2>&1 | head -1)${BASE_SNAPSHOT:+; base: $("${BASE_JAVA_BIN:-${JAVA_BIN:-java}}" -version 2>&1 | head -1)}" >&2
cat "$OUT/results.tsv"
run_ours_all() {  # round
  for p in $PARALLELISMS; do
    if [ "$TABLE_STORE" != s3 ]; then run_ours "$1" "$p"; fi
    if [ "$TABLE_STORE" != local ]; then run_ours "$1" "$p" s3 "$CP"; fi
    if [ -n "$BASE_CP" ]; then run_ours "$1" "$p" base "$BASE_CP"; fi
  done
}
run_chdb_unless_skipped() { if [ "${CHDB:-1}" = 1 ]; then run_chdb "$1"; fi; }
# whatever was deleted before this benchmark (an earlier one's tables) is no longer recent in the first round
age_deleted_inodes
for r in $(seq "$ROUNDS"); do
  empty_trash
  if [ "$ORDER" = ours-first ] || { [ "$ORDER" = alternate ] && [ $((r % 2)) = 0 ]; }; then
    run_ours_all "$r"; run_chdb_unless_skipped "$r"
  else
    run_chdb_unless_skipped "$r"; run_ours_all "$r"
  fi
  if [ -n "$WARM" ]; then
    for i in $(seq "$WARM"); do node tools/bench/ingest-summary.js "$OUT/results.tsv" --round "$r.$i"; done
  else
    node tools/bench/ingest-summary.js "$OUT/results.tsv" --round "$r"
  fi
done

# correctness: our tables (the last round's) against chDB's INSERT … SELECT of the same objects
tables=()
for p in $PARALLELISMS; do
  if [ "$TABLE_STORE" != s3 ]; then tables+=("$OUT/table-r$ROUNDS-p$p"); fi
  if [ "$TABLE_STORE" != local ]; then tables+=("$data/tables/table-r$ROUNDS-p$p"); fi
done
node tools/bench/ingest-compare.js "$DDL" "file('$data/bucket/$PREFIX/*.$EXT', '$FORMAT')" "${tables[@]}" | tee "$OUT/compare.jsonl"

# summary: per-round ratios, medians over the rounds, rounds ≥ 1.0, best of rounds
node tools/bench/ingest-summary.js "$OUT/results.tsv" | tee "$OUT/summary.txt"
}
main "$@"; exit $?
