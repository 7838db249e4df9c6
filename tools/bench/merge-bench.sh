#!/usr/bin/env bash
# The merge benchmark: our merge of 10 parts beside chDB OPTIMIZE FINAL of the same
# parts (attached), one merge each. Prints MB/s and the ratio, and writes
# engine/target/merge-bench.txt. Not part of the test run. Usage: tools/bench/merge-bench.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bash tools/install-test-engines.sh
mvn -q -B -pl engine test-compile -Dinstall.engines.skip=true
mvn -q -B -pl engine dependency:build-classpath -DincludeScope=test -Dmdep.outputFile=target/bench.cp \
  -Dinstall.engines.skip=true >/dev/null
# run from a private copy of the classes, so a concurrent build cannot change them mid-run
snapshot="$(mktemp -d)"
trap 'rm -rf "$snapshot"' EXIT
cp -r engine/target/classes "$snapshot/classes"
cp -r engine/target/test-classes "$snapshot/test-classes"
if [ ! -f engine/target/bench-data/posts.native ]; then node tools/bench/prepare-write-bench.js engine/target/bench-data; fi
java -Xmx8g -cp "$snapshot/test-classes:$snapshot/classes:$(cat engine/target/bench.cp)" \
  -Dchdb.dir="$root/tools/chdb" io.github.s3mergetree.engine.bench.MergeBenchmarkMain "$root"
