package io.github.s3mergetree.engine.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real ClickHouse engine for tests: chDB (the npm package {@code chdb}, ClickHouse 26.x) running
 * in a child {@code node} process, driven over a line protocol by {@code
 * tools/chdb/chdb-server.js}.
 *
 * <p>Why: the parts our engine writes are only right if ClickHouse itself accepts them. Tests write
 * a part, {@link #attachPart attach} it to a table here, then {@link #assertCheckTablePasses CHECK}
 * and query it. One instance owns one chDB session whose databases persist under the session
 * directory; a start-up costs roughly half a second, so share an instance across the tests of a
 * class where practical. Statements run one at a time; the methods are thread-safe.
 *
 * <p>Locating chDB: the system property {@code chdb.dir} (surefire sets it to {@code tools/chdb} of
 * the project root), else the first {@code tools/chdb} found walking up from the working directory.
 * If chDB is not installed {@link #start} <em>fails</em> (it never skips, so a CI run without the
 * engine cannot pass silently): run {@code tools/install-test-engines.sh}. The {@code node}
 * executable is taken from {@code PATH} unless the system property {@code chdb.node} names it.
 *
 * <p>Files ({@code file()}, {@code INTO OUTFILE}): chDB does not confine {@code file()} to a
 * user-files directory. <b>Absolute paths work anywhere</b> the process may read or write (the
 * {@code user_files_path} server setting reports {@code /var/lib/clickhouse/user_files/} but is not
 * enforced), and relative paths resolve against the chDB process's working directory, which this
 * harness sets to {@link #userFilesDir()} ({@code <session dir>/user_files}). So both {@code SELECT
 * ... INTO OUTFILE '/abs/x.bin' FORMAT RowBinary} and {@code file('x.bin', RowBinary, 'a UInt32')}
 * (meaning {@code userFilesDir().resolve("x.bin")}) work. {@code INTO OUTFILE} refuses an existing
 * file unless the statement says {@code APPEND} or {@code TRUNCATE}. Exchange binary data through
 * files: {@link #query} results travel as text (UTF-8), so a binary output format would be mangled.
 *
 * <p>Failures: a statement ClickHouse rejects throws {@link ChDbException} with the SQL and
 * ClickHouse's message. Each request has a timeout (default {@link #DEFAULT_TIMEOUT}); when it
 * expires the process is killed and the request (and every later one) fails, so a hung engine fails
 * the test instead of hanging CI. {@link #close()} ends the process and its descendants; if the JVM
 * dies without closing, the process still exits because its stdin closes.
 */
public final class ChDb implements AutoCloseable {

    /**
     * Settings under which {@code SELECT * FROM file(...)} returns a file's rows in file order, for
     * tests that compare ClickHouse's rows with ours row by row. Without them ClickHouse parses a
     * large text file in parallel and spreads the chunks it read over {@code max_threads} streams
     * ({@code parallelize_output_from_storages}), and a single-stream sink such as {@code INSERT
     * INTO FUNCTION file(...)} may receive them in another order from run to run (seen for a
     * 200,000-row CSV: two orders in 30 runs).
     */
    static final String FILE_ORDER_SETTINGS =
            "max_threads = 1, max_parsing_threads = 1, input_format_parquet_preserve_order = 1";

    /** How long one request may take unless {@link #start(Path, Duration)} says otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);

    private static final String MARKER = "@@chdb@@";
    private static final String INSTALL_HINT =
            "run tools/install-test-engines.sh (or `cd tools/chdb && npm ci`) to install chDB";
    private static final int DIAGNOSTIC_LINES = 200;
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(15);

    private final Path sessionDir;
    private final AtomicLong fileReads = new AtomicLong();
    private final Path userFilesDir;
    private final Duration timeout;
    private final Process process;
    private final List<ProcessHandle> descendantsAtStart;
    private final Writer stdin;
    private final BlockingQueue<Map<String, Object>> responses = new LinkedBlockingQueue<>();
    private final Deque<String> diagnostics = new ArrayDeque<>();
    private final Object requestLock = new Object();
    private long nextId = 1;
    private volatile boolean closed;
    private volatile String brokenReason;
    private String version;
    private Duration startupTime;

    private ChDb(Path sessionDir, Path userFilesDir, Duration timeout, Process process) {
        this.sessionDir = sessionDir;
        this.userFilesDir = userFilesDir;
        this.timeout = timeout;
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.descendantsAtStart = new ArrayList<>();
        startDaemon("chdb-stdout-" + process.pid(), this::readStdout);
        startDaemon("chdb-stderr-" + process.pid(), this::readStderr);
    }

    /**
     * Starts chDB with a session persisted under {@code sessionDir} (created if missing) and the
     * {@link #DEFAULT_TIMEOUT default request timeout}.
     *
     * @throws IllegalStateException if chDB or node is not installed, or the engine does not start
     */
    public static ChDb start(Path sessionDir) {
        return start(sessionDir, DEFAULT_TIMEOUT);
    }

    /**
     * Starts chDB with a session persisted under {@code sessionDir} (created if missing); every
     * request, the start-up included, must answer within {@code requestTimeout}.
     *
     * @throws IllegalStateException if chDB or node is not installed, or the engine does not start
     */
    public static ChDb start(Path sessionDir, Duration requestTimeout) {
        Objects.requireNonNull(sessionDir, "sessionDir");
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException(
                    "requestTimeout must be positive: " + requestTimeout);
        }
        long t0 = System.nanoTime();
        Path chdbDir = locateChDbDir();
        Path dir = sessionDir.toAbsolutePath().normalize();
        Path userFiles = dir.resolve("user_files");
        try {
            Files.createDirectories(userFiles);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the chDB session directory " + dir, e);
        }
        String node = System.getProperty("chdb.node", "node");
        ProcessBuilder pb =
                new ProcessBuilder(
                                node, chdbDir.resolve("chdb-server.js").toString(), dir.toString())
                        .directory(userFiles.toFile());
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "cannot run `"
                            + node
                            + "` (Node.js >= 18 is needed for chDB; put it on PATH or set"
                            + " -Dchdb.node): "
                            + e.getMessage(),
                    e);
        }
        ChDb db = new ChDb(dir, userFiles, requestTimeout, process);
        try {
            db.version = db.query("SELECT version()");
        } catch (RuntimeException e) {
            db.close();
            throw new IllegalStateException(
                    "chDB did not start from "
                            + chdbDir
                            + " with session "
                            + dir
                            + " ("
                            + INSTALL_HINT
                            + "): "
                            + e.getMessage(),
                    e);
        }
        db.descendantsAtStart.addAll(process.descendants().toList());
        db.startupTime = Duration.ofNanos(System.nanoTime() - t0);
        return db;
    }

    /**
     * The directory holding {@code chdb-server.js} and {@code node_modules/chdb}: the system
     * property {@code chdb.dir}, else {@code tools/chdb} found walking up from the working
     * directory.
     *
     * @throws IllegalStateException naming {@code tools/install-test-engines.sh} if chDB is not
     *     installed there
     */
    public static Path locateChDbDir() {
        String property = System.getProperty("chdb.dir");
        Path dir = null;
        if (property != null && !property.isBlank()) {
            dir = Path.of(property).toAbsolutePath().normalize();
        } else {
            for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
                Path candidate = d.resolve("tools").resolve("chdb");
                if (Files.isRegularFile(candidate.resolve("chdb-server.js"))) {
                    dir = candidate;
                    break;
                }
            }
            if (dir == null) {
                throw new IllegalStateException(
                        "chDB not found: no system property chdb.dir and no tools/chdb above "
                                + Path.of("").toAbsolutePath()
                                + "; "
                                + INSTALL_HINT);
            }
        }
        if (!Files.isRegularFile(dir.resolve("chdb-server.js"))) {
            throw new IllegalStateException(
                    "chDB harness script missing: "
                            + dir.resolve("chdb-server.js")
                            + " (is chdb.dir right?); "
                            + INSTALL_HINT);
        }
        if (!Files.isRegularFile(dir.resolve("node_modules/chdb/package.json"))) {
            throw new IllegalStateException(
                    "chDB is not installed in " + dir + " (no node_modules/chdb); " + INSTALL_HINT);
        }
        return dir;
    }

    /** The directory under which this session's databases persist. */
    public Path sessionDir() {
        return sessionDir;
    }

    /**
     * The chDB process's working directory ({@code <session dir>/user_files}): relative paths in
     * {@code file()} and {@code INTO OUTFILE} resolve here. Absolute paths work too, anywhere.
     */
    public Path userFilesDir() {
        return userFilesDir;
    }

    /** ClickHouse's {@code version()}, e.g. {@code 26.7.2.1}. */
    public String version() {
        return version;
    }

    /** How long {@link #start} took, from locating chDB to the first answer. */
    public Duration startupTime() {
        return startupTime;
    }

    /** Runs {@code sql} and returns its TSV output without the trailing newline(s). */
    public String query(String sql) {
        String result = query(sql, "TSV");
        int end = result.length();
        while (end > 0 && result.charAt(end - 1) == '\n') {
            end--;
        }
        return result.substring(0, end);
    }

    /**
     * Runs {@code sql} and returns its output in the ClickHouse {@code format} (e.g. {@code
     * JSONEachRow}, {@code CSV}, {@code TSVWithNames}) exactly as chDB produced it. Text formats
     * only: the result travels as a UTF-8 string.
     *
     * @throws ChDbException if ClickHouse rejects the statement, it times out or chDB died
     */
    public String query(String sql, String format) {
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(format, "format");
        synchronized (requestLock) {
            if (closed) {
                throw new IllegalStateException("ChDb is closed");
            }
            if (brokenReason != null) {
                throw new ChDbException(sql, "chDB is unusable: " + brokenReason);
            }
            long id = nextId++;
            try {
                stdin.write(
                        "{\"id\":"
                                + id
                                + ",\"sql\":"
                                + Json.quote(sql)
                                + ",\"format\":"
                                + Json.quote(format)
                                + "}\n");
                stdin.flush();
            } catch (IOException e) {
                throw broken(sql, "cannot send the request to chDB: " + e.getMessage(), e);
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                Map<String, Object> response;
                try {
                    response =
                            responses.poll(
                                    Math.max(0, deadline - System.nanoTime()),
                                    TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw broken(sql, "interrupted while waiting for chDB", e);
                }
                if (response == null) {
                    throw broken(
                            sql, "no answer from chDB within " + timeout + "; killed it", null);
                }
                if (response.containsKey("eof")) {
                    responses.offer(response); // keep it for whoever asks next
                    throw broken(sql, "the chDB process ended" + exitDescription(), null);
                }
                Object responseId = response.get("id");
                if (!(responseId instanceof Number) || ((Number) responseId).longValue() != id) {
                    // An answer to something else (e.g. a request the server could not parse).
                    if (Boolean.FALSE.equals(response.get("ok"))) {
                        throw new ChDbException(sql, String.valueOf(response.get("error")));
                    }
                    continue;
                }
                if (Boolean.TRUE.equals(response.get("ok"))) {
                    Object result = response.get("result");
                    return result == null ? "" : result.toString();
                }
                throw new ChDbException(sql, String.valueOf(response.get("error")));
            }
        }
    }

    /**
     * ClickHouse's reading of a local file, as RowBinary with the rows in file order: {@code SELECT
     * * FROM file(file, format, structure)} written by {@code INSERT INTO FUNCTION file(...,
     * RowBinary)} under {@link #FILE_ORDER_SETTINGS}, {@code session_timezone = 'UTC'} and {@code
     * extraSettings} (empty, or starting with a comma: {@code ", date_time_input_format =
     * 'basic'"}). The reference of every test that compares our reader with ClickHouse's row by
     * row.
     *
     * @return the rows' RowBinary (empty when the file has no rows)
     * @throws ChDbException when ClickHouse refuses the file
     */
    public byte[] readFileAsRowBinary(
            Path file, String format, String structure, String extraSettings) {
        Path out = sessionDir.resolve("file-order-" + fileReads.incrementAndGet() + ".rowbinary");
        try {
            execute(
                    "INSERT INTO FUNCTION file("
                            + quoteString(out.toString())
                            + ", 'RowBinary') SELECT * FROM file("
                            + quoteString(file.toString())
                            + ", "
                            + quoteString(format)
                            + ", "
                            + quoteString(structure)
                            + ") SETTINGS engine_file_truncate_on_insert = 1,"
                            + " session_timezone = 'UTC', "
                            + FILE_ORDER_SETTINGS
                            + extraSettings);
            return Files.exists(out) ? Files.readAllBytes(out) : new byte[0];
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            try {
                Files.deleteIfExists(out);
            } catch (IOException e) {
                // a leftover in the session directory, removed with it
            }
        }
    }

    /** Runs a statement whose output, if any, does not matter (DDL, INSERT, ALTER, ...). */
    public void execute(String sql) {
        query(sql, "TSV");
    }

    /**
     * Runs {@code sql} and returns its rows, each split into TSV fields and unescaped ({@code \t},
     * {@code \n}, {@code \\}, ...); a NULL ({@code \N}) becomes {@code null}. Composite values
     * (arrays, tuples, maps) stay in ClickHouse's text form, e.g. {@code [1,2]}.
     */
    public List<String[]> rows(String sql) {
        String result = query(sql, "TSV");
        List<String[]> rows = new ArrayList<>();
        if (result.isEmpty()) {
            return rows;
        }
        String body = result.endsWith("\n") ? result.substring(0, result.length() - 1) : result;
        for (String line : body.split("\n", -1)) {
            String[] fields = line.split("\t", -1);
            for (int i = 0; i < fields.length; i++) {
                fields[i] = unescapeTsv(fields[i]);
            }
            rows.add(fields);
        }
        return rows;
    }

    /**
     * Runs a query returning a single integer (e.g. {@code SELECT count() FROM t}).
     *
     * @throws IllegalStateException if the result is not exactly one integer
     */
    public long queryLong(String sql) {
        String value = query(sql);
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(
                    "expected one integer from `" + sql + "`, got: '" + value + "'", e);
        }
    }

    /**
     * The data directory of {@code table} (plain, or {@code database.table}; default the current
     * database), the one that holds the parts and {@code detached/}. For a table on several disks,
     * the first.
     *
     * @throws IllegalArgumentException if there is no such table
     */
    public Path tableDataPath(String table) {
        String database = null;
        String name = unquoteIdentifier(table);
        int dot = table.indexOf('.');
        if (dot > 0 && !table.startsWith("`")) {
            database = unquoteIdentifier(table.substring(0, dot));
            name = unquoteIdentifier(table.substring(dot + 1));
        }
        String sql =
                "SELECT arrayJoin(data_paths) FROM system.tables WHERE database = "
                        + (database == null ? "currentDatabase()" : quoteString(database))
                        + " AND name = "
                        + quoteString(name);
        List<String[]> rows = rows(sql);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(
                    "no table " + table + " with a data path in chDB at " + sessionDir);
        }
        return Path.of(rows.get(0)[0]);
    }

    /**
     * Copies the part directory {@code partDir} into {@code <table data path>/detached/<partDir
     * name>} and runs {@code ALTER TABLE table ATTACH PART '<name>'}, so ClickHouse loads (and
     * validates the checksums of) a part written by someone else. The directory name must be a
     * valid part name for the table (e.g. {@code all_1_1_0}).
     *
     * @throws ChDbException if ClickHouse refuses the part
     * @throws UncheckedIOException if the copy fails (e.g. that name is already detached)
     */
    public void attachPart(String table, Path partDir) {
        if (!Files.isDirectory(partDir)) {
            throw new IllegalArgumentException("not a part directory: " + partDir);
        }
        String name = partDir.getFileName().toString();
        Path target = tableDataPath(table).resolve("detached").resolve(name);
        try {
            if (Files.exists(target)) {
                throw new FileAlreadyExistsException(target.toString());
            }
            io.github.s3mergetree.engine.part.Parts.copyRecursively(partDir, target);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot copy part " + partDir + " into " + target + ": " + e, e);
        }
        execute("ALTER TABLE " + table + " ATTACH PART " + quoteString(name));
    }

    /**
     * Runs {@code CHECK TABLE table SETTINGS check_query_single_value_result = 0} and returns its
     * raw output as {@code TSVWithNames}: a header {@code part_path is_passed message}, then one
     * line per part.
     */
    public String checkTable(String table) {
        return query(
                "CHECK TABLE " + table + " SETTINGS check_query_single_value_result = 0",
                "TSVWithNames");
    }

    /**
     * Fails with the full {@code CHECK TABLE} output unless every part of {@code table} passes
     * ({@code is_passed = 1}). Also fails when no part was checked: a check of nothing proves
     * nothing.
     *
     * @throws AssertionError if a part fails the check or the table has no parts
     */
    public void assertCheckTablePasses(String table) {
        String output = checkTable(table);
        String[] lines = output.split("\n");
        if (lines.length == 0 || lines[0].isEmpty()) {
            throw new AssertionError(
                    "CHECK TABLE " + table + " returned nothing (does the table have no parts?)");
        }
        List<String> header = List.of(lines[0].split("\t", -1));
        int passed = header.indexOf("is_passed");
        if (passed < 0) {
            throw new AssertionError(
                    "CHECK TABLE " + table + " returned no is_passed column:\n" + output);
        }
        int parts = 0;
        boolean ok = true;
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isEmpty()) {
                continue;
            }
            parts++;
            String[] fields = lines[i].split("\t", -1);
            if (fields.length <= passed || !"1".equals(fields[passed])) {
                ok = false;
            }
        }
        if (parts == 0) {
            throw new AssertionError(
                    "CHECK TABLE " + table + " checked no part (does the table have no parts?)");
        }
        if (!ok) {
            throw new AssertionError("CHECK TABLE " + table + " failed:\n" + output);
        }
    }

    /**
     * Ends the chDB process: closes its stdin (it closes the session and exits), waits a little,
     * then destroys it and its descendants if it is still running. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<ProcessHandle> family = new ArrayList<>(descendantsAtStart);
        family.addAll(process.descendants().toList());
        try {
            stdin.close();
        } catch (IOException e) {
            // the process is gone already; the wait below confirms it
        }
        boolean exited;
        try {
            exited = process.waitFor(CLOSE_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exited = false;
        }
        if (!exited) {
            kill();
        }
        family.forEach(ProcessHandle::destroyForcibly);
    }

    @Override
    public String toString() {
        return "ChDb[pid=" + process.pid() + ", session=" + sessionDir + "]";
    }

    private ChDbException broken(String sql, String reason, Throwable cause) {
        brokenReason = reason;
        kill();
        return new ChDbException(sql, reason + diagnosticsSuffix(), cause);
    }

    private void kill() {
        List<ProcessHandle> family = new ArrayList<>(descendantsAtStart);
        family.addAll(process.descendants().toList());
        family.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(CLOSE_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String exitDescription() {
        try {
            if (process.waitFor(2, TimeUnit.SECONDS)) {
                return " with exit code " + process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "";
    }

    private String diagnosticsSuffix() {
        // let the reader threads catch up with the last words of a dying process
        try {
            process.waitFor(200, TimeUnit.MILLISECONDS);
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (diagnostics) {
            if (diagnostics.isEmpty()) {
                return "";
            }
            return "\n  chDB process output (last lines):\n    "
                    + String.join("\n    ", diagnostics);
        }
    }

    private void readStdout() {
        try (BufferedReader reader = reader(process.getInputStream())) {
            String line;
            while ((line = reader.readLine()) != null) {
                int at = line.indexOf(MARKER);
                if (at < 0) {
                    if (!line.isEmpty()) {
                        remember("stdout: " + line);
                    }
                    continue;
                }
                if (at > 0) {
                    remember("stdout: " + line.substring(0, at));
                }
                String json = line.substring(at + MARKER.length());
                try {
                    responses.add(Json.parseObject(json));
                } catch (IllegalArgumentException e) {
                    remember("unparsable response (" + e.getMessage() + "): " + json);
                }
            }
        } catch (IOException e) {
            remember("reading chDB's stdout failed: " + e);
        } finally {
            Map<String, Object> eof = new LinkedHashMap<>();
            eof.put("eof", Boolean.TRUE);
            responses.add(eof);
        }
    }

    private void readStderr() {
        try (BufferedReader reader = reader(process.getErrorStream())) {
            String line;
            while ((line = reader.readLine()) != null) {
                remember("stderr: " + line);
            }
        } catch (IOException e) {
            remember("reading chDB's stderr failed: " + e);
        }
    }

    private void remember(String line) {
        synchronized (diagnostics) {
            diagnostics.addLast(line);
            while (diagnostics.size() > DIAGNOSTIC_LINES) {
                diagnostics.removeFirst();
            }
        }
    }

    private static BufferedReader reader(InputStream in) {
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    private static void startDaemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    static String unquoteIdentifier(String identifier) {
        String s = identifier.trim();
        if (s.length() >= 2
                && ((s.startsWith("`") && s.endsWith("`"))
                        || (s.startsWith("\"") && s.endsWith("\"")))) {
            return s.substring(1, s.length() - 1);
        }
        return s;
    }

    /** A ClickHouse string literal. */
    static String quoteString(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    static String unescapeTsv(String field) {
        if (field.equals("\\N")) {
            return null;
        }
        if (field.indexOf('\\') < 0) {
            return field;
        }
        StringBuilder sb = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c != '\\' || i + 1 == field.length()) {
                sb.append(c);
                continue;
            }
            char e = field.charAt(++i);
            switch (e) {
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'r' -> sb.append('\r');
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case '0' -> sb.append('\0');
                case 'a' -> sb.append('\007');
                case 'v' -> sb.append('\013');
                default -> sb.append(e); // \\ \' and anything else: the character itself
            }
        }
        return sb.toString();
    }

    /** Just enough JSON for the chdb-server.js protocol: flat objects of strings, numbers, etc. */
    static final class Json {
        private final String s;
        private int pos;

        private Json(String s) {
            this.s = s;
        }

        static String quote(String value) {
            StringBuilder sb = new StringBuilder(value.length() + 2).append('"');
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                switch (c) {
                    case '"' -> sb.append("\\\"");
                    case '\\' -> sb.append("\\\\");
                    case '\n' -> sb.append("\\n");
                    case '\r' -> sb.append("\\r");
                    case '\t' -> sb.append("\\t");
                    default -> {
                        if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                            sb.append(String.format("\\u%04x", (int) c));
                        } else {
                            sb.append(c);
                        }
                    }
                }
            }
            return sb.append('"').toString();
        }

        @SuppressWarnings("unchecked")
        static Map<String, Object> parseObject(String text) {
            Json p = new Json(text);
            Object value = p.value();
            p.skipSpace();
            if (!(value instanceof Map) || p.pos != text.length()) {
                throw new IllegalArgumentException("not a single JSON object");
            }
            return (Map<String, Object>) value;
        }

        private Object value() {
            skipSpace();
            if (pos >= s.length()) {
                throw new IllegalArgumentException("unexpected end");
            }
            char c = s.charAt(pos);
            switch (c) {
                case '{':
                    return object();
                case '[':
                    return array();
                case '"':
                    return string();
                case 't':
                    return literal("true", Boolean.TRUE);
                case 'f':
                    return literal("false", Boolean.FALSE);
                case 'n':
                    return literal("null", null);
                default:
                    return number();
            }
        }

        private Map<String, Object> object() {
            Map<String, Object> map = new LinkedHashMap<>();
            pos++;
            skipSpace();
            if (peek() == '}') {
                pos++;
                return map;
            }
            while (true) {
                skipSpace();
                if (peek() != '"') {
                    throw new IllegalArgumentException("expected a key at " + pos);
                }
                String key = string();
                skipSpace();
                expect(':');
                map.put(key, value());
                skipSpace();
                char c = next();
                if (c == '}') {
                    return map;
                }
                if (c != ',') {
                    throw new IllegalArgumentException("expected , or } at " + (pos - 1));
                }
            }
        }

        private List<Object> array() {
            List<Object> list = new ArrayList<>();
            pos++;
            skipSpace();
            if (peek() == ']') {
                pos++;
                return list;
            }
            while (true) {
                list.add(value());
                skipSpace();
                char c = next();
                if (c == ']') {
                    return list;
                }
                if (c != ',') {
                    throw new IllegalArgumentException("expected , or ] at " + (pos - 1));
                }
            }
        }

        private String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = next();
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw new IllegalArgumentException("truncated \\u escape");
                        }
                        sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> sb.append(e); // " \ /
                }
            }
        }

        private Object number() {
            int start = pos;
            while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
            String n = s.substring(start, pos);
            if (n.isEmpty()) {
                throw new IllegalArgumentException("unexpected character at " + start);
            }
            try {
                return n.matches("-?\\d+") ? (Object) Long.valueOf(n) : Double.valueOf(n);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad number " + n, e);
            }
        }

        private Object literal(String word, Object value) {
            if (!s.startsWith(word, pos)) {
                throw new IllegalArgumentException("unexpected token at " + pos);
            }
            pos += word.length();
            return value;
        }

        private void skipSpace() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        private char peek() {
            if (pos >= s.length()) {
                throw new IllegalArgumentException("unexpected end");
            }
            return s.charAt(pos);
        }

        private char next() {
            char c = peek();
            pos++;
            return c;
        }

        private void expect(char c) {
            if (next() != c) {
                throw new IllegalArgumentException("expected " + c + " at " + (pos - 1));
            }
        }
    }
}
