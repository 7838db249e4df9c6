#!/usr/bin/env bash
# Writes a class-data sharing archive (AppCDS, JDK 13+ dynamic archive) for the s3-mergetree command:
# runs a small `demo` (local S3 API server, Parquet objects, an ingest on an embedded MiniCluster) with
# -XX:ArchiveClassesAtExit, so the classes that a run of the command loads are stored parsed, verified
# and linked. JVMs started with -XX:SharedArchiveFile=ARCHIVE then map them instead of loading them
# from ~250 jars: about half of the JVM + MiniCluster start-up and a third of the JIT work go away.
# The archive is valid for exactly this classpath (jar paths, sizes and times) and JVM; a JVM that
# cannot use it runs without it.
#   tools/write-cds-archive.sh CLASSPATH ARCHIVE [java options...]
# CLASSPATH must consist of jars only (CDS does not archive classes from directories).
# JAVA (default: java on the PATH) is the JVM that will use the archive. AOT_CACHE=1 on JDK 25 and later
# writes an AOT cache instead (JEP 483/514/515: -XX:AOTCacheOutput; used with -XX:AOTCache=ARCHIVE): the
# classes loaded and linked ahead of time and the training run's method profiles. Measured on the 2.4M-row
# posts ingest (BENCHMARKS.md, issue 20): no less CPU than JDK 17 with this script's AppCDS archive, so
# ./s3-mergetree does not ask for it; tools/bench/ingest-bench.sh does when JAVA_BIN is a JDK 25.
set -euo pipefail
cp="$1"; archive="$2"; shift 2
JAVA="${JAVA:-java}"
feature="$("$JAVA" -version 2>&1 | head -1 | sed -E 's/.*version "([0-9]+).*/\1/')"
work="$(mktemp -d "${TMPDIR:-/tmp}/s3-mergetree-cds.XXXXXX")"
trap 'rm -rf "$work"' EXIT
record=(-XX:ArchiveClassesAtExit="$work/archive.jsa")
if [ "${AOT_CACHE:-0}" = 1 ] && [ "$feature" -ge 25 ] 2>/dev/null; then record=(-XX:AOTCacheOutput="$work/archive.jsa" -Xlog:aot=off -Xlog:cds=off); fi
if "$JAVA" --add-opens=java.base/java.nio=ALL-UNNAMED "$@" "${record[@]}" \
    -cp "$cp" io.github.s3mergetree.cli.S3MergeTreeCommand demo \
    --rows 20000 --files 2 --parallelism 2 --work-dir "$work/demo" >"$work/log" 2>&1 \
    && [ -s "$work/archive.jsa" ]; then
  mv -f "$work/archive.jsa" "$archive"
else
  echo "write-cds-archive: the training run failed; continuing without an archive (log below)" >&2
  tail -20 "$work/log" >&2
  exit 1
fi
