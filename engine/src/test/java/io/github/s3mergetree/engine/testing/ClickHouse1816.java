package io.github.s3mergetree.engine.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A private ClickHouse 18.16 server for tests: the old judge of the parts this project writes in
 * the portable profile (Wide part, 16-byte {@code .mrk} marks, granules of exactly the table's
 * {@code index_granularity}, uncompressed {@code primary.idx}, classic strings, {@code
 * checksums.txt} v4).
 *
 * <p>Why: the portable profile promises that every ClickHouse since 18.16 reads our parts, and only
 * a real 18.16 can confirm it. {@link #start} writes a minimal server configuration under a work
 * directory (loopback only, a free TCP port, no interserver listener (a member of a {@link
 * ClickHouse1816Cluster} has one, and ZooKeeper) and HTTP only when asked; data, temporary files
 * and logs under the work directory, time zone UTC) and runs Debian's {@code clickhouse-server}
 * (package 18.16.1+ds, installed by {@code tools/install-test-engines.sh}) as a child process.
 * Statements run through {@code clickhouse-client}, one process per statement. A start-up takes
 * about a second; share an instance across the tests of a class.
 *
 * <p>Facts about 18.16 this harness relies on (all observed with 18.16.1):
 *
 * <ul>
 *   <li>It runs as root without complaint, so the server runs as the current user and parts copied
 *       by the test are readable by it as they are.
 *   <li>A table's data directory is {@code <path>/data/<database>/<table>/} ({@code
 *       system.tables.data_path}); there is no Atomic database and no {@code store/}.
 *   <li>{@code ALTER TABLE t ATTACH PART 'name'} and {@code ATTACH PARTITION <id>} both work and
 *       take parts from {@code detached/}; the attached part gets a fresh block number but keeps
 *       its level ({@code 202401_7_9_3} becomes {@code 202401_2_2_3}). There is <em>no</em> {@code
 *       DETACH PART} (syntax error "Expected PARTITION"): use {@code DETACH PARTITION}. No {@code
 *       CHECK TABLE} for MergeTree, no {@code system.detached_parts}.
 *   <li>LowCardinality columns need {@code allow_experimental_low_cardinality_type = 1}; the
 *       private users profile sets it, so every statement may use the type.
 *   <li>{@code cityHash64} rejects Decimal arguments and returns NULL for a NULL argument (which
 *       {@code sum} then skips): hash {@code toString(dec)} and {@code isNull(n), ifNull(n, 0)}.
 * </ul>
 *
 * <p>Locating the binaries: the system properties {@code clickhouse1816.server} and {@code
 * clickhouse1816.client} (executables), else {@code clickhouse-server} in {@code /usr/sbin}, {@code
 * /usr/bin} or on {@code PATH}, else the multi-call {@code /usr/bin/clickhouse server}; likewise
 * for the client. If they are missing, or the server is not 18.16, {@link #start} <em>fails</em>
 * (it never skips): run {@code tools/install-test-engines.sh}.
 *
 * <p>Life cycle: {@link #close()} sends SIGTERM, waits, then SIGKILLs the server, its descendants
 * and any client still running. A JVM shutdown hook and a small watchdog process (which ends the
 * server when the JVM is gone) keep a crashed or killed test run from leaving the server behind.
 * Thread-safe: statements may run concurrently (each is its own client process).
 */
public final class ClickHouse1816 implements AutoCloseable {

    /** How long {@link #start} waits for the server to answer. */
    public static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

    /** How long one statement may take before its client is killed and the statement fails. */
    public static final Duration QUERY_TIMEOUT = Duration.ofSeconds(300);

    private static final String INSTALL_HINT =
            "run tools/install-test-engines.sh (it installs Debian's clickhouse-server and"
                    + " clickhouse-client, ClickHouse 18.16)";
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final int LOG_TAIL_LINES = 60;
    private static final int START_ATTEMPTS = 3;

    private final Path workDir;
    private final Path dataDir;
    private final Path logDir;
    private final Path scratchDir;
    private final int port;
    private final int httpPort;
    private final List<String> clientCommand;
    private final Process server;
    private final Set<Process> clients = ConcurrentHashMap.newKeySet();
    private final Thread shutdownHook;
    private volatile Process watchdog;
    private volatile boolean closed;
    private String version;
    private Duration startupTime;

    private ClickHouse1816(
            Path workDir,
            int port,
            int httpPort,
            List<String> clientCommand,
            Process server,
            Path logDir) {
        this.workDir = workDir;
        this.httpPort = httpPort;
        this.dataDir = workDir.resolve("data");
        this.logDir = logDir;
        this.scratchDir = workDir.resolve("client");
        this.port = port;
        this.clientCommand = clientCommand;
        this.server = server;
        this.shutdownHook = new Thread(this::stopQuietly, "clickhouse1816-shutdown-" + port);
    }

    /**
     * Writes a private configuration under {@code workDir} (created if missing; use a fresh
     * directory per server), starts ClickHouse 18.16 on 127.0.0.1 and a free port, and waits (at
     * most {@link #STARTUP_TIMEOUT}) until it answers {@code SELECT version()}.
     *
     * @throws IllegalStateException if the binaries are missing (naming {@code
     *     tools/install-test-engines.sh}), the server is not 18.16, or it does not start (with the
     *     tail of its logs)
     */
    public static ClickHouse1816 start(Path workDir) {
        return start(workDir, false);
    }

    /**
     * Like {@link #start(Path)}; with {@code http} the server also listens with its HTTP interface
     * on 127.0.0.1 and a free port ({@link #httpPort()}), for clients of ClickHouse's HTTP
     * interface such as the delivery module's.
     */
    public static ClickHouse1816 start(Path workDir, boolean http) {
        return start(workDir, http, -1, "");
    }

    /**
     * Like {@link #start(Path, boolean)}, for a member of a {@link ClickHouse1816Cluster}: the
     * server listens on {@code tcpPort} (chosen by the caller, which names it in the other servers'
     * {@code remote_servers}; -1: a free port of this harness's choosing) and its configuration
     * gets {@code extraConfigXml} (elements of {@code <yandex>}, e.g. {@code <zookeeper>}, {@code
     * <macros>}, {@code <interserver_http_port>}).
     */
    public static ClickHouse1816 start(
            Path workDir, boolean http, int tcpPort, String extraConfigXml) {
        Objects.requireNonNull(workDir, "workDir");
        Objects.requireNonNull(extraConfigXml, "extraConfigXml");
        long t0 = System.nanoTime();
        List<String> serverCommand = locate("server");
        List<String> clientCommand = locate("client");
        Path dir = workDir.toAbsolutePath().normalize();
        IllegalStateException last = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            Path attemptDir = attempt == 1 ? dir : dir.resolve("retry-" + attempt);
            try {
                ClickHouse1816 ch =
                        startOnce(
                                attemptDir,
                                serverCommand,
                                clientCommand,
                                http,
                                tcpPort,
                                extraConfigXml);
                ch.startupTime = Duration.ofNanos(System.nanoTime() - t0);
                return ch;
            } catch (PortTakenException e) {
                last = e; // someone took the free port between probing and binding: try another
                if (tcpPort > 0) {
                    break; // the caller's port: only the caller can choose another
                }
            }
        }
        throw last;
    }

    private static ClickHouse1816 startOnce(
            Path dir,
            List<String> serverCommand,
            List<String> clientCommand,
            boolean http,
            int tcpPort,
            String extraConfigXml) {
        Path logDir = dir.resolve("log");
        int port;
        int httpPort = -1;
        try {
            for (String sub : List.of("data", "tmp", "user_files", "format_schemas", "log")) {
                Files.createDirectories(dir.resolve(sub));
            }
            Files.createDirectories(dir.resolve("client"));
            port = tcpPort > 0 ? tcpPort : freePort();
            if (http) {
                httpPort = freePort();
            }
            Files.writeString(
                    dir.resolve("config.xml"), configXml(dir, port, httpPort, extraConfigXml));
            Files.writeString(dir.resolve("users.xml"), USERS_XML);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot prepare the ClickHouse 18.16 directory " + dir, e);
        }
        List<String> command = new ArrayList<>(serverCommand);
        command.add("--config-file=" + dir.resolve("config.xml"));
        ProcessBuilder pb =
                new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                        .redirectOutput(logDir.resolve("stdout.txt").toFile())
                        .redirectError(logDir.resolve("stderr.txt").toFile());
        pb.environment().put("TZ", "UTC");
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "cannot run " + command + " (" + INSTALL_HINT + "): " + e.getMessage(), e);
        }
        ClickHouse1816 ch = new ClickHouse1816(dir, port, httpPort, clientCommand, process, logDir);
        Runtime.getRuntime().addShutdownHook(ch.shutdownHook);
        try {
            ch.startWatchdog();
            ch.awaitReady();
        } catch (RuntimeException e) {
            ch.close();
            throw e;
        }
        return ch;
    }

    /** Thrown when the server could not bind the port chosen: {@link #start} retries. */
    private static final class PortTakenException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        PortTakenException(String message) {
            super(message);
        }
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        String lastError = "no answer yet";
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                String logs = logTail();
                String message =
                        "ClickHouse 18.16 exited during start-up with code "
                                + server.exitValue()
                                + " (work directory "
                                + workDir
                                + ")"
                                + logs;
                if (logs.contains("Address already in use")) {
                    throw new PortTakenException(message);
                }
                throw new IllegalStateException(message);
            }
            if (portOpen()) {
                try {
                    version = runClient("SELECT version()", null, Duration.ofSeconds(10));
                    break;
                } catch (ClickHouse1816Exception e) {
                    lastError = e.getMessage();
                }
            }
            sleep(100);
        }
        if (version == null) {
            throw new IllegalStateException(
                    "ClickHouse 18.16 did not answer within "
                            + STARTUP_TIMEOUT
                            + " on 127.0.0.1:"
                            + port
                            + " (last error: "
                            + lastError
                            + ")"
                            + logTail());
        }
        if (!version.startsWith("18.16")) {
            throw new IllegalStateException(
                    "the clickhouse-server found is version "
                            + version
                            + ", not 18.16; this harness judges the portable profile with 18.16"
                            + " ("
                            + INSTALL_HINT
                            + ", or set -Dclickhouse1816.server / -Dclickhouse1816.client)");
        }
    }

    private boolean portOpen() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A process that ends the server (SIGTERM, then SIGKILL) once this JVM is gone, in case the JVM
     * is killed before {@link #close()} or its shutdown hook can run. {@link #close()} ends it
     * first.
     */
    private void startWatchdog() {
        long jvm = ProcessHandle.current().pid();
        long pid = server.pid();
        String script =
                "while kill -0 "
                        + jvm
                        + " 2>/dev/null && kill -0 "
                        + pid
                        + " 2>/dev/null; do sleep 2; done; "
                        + "if kill -0 "
                        + pid
                        + " 2>/dev/null; then kill -TERM "
                        + pid
                        + "; sleep 15; kill -KILL "
                        + pid
                        + " 2>/dev/null; fi";
        try {
            watchdog =
                    new ProcessBuilder("sh", "-c", script)
                            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                            .redirectError(ProcessBuilder.Redirect.DISCARD)
                            .start();
        } catch (IOException e) {
            // not fatal: close() and the shutdown hook still stop the server
            watchdog = null;
        }
    }

    /** ClickHouse's {@code version()}, e.g. {@code 18.16.1}. */
    public String version() {
        return version;
    }

    /** How long {@link #start} took, from locating the binaries to the first answer. */
    public Duration startupTime() {
        return startupTime;
    }

    /** The server's process id. */
    public long pid() {
        return server.pid();
    }

    /** The TCP (native protocol) port on 127.0.0.1. */
    public int port() {
        return port;
    }

    /**
     * The HTTP interface's port on 127.0.0.1.
     *
     * @throws IllegalStateException if the server was started without HTTP
     */
    public int httpPort() {
        if (httpPort < 0) {
            throw new IllegalStateException(
                    "this ClickHouse 18.16 was started without its HTTP interface:"
                            + " use start(dir, true)");
        }
        return httpPort;
    }

    /** The work directory holding {@code config.xml}, {@code users.xml}, data and logs. */
    public Path workDir() {
        return workDir;
    }

    /** The server's {@code path}: {@code data/<db>/<table>/}, {@code metadata/}, ... live here. */
    public Path dataDir() {
        return dataDir;
    }

    /** The server's main log file. */
    public Path serverLog() {
        return logDir.resolve("server.log");
    }

    /** The server's error log: every {@code <Error>} (and worse) line, e.g. a failed merge. */
    public Path serverErrorLog() {
        return logDir.resolve("server.err.log");
    }

    /**
     * Runs one statement and returns its output (TabSeparated unless the statement says {@code
     * FORMAT ...}), trimmed of leading and trailing white space.
     *
     * @throws ClickHouse1816Exception if the client exits with a non-zero code (with its stderr) or
     *     the statement exceeds {@link #QUERY_TIMEOUT}
     */
    public String query(String sql) {
        return runClient(sql, null, QUERY_TIMEOUT).trim();
    }

    /**
     * Runs one statement with {@code input} on the client's stdin, e.g. {@code INSERT INTO t FORMAT
     * TabSeparated} with the rows, and returns its trimmed output.
     *
     * @throws ClickHouse1816Exception if the client exits with a non-zero code (with its stderr)
     */
    public String query(String sql, byte[] input) {
        Objects.requireNonNull(input, "input");
        return runClient(sql, input, QUERY_TIMEOUT).trim();
    }

    /**
     * Runs one statement with these query settings (passed as the client's {@code --name=value}
     * options, e.g. {@code insert_distributed_sync}) and returns its trimmed output.
     *
     * @throws ClickHouse1816Exception if the client exits with a non-zero code (with its stderr)
     */
    public String query(String sql, java.util.Map<String, String> settings) {
        List<String> options = new ArrayList<>();
        settings.forEach((k, v) -> options.add("--" + k + "=" + v));
        return runClient(sql, null, QUERY_TIMEOUT, options).trim();
    }

    /**
     * Runs a statement returning a single integer (e.g. {@code SELECT count() FROM t}).
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

    /** Runs a statement whose output does not matter (DDL, INSERT ... SELECT, ALTER, ...). */
    public void execute(String sql) {
        query(sql);
    }

    /**
     * The data directory of {@code table} ({@code table} or {@code database.table}; default
     * database {@code default}) as {@code system.tables.data_path} reports it, i.e. {@code
     * dataDir()/data/<database>/<table>/}: it holds the parts and {@code detached/}.
     *
     * @throws IllegalArgumentException if there is no such table
     */
    public Path tableDataPath(String table) {
        String database = "default";
        String name = table;
        int dot = table.indexOf('.');
        if (dot > 0) {
            database = table.substring(0, dot);
            name = table.substring(dot + 1);
        }
        String path =
                query(
                        "SELECT data_path FROM system.tables WHERE database = "
                                + quoteString(ChDb.unquoteIdentifier(database))
                                + " AND name = "
                                + quoteString(ChDb.unquoteIdentifier(name)));
        if (path.isEmpty()) {
            throw new IllegalArgumentException(
                    "no table " + table + " with a data path in ClickHouse 18.16 at " + workDir);
        }
        return Path.of(path);
    }

    /**
     * Copies the part directory {@code partDir} into {@code <table data path>/detached/<partDir
     * name>} and runs {@code ALTER TABLE table ATTACH PART '<name>'}. The name must parse as a part
     * name of the table ({@code <partition id>_<min block>_<max block>_<level>}) and its partition
     * id must match {@code partition.dat}. 18.16 renames the part to a fresh block number (keeping
     * the level) and, like later versions, checks file sizes but not hashes. The server runs as the
     * current user, so the copied files need no permission changes.
     *
     * @throws ClickHouse1816Exception if ClickHouse refuses the part
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
            Files.createDirectories(target.getParent());
            io.github.s3mergetree.engine.part.Parts.copyRecursively(partDir, target);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot copy part " + partDir + " into " + target + ": " + e, e);
        }
        execute("ALTER TABLE " + table + " ATTACH PART " + quoteString(name));
    }

    /**
     * Stops the server: SIGTERM, up to 20 s to exit, then SIGKILL for it and its descendants; kills
     * client processes still running and the watchdog. Idempotent; call it even when a test failed
     * (try-with-resources).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        stopQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs (or ran) stopQuietly, which is idempotent
        }
    }

    @Override
    public String toString() {
        return "ClickHouse1816[pid=" + server.pid() + ", port=" + port + ", dir=" + workDir + "]";
    }

    private synchronized void stopQuietly() {
        if (closed) {
            return;
        }
        closed = true;
        Process w = watchdog;
        if (w != null) {
            w.destroyForcibly();
        }
        for (Process c : clients) {
            c.descendants().forEach(ProcessHandle::destroyForcibly);
            c.destroyForcibly();
        }
        List<ProcessHandle> family = new ArrayList<>(server.descendants().toList());
        server.destroy(); // SIGTERM
        boolean exited;
        try {
            exited = server.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exited = false;
        }
        if (!exited) {
            server.destroyForcibly(); // SIGKILL
            try {
                server.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        family.addAll(server.descendants().toList());
        family.forEach(ProcessHandle::destroyForcibly);
    }

    private String runClient(String sql, byte[] input, Duration timeout) {
        return runClient(sql, input, timeout, List.of());
    }

    private String runClient(String sql, byte[] input, Duration timeout, List<String> options) {
        Objects.requireNonNull(sql, "sql");
        if (closed) {
            throw new IllegalStateException("ClickHouse1816 is closed");
        }
        List<String> command = new ArrayList<>(clientCommand);
        command.addAll(List.of("--host", "127.0.0.1", "--port", Integer.toString(port)));
        command.addAll(options);
        command.add("--query=" + sql);
        Path in = null;
        Path out = null;
        Path err = null;
        Process p = null;
        try {
            out = Files.createTempFile(scratchDir, "out", ".txt");
            err = Files.createTempFile(scratchDir, "err", ".txt");
            ProcessBuilder pb =
                    new ProcessBuilder(command)
                            .redirectOutput(out.toFile())
                            .redirectError(err.toFile());
            if (input != null) {
                in = Files.createTempFile(scratchDir, "in", ".bin");
                Files.write(in, input);
                pb.redirectInput(in.toFile());
            } else {
                pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            }
            p = pb.start();
            clients.add(p);
            boolean done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!done) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                throw new ClickHouse1816Exception(
                        sql, -1, "no answer within " + timeout + "; killed the client");
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                String stderr = Files.readString(err, StandardCharsets.UTF_8).trim();
                throw new ClickHouse1816Exception(
                        sql, p.exitValue(), stderr.isEmpty() ? stdout.trim() : stderr);
            }
            return stdout;
        } catch (IOException e) {
            throw new ClickHouse1816Exception(
                    sql, -1, "cannot run " + clientCommand + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (p != null) {
                p.destroyForcibly();
            }
            throw new ClickHouse1816Exception(sql, -1, "interrupted");
        } finally {
            if (p != null) {
                clients.remove(p);
            }
            deleteQuietly(in);
            deleteQuietly(out);
            deleteQuietly(err);
        }
    }

    private String logTail() {
        StringBuilder sb = new StringBuilder();
        for (String file : List.of("server.err.log", "server.log", "stderr.txt", "stdout.txt")) {
            Path f = logDir.resolve(file);
            if (!Files.isRegularFile(f)) {
                continue;
            }
            List<String> lines;
            try {
                lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            } catch (IOException e) {
                continue;
            }
            if (lines.isEmpty()) {
                continue;
            }
            sb.append("\n  ").append(f).append(" (last lines):");
            for (String line :
                    lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())) {
                sb.append("\n    ").append(line);
            }
        }
        return sb.toString();
    }

    /** The command prefix running the server ({@code kind = "server"}) or the client. */
    private static List<String> locate(String kind) {
        String property = System.getProperty("clickhouse1816." + kind);
        if (property != null && !property.isBlank()) {
            Path p = Path.of(property);
            if (!Files.isExecutable(p)) {
                throw new IllegalStateException(
                        "-Dclickhouse1816." + kind + "=" + property + " is not executable");
            }
            return List.of(p.toString());
        }
        String name = "clickhouse-" + kind;
        List<Path> candidates = new ArrayList<>();
        candidates.add(Path.of("/usr/sbin", name));
        candidates.add(Path.of("/usr/bin", name));
        String pathEnv = System.getenv("PATH");
        if (pathEnv != null) {
            for (String d : pathEnv.split(File.pathSeparator)) {
                if (!d.isEmpty()) {
                    candidates.add(Path.of(d, name));
                }
            }
        }
        for (Path c : candidates) {
            if (Files.isRegularFile(c) && Files.isExecutable(c)) {
                return List.of(c.toString());
            }
        }
        Path multi = Path.of("/usr/bin/clickhouse");
        if (Files.isExecutable(multi)) {
            return List.of(multi.toString(), kind);
        }
        throw new IllegalStateException(
                "ClickHouse 18.16 is not installed: no "
                        + name
                        + " in /usr/sbin, /usr/bin or PATH and no /usr/bin/clickhouse; "
                        + INSTALL_HINT);
    }

    /** A TCP port free on 127.0.0.1 now (for a server the caller names before starting it). */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        }
    }

    private static String configXml(Path dir, int port, int httpPort, String extraConfigXml) {
        return "<?xml version=\"1.0\"?>\n"
                + "<!-- Private ClickHouse 18.16 test server written by ClickHouse1816.java -->\n"
                + "<yandex>\n"
                + "    <logger>\n"
                + "        <level>information</level>\n"
                + "        <log>"
                + xml(dir.resolve("log/server.log"))
                + "</log>\n"
                + "        <errorlog>"
                + xml(dir.resolve("log/server.err.log"))
                + "</errorlog>\n"
                + "        <size>100M</size>\n"
                + "        <count>1</count>\n"
                + "    </logger>\n"
                + "    <listen_host>127.0.0.1</listen_host>\n"
                + "    <tcp_port>"
                + port
                + "</tcp_port>\n"
                + (httpPort > 0 ? "    <http_port>" + httpPort + "</http_port>\n" : "")
                // no https_port, tcp_port_secure, interserver_http_port (nor http_port unless
                // asked): not listening
                + "    <path>"
                + xml(dir.resolve("data")) // trailing slash required by 18.16
                + "/</path>\n"
                + "    <tmp_path>"
                + xml(dir.resolve("tmp"))
                + "/</tmp_path>\n"
                + "    <user_files_path>"
                + xml(dir.resolve("user_files"))
                + "/</user_files_path>\n"
                + "    <format_schema_path>"
                + xml(dir.resolve("format_schemas"))
                + "/</format_schema_path>\n"
                + "    <users_config>"
                + xml(dir.resolve("users.xml"))
                + "</users_config>\n"
                + "    <default_profile>default</default_profile>\n"
                + "    <default_database>default</default_database>\n"
                + "    <timezone>UTC</timezone>\n"
                + "    <umask>022</umask>\n"
                + "    <mlock_executable>false</mlock_executable>\n"
                + "    <max_concurrent_queries>32</max_concurrent_queries>\n"
                + "    <mark_cache_size>268435456</mark_cache_size>\n"
                + "    <uncompressed_cache_size>268435456</uncompressed_cache_size>\n"
                + extraConfigXml
                + "</yandex>\n";
    }

    private static final String USERS_XML =
            "<?xml version=\"1.0\"?>\n"
                    + "<yandex>\n"
                    + "    <profiles>\n"
                    + "        <default>\n"
                    + "            <max_memory_usage>4000000000</max_memory_usage>\n"
                    + "            <allow_experimental_low_cardinality_type>1"
                    + "</allow_experimental_low_cardinality_type>\n"
                    + "        </default>\n"
                    + "    </profiles>\n"
                    + "    <users>\n"
                    + "        <default>\n"
                    + "            <password></password>\n"
                    + "            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>\n"
                    + "            <profile>default</profile>\n"
                    + "            <quota>default</quota>\n"
                    + "        </default>\n"
                    + "    </users>\n"
                    + "    <quotas>\n"
                    + "        <default>\n"
                    + "            <interval>\n"
                    + "                <duration>3600</duration>\n"
                    + "                <queries>0</queries>\n"
                    + "                <errors>0</errors>\n"
                    + "                <result_rows>0</result_rows>\n"
                    + "                <read_rows>0</read_rows>\n"
                    + "                <execution_time>0</execution_time>\n"
                    + "            </interval>\n"
                    + "        </default>\n"
                    + "    </quotas>\n"
                    + "</yandex>\n";

    private static String xml(Path p) {
        return p.toString().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** A ClickHouse string literal. */
    static String quoteString(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    private static void deleteQuietly(Path p) {
        if (p != null) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                // a scratch file under the work directory; harmless if it stays
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for ClickHouse 18.16", e);
        }
    }

    /**
     * A statement sent to ClickHouse 18.16 failed: {@code clickhouse-client} exited with a non-zero
     * code (ClickHouse rejected the statement or could not be reached), or it timed out.
     *
     * <p>It carries the SQL, the client's exit code and its stderr (for example {@code Code: 60.
     * DB::Exception: ... Table default.x doesn't exist.}), so a failing compatibility test shows
     * what the old engine objected to. Unchecked so tests can let it propagate.
     */
    public static final class ClickHouse1816Exception extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private static final Pattern CODE = Pattern.compile("Code: (\\d+)\\.");

        private final String sql;
        private final int exitCode;
        private final String stderr;

        /**
         * @param sql the statement that failed
         * @param exitCode the client's exit code (ClickHouse's error code modulo 256), or -1 for a
         *     timeout or a client that could not run
         * @param stderr the client's stderr, or the harness's description of the failure
         */
        public ClickHouse1816Exception(String sql, int exitCode, String stderr) {
            super(
                    "ClickHouse 18.16 failed (exit code "
                            + exitCode
                            + "): "
                            + stderr
                            + "\n  SQL: "
                            + abbreviate(sql));
            this.sql = sql;
            this.exitCode = exitCode;
            this.stderr = stderr;
        }

        /** The statement that failed, as sent. */
        public String sql() {
            return sql;
        }

        /**
         * The client's exit code: ClickHouse's error code modulo 256 (e.g. 60), or -1 for a timeout
         * or a client that could not run.
         */
        public int exitCode() {
            return exitCode;
        }

        /**
         * ClickHouse's numeric error code (the first {@code Code: N.} in stderr, e.g. 60 for an
         * unknown table), or -1 if stderr has none.
         */
        public int code() {
            Matcher m = CODE.matcher(stderr);
            return m.find() ? Integer.parseInt(m.group(1)) : -1;
        }

        /** The client's stderr (ClickHouse's message), or the harness's description. */
        public String stderr() {
            return stderr;
        }

        private static String abbreviate(String sql) {
            return sql.length() <= 2000 ? sql : sql.substring(0, 2000) + "...";
        }
    }
}
