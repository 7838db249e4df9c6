#!/usr/bin/env node
// chdb-server.js: a long-running chDB (embedded ClickHouse) process for the Java tests.
//
// The Java test harness (engine test class io.github.s3mergetree.engine.testing.ChDb) starts
//   node chdb-server.js SESSION_DIR
// and uses it to let a real ClickHouse engine judge the MergeTree parts this project writes
// (ATTACH PART, CHECK TABLE, SELECT). One process serves one chDB Session whose databases persist
// under SESSION_DIR; starting it once per test class is much cheaper than once per query.
//
// Protocol (UTF-8, one JSON object per line):
//   stdin : {"id": 1, "sql": "SELECT 1", "format": "TSV"}      (format defaults to TSV)
//   stdout: @@chdb@@{"id": 1, "ok": true, "result": "1\n"}
//           @@chdb@@{"id": 1, "ok": false, "error": "Query failed: Code: 60. DB::Exception: ..."}
// Requests are answered one at a time, in order. Every response line starts with the marker
// @@chdb@@ and is preceded by a newline, so output that the native engine writes to stdout by
// itself can never be mistaken for (or glued onto) a response: the reader skips lines without the
// marker. Diagnostics go to stderr. The process exits when stdin closes (the session is closed
// first), so a test that closes the harness leaves nothing behind.
//
// Relative paths in file(), INTO OUTFILE etc. resolve against this process's working directory;
// absolute paths anywhere are allowed (chDB does not confine file() to user_files_path).
'use strict';

const path = require('path');
const readline = require('readline');

const MARKER = '@@chdb@@';

function respond(obj) {
    // Pipes are synchronous on Linux, so each response is fully written before the next query.
    process.stdout.write('\n' + MARKER + JSON.stringify(obj) + '\n');
}

function main() {
    const sessionDir = process.argv[2];
    if (!sessionDir) {
        process.stderr.write('usage: node chdb-server.js SESSION_DIR\n');
        process.exit(2);
    }
    let Session;
    try {
        ({ Session } = require(path.join(__dirname, 'node_modules', 'chdb')));
    } catch (e) {
        process.stderr.write(
            'chdb-server: cannot load the npm package chdb from ' + __dirname +
            ' (run tools/install-test-engines.sh): ' + e.message + '\n');
        process.exit(3);
    }
    let session;
    try {
        session = new Session(path.resolve(sessionDir));
    } catch (e) {
        process.stderr.write('chdb-server: cannot open a chDB session at ' + sessionDir + ': ' + e.message + '\n');
        process.exit(4);
    }

    const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
    rl.on('line', (line) => {
        if (line.trim() === '') {
            return;
        }
        let req;
        try {
            req = JSON.parse(line);
        } catch (e) {
            respond({ id: null, ok: false, error: 'chdb-server: malformed request line: ' + e.message });
            return;
        }
        const id = req.id === undefined ? null : req.id;
        if (typeof req.sql !== 'string') {
            respond({ id, ok: false, error: 'chdb-server: request has no "sql" string' });
            return;
        }
        try {
            const result = session.query(req.sql, typeof req.format === 'string' ? req.format : 'TSV');
            respond({ id, ok: true, result: result === undefined || result === null ? '' : String(result) });
        } catch (e) {
            respond({ id, ok: false, error: e && e.message ? e.message : String(e) });
        }
    });
    rl.on('close', () => {
        try {
            session.close();
        } catch (e) {
            process.stderr.write('chdb-server: closing the session failed: ' + e.message + '\n');
        }
        process.exit(0);
    });
}

main();
