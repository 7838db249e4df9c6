#!/usr/bin/env bash
# Writes the s3-mergetree command's classpath (the cli module's compile and runtime dependencies,
# no test-scoped artifacts) to FILE, resolved from the local Maven repository: run it after `mvn install`.
#   tools/cli-classpath.sh FILE [MAVEN_ARGS...]     (e.g. -o for offline)
# Used by ./s3-mergetree. The scope filter is maven-dependency-plugin's user property `includeScope`:
# `-Dmdep.includeScope` (used here before 2026-12-07) is no property of the plugin and was ignored without
# a word, so every test jar (JUnit, Testcontainers, Flink's test utilities, log4j2-test.properties) was on
# the command's classpath, and Log4j took its test configuration (logging to stdout).
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 FILE [MAVEN_ARGS...]" >&2; exit 2; }
out="$1"; shift
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# never leave an old file behind: the plugin keeps an existing file whose content it thinks current
rm -f "$out"
(cd "$root/cli" && mvn -q -B "$@" dependency:build-classpath -Dmdep.outputFile="$out" -DincludeScope=runtime)
if [[ ! -s "$out" ]]; then
  echo "cli-classpath: Maven wrote no classpath to $out" >&2
  exit 1
fi
test_artifacts="$(tr ':' '\n' < "$out" | grep -e '-tests\.jar$' -e '/junit/' || true)"
if [[ -n "$test_artifacts" ]]; then
  echo "cli-classpath: test artifacts on the command's classpath ($out): $(head -3 <<< "$test_artifacts" | tr '\n' ' ')" >&2
  exit 1
fi
