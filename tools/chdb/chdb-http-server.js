#!/usr/bin/env node
// chdb-http-server.js: chDB (embedded ClickHouse 26.x) behind the subset of ClickHouse's HTTP
// interface that this project's delivery client uses, so tests can deliver parts into a "live
// ClickHouse server" without installing one.
//
//   node chdb-http-server.js SESSION_DIR [--port N] [--user NAME] [--password SECRET]
//
// Listens on 127.0.0.1 only (port 0 = a free port) and prints one line {"port": N} on stdout once
// it accepts connections. Diagnostics go to stderr. It exits on SIGTERM/SIGINT or when stdin
// closes (so a test JVM that dies takes the server with it), closing the chDB session first.
//
// What it speaks (as ClickHouse's own HTTP handler does):
//   - GET or POST on / : the query in the `query` URL parameter, or the POST body, or both
//     (then the body follows the parameter's text after a newline, as the data of an INSERT);
//   - `database` (the current database of the query), `default_format` (TabSeparated unless the
//     query has a FORMAT clause), `query_id` (echoed in X-ClickHouse-Query-Id);
//   - credentials: HTTP basic auth, or X-ClickHouse-User / X-ClickHouse-Key headers, or the
//     `user` / `password` URL parameters; without any, the user is `default` with an empty
//     password. A wrong user or password is Code 516 (AUTHENTICATION_FAILED), HTTP 401;
//   - responses are uncompressed unless the request says `enable_http_compression=1` and
//     `Accept-Encoding: gzip`;
//   - errors: a non-200 status, the header X-ClickHouse-Exception-Code and the body
//     "Code: N. DB::Exception: ..." (HTTP status by code as ClickHouse maps them: 400 for syntax
//     and bad arguments, 401/403 for authentication, 404 for unknown tables and databases, 500
//     otherwise);
//   - GET /ping answers "Ok.\n".
// Other URL parameters (ClickHouse settings) are refused with Code 115 (UNKNOWN_SETTING) rather
// than silently ignored. Queries run one at a time, in arrival order, in one chDB session whose
// databases persist under SESSION_DIR.
'use strict';

const http = require('http');
const path = require('path');
const zlib = require('zlib');

const KNOWN_PARAMS = new Set([
    'query', 'database', 'default_format', 'query_id', 'user', 'password',
    'enable_http_compression', 'wait_end_of_query',
]);

function parseArgs(argv) {
    const opts = { sessionDir: null, port: 0, user: 'default', password: '' };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--port') opts.port = Number(argv[++i]);
        else if (a === '--user') opts.user = argv[++i];
        else if (a === '--password') opts.password = argv[++i];
        else if (!opts.sessionDir) opts.sessionDir = a;
        else throw new Error('unexpected argument ' + a);
    }
    if (!opts.sessionDir) throw new Error('usage: node chdb-http-server.js SESSION_DIR [--port N] [--user U] [--password P]');
    return opts;
}

// ClickHouse's HTTP status for an exception code (HTTPHandler's exceptionCodeToHTTPStatus, abridged).
function httpStatus(code) {
    switch (code) {
        case 516: return 401; // AUTHENTICATION_FAILED
        case 192: case 193: case 194: case 195: case 196: case 497: return 403; // unknown user, wrong password, access denied
        case 62: case 36: case 115: case 6: case 27: case 53: case 46: case 47: return 400;
        case 60: case 81: case 73: return 404; // UNKNOWN_TABLE, UNKNOWN_DATABASE, UNKNOWN_FORMAT
        case 159: return 504; // TIMEOUT_EXCEEDED
        default: return 500;
    }
}

function errorCode(message) {
    const m = /Code: (\d+)\./.exec(message);
    return m ? Number(m[1]) : 1000; // POCO_EXCEPTION-like: no code in the message
}

function contentTypeFor(format) {
    const f = (format || '').toLowerCase();
    if (f.startsWith('json')) return 'application/json; charset=UTF-8';
    if (f.startsWith('tabseparated') || f.startsWith('tsv')) return 'text/tab-separated-values; charset=UTF-8';
    if (f.startsWith('csv')) return 'text/csv; charset=UTF-8; header=absent';
    return 'text/plain; charset=UTF-8';
}

function quoteIdentifier(name) {
    return '`' + String(name).replace(/\\/g, '\\\\').replace(/`/g, '\\`') + '`';
}

function credentials(req, url) {
    let user = null;
    let password = null;
    const auth = req.headers['authorization'];
    if (auth && auth.startsWith('Basic ')) {
        const decoded = Buffer.from(auth.substring(6), 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        user = colon < 0 ? decoded : decoded.substring(0, colon);
        password = colon < 0 ? '' : decoded.substring(colon + 1);
    }
    if (req.headers['x-clickhouse-user'] !== undefined) {
        if (user !== null) return { conflict: true };
        user = req.headers['x-clickhouse-user'];
        password = req.headers['x-clickhouse-key'] || '';
    }
    if (url.searchParams.has('user')) {
        if (user !== null) return { conflict: true };
        user = url.searchParams.get('user');
        password = url.searchParams.get('password') || '';
    }
    return { user: user === null ? 'default' : user, password: password === null ? '' : password };
}

function main() {
    let opts;
    try {
        opts = parseArgs(process.argv.slice(2));
    } catch (e) {
        process.stderr.write('chdb-http-server: ' + e.message + '\n');
        process.exit(2);
    }
    let Session;
    try {
        ({ Session } = require(path.join(__dirname, 'node_modules', 'chdb')));
    } catch (e) {
        process.stderr.write('chdb-http-server: cannot load the npm package chdb from ' + __dirname +
            ' (run tools/install-test-engines.sh): ' + e.message + '\n');
        process.exit(3);
    }
    let session;
    try {
        session = new Session(path.resolve(opts.sessionDir));
    } catch (e) {
        process.stderr.write('chdb-http-server: cannot open a chDB session at ' + opts.sessionDir + ': ' + e.message + '\n');
        process.exit(4);
    }

    // One query at a time: a chDB session is one connection.
    let queue = Promise.resolve();
    function serialized(fn) {
        const next = queue.then(fn, fn);
        queue = next.catch(() => {});
        return next;
    }

    async function run(sql, database, format) {
        await session.queryAsync('USE ' + quoteIdentifier(database), { format: 'TabSeparated' });
        try {
            if (/^\s*INSERT\b/i.test(sql)) {
                // chDB's asynchronous call refuses an INSERT with inline data ("async inserts with
                // both inlined and external data"); an INSERT returns nothing, so text is safe
                return Buffer.from(String(session.query(sql, format) || ''), 'utf8');
            }
            const result = await session.queryAsync(sql, { format });
            return Buffer.from(result.bytes());
        } finally {
            try {
                await session.queryAsync('USE default', { format: 'TabSeparated' });
            } catch (e) {
                // the default database always exists; nothing to restore otherwise
            }
        }
    }

    function fail(res, queryId, code, message) {
        const body = Buffer.from((message.startsWith('Code: ') ? message : 'Code: ' + code + '. DB::Exception: ' + message) + '\n', 'utf8');
        res.writeHead(httpStatus(code), {
            'Content-Type': 'text/plain; charset=UTF-8',
            'X-ClickHouse-Exception-Code': String(code),
            'X-ClickHouse-Query-Id': queryId,
            'Content-Length': body.length,
        });
        res.end(body);
    }

    let nextQueryId = 1;
    const server = http.createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
            const url = new URL(req.url, 'http://127.0.0.1');
            const queryId = url.searchParams.get('query_id') || ('chdb-http-' + process.pid + '-' + nextQueryId++);
            if (url.pathname === '/ping') {
                res.writeHead(200, { 'Content-Type': 'text/plain; charset=UTF-8' });
                res.end('Ok.\n');
                return;
            }
            if (url.pathname !== '/') {
                fail(res, queryId, 1000, 'There is no handle ' + url.pathname);
                return;
            }
            if (req.method !== 'GET' && req.method !== 'POST') {
                fail(res, queryId, 1000, 'Method ' + req.method + ' is not supported');
                return;
            }
            for (const key of url.searchParams.keys()) {
                if (!KNOWN_PARAMS.has(key)) {
                    fail(res, queryId, 115, 'Setting ' + key + ' is not supported by chdb-http-server');
                    return;
                }
            }
            const cred = credentials(req, url);
            if (cred.conflict) {
                fail(res, queryId, 194, 'Credentials are given in more than one way (basic auth, X-ClickHouse-User, user parameter)');
                return;
            }
            if (cred.user !== opts.user || cred.password !== opts.password) {
                fail(res, queryId, 516, cred.user + ': Authentication failed: password is incorrect, or there is no user with such name.');
                return;
            }
            const body = Buffer.concat(chunks).toString('utf8');
            const param = url.searchParams.get('query');
            let sql;
            if (param !== null && body.length > 0) sql = param + '\n' + body;
            else if (param !== null) sql = param;
            else sql = body;
            if (sql.trim() === '') {
                fail(res, queryId, 62, 'Empty query');
                return;
            }
            const database = url.searchParams.get('database') || 'default';
            const format = url.searchParams.get('default_format') || 'TabSeparated';
            const compress = url.searchParams.get('enable_http_compression') === '1'
                && /\bgzip\b/.test(req.headers['accept-encoding'] || '');
            serialized(() => run(sql, database, format)).then((out) => {
                const headers = {
                    'Content-Type': contentTypeFor(format),
                    'X-ClickHouse-Query-Id': queryId,
                    'X-ClickHouse-Format': format,
                };
                if (compress) {
                    out = zlib.gzipSync(out);
                    headers['Content-Encoding'] = 'gzip';
                }
                headers['Content-Length'] = out.length;
                res.writeHead(200, headers);
                res.end(out);
            }, (e) => {
                const message = e && e.message ? e.message : String(e);
                fail(res, queryId, errorCode(message), message.trim());
            });
        });
    });

    function shutdown() {
        server.close();
        try {
            session.close();
        } catch (e) {
            process.stderr.write('chdb-http-server: closing the session failed: ' + e.message + '\n');
        }
        process.exit(0);
    }
    process.on('SIGTERM', shutdown);
    process.on('SIGINT', shutdown);
    process.stdin.on('end', shutdown);
    process.stdin.on('close', shutdown);
    process.stdin.resume();

    server.listen(opts.port, '127.0.0.1', () => {
        process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
    });
}

main();
