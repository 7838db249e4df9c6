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
set -euo pipefail
cp="$1"; archive="$2"; shift 2
work="$(mktemp -d "${TMPDIR:-/tmp}/s3-mergetree-cds.XXXXXX")"
trap 'rm -rf "$work"' EXIT
if java --add-opens=java.base/java.nio=ALL-UNNAMED "$@" -XX:ArchiveClassesAtExit="$work/archive.jsa" \
    -cp "$cp" io.github.s3mergetree.examples.cli.S3MergeTreeCommand demo \
    --rows 20000 --files 2 --parallelism 2 --work-dir "$work/demo" >"$work/log" 2>&1 \
    && [ -s "$work/archive.jsa" ]; then
  mv -f "$work/archive.jsa" "$archive"
else
  echo "write-cds-archive: the training run failed; continuing without an archive (log below)" >&2
  tail -20 "$work/log" >&2
  exit 1
fi
