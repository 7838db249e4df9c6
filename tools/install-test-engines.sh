#!/usr/bin/env bash
# Installs the real ClickHouse engines that judge the parts this project writes:
#  - chDB (npm package `chdb`, ClickHouse 26.x) into tools/chdb/node_modules;
#  - ClickHouse 18.16 (Debian package `clickhouse-server`), the old judge of the portable profile;
#  - pyarrow, pandas and duckdb (pip, pinned in tools/realworld/requirements.txt) into the venv
#    tools/pyenv: the writers of the real-world file suite (tools/realworld/generate.py);
#  - libdeflate (Debian package `libdeflate0`), opened by the S3 source's native gzip path.
# Idempotent and quick when both are present. Called by the Maven build before tests and by .ci/run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [ ! -f "$root/tools/chdb/node_modules/@chdb/lib-linux-x64-gnu/package.json" ] \
   || [ ! -f "$root/tools/chdb/node_modules/chdb/package.json" ]; then
  command -v npm >/dev/null || { echo "install-test-engines: npm (Node.js) is required for chDB" >&2; exit 1; }
  echo "install-test-engines: installing chDB (npm, ~550 MB) into tools/chdb" >&2
  (cd "$root/tools/chdb" && npm install --no-package-lock --no-audit --no-fund --loglevel=error)
fi

if ! command -v clickhouse-server >/dev/null && ! [ -x /usr/bin/clickhouse ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "install-test-engines: installing Debian's clickhouse-server (ClickHouse 18.16)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    # policy-rc.d keeps the package from starting a system-wide server; tests start their own on loopback.
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    apt-get install -y -qq --no-install-recommends clickhouse-server clickhouse-client >/dev/null
    rm -f /usr/sbin/policy-rc.d
  else
    echo "install-test-engines: clickhouse-server (18.16) is missing and cannot be installed without root + apt-get" >&2
    exit 1
  fi
fi

# libdeflate (Debian's libdeflate0), which the S3 source's native gzip path opens at run time; its
# tests assert that the binding loads on Linux x86-64 (without it, gzip falls back to the JDK).
if [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] && ! ldconfig -p 2>/dev/null | grep -q 'libdeflate\.so\.0'; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "install-test-engines: installing Debian's libdeflate0" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends libdeflate0 >/dev/null
  else
    echo "install-test-engines: libdeflate0 is missing and cannot be installed without root + apt-get" >&2
    exit 1
  fi
fi

venv="$root/tools/pyenv"
# find_spec: present without importing them (quick on every build)
if ! "$venv/bin/python" -c 'import importlib.util as u, sys; sys.exit(not all(u.find_spec(m) for m in ("pyarrow", "pandas", "duckdb")))' >/dev/null 2>&1; then
  command -v python3 >/dev/null || { echo "install-test-engines: python3 is required for the real-world file suite (pyarrow, pandas, duckdb)" >&2; exit 1; }
  echo "install-test-engines: installing pyarrow, pandas and duckdb (pip) into tools/pyenv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check --retries 2 -r "$root/tools/realworld/requirements.txt"
  "$venv/bin/python" -c 'import pyarrow, pandas, duckdb' \
    || { echo "install-test-engines: pyarrow, pandas or duckdb did not install into tools/pyenv" >&2; exit 1; }
fi
