#!/usr/bin/env bash
# Prints the JVM options of the s3-mergetree command, one per line: those of tools/s3-mergetree-jvm.options
# (each with the measurement behind it) and those that depend on the machine it runs on. Read by
# ./s3-mergetree and by tools/bench/ingest-bench.sh, so the benchmark measures what the command runs.
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
grep -v -e '^#' -e '^[[:space:]]*$' "$dir/s3-mergetree-jvm.options"
# One parallel GC worker where the machine has 2 CPUs (G1 picks 2 there; with 1 CPU it picks 1 itself).
# Measured on 2 cores, A/B of the same classes, 6 rounds each (BENCHMARKS.md, Issue 20, night): the
# process's CPU 3-10 % lower (lower in 15 of 18 same-round pairs: posts in both orders, csv), job time
# unchanged within the noise. Not on larger machines: there one worker would lengthen every pause of a
# multi-GiB heap while all application threads wait.
if [ "$(nproc 2>/dev/null || echo 0)" -eq 2 ]; then
  echo "-XX:ParallelGCThreads=1"
fi
