#!/usr/bin/env bash
# The write-path benchmark (issue: engine part writer): JMH on our part writer beside chDB
# inserting the same rows into the same MergeTree table, one core each. Prints MB/s and the ratio.
# Not part of the test run. Usage: tools/bench/write-bench.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bash tools/install-test-engines.sh
mvn -q -B -pl engine -am install -DskipTests -Dinstall.engines.skip=true
mvn -q -B -pl engine test-compile exec:exec -Dinstall.engines.skip=true \
  -Dexec.executable=java -Dexec.classpathScope=test \
  -Dexec.args="-Xmx8g -cp %classpath io.github.s3mergetree.engine.bench.WriteBenchmarkMain $root"
