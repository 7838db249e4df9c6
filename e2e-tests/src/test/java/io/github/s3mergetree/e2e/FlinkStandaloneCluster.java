package io.github.s3mergetree.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A standalone Flink session cluster (of the version under test, {@link #flinkVersion()}) on
 * 127.0.0.1 as an operator runs one, without a distribution tarball: a JobManager ({@code
 * StandaloneSessionClusterEntrypoint}) and TaskManagers ({@code TaskManagerRunner}), each a
 * separate JVM started from the Flink runtime jars (the classpath {@code
 * src/test/flink-cluster/pom.xml} resolves, see {@link #flinkClasspath()}), with the JVM flags
 * {@code BashJavaUtils} computes from {@code conf/config.yaml} as Flink's scripts do. Sized for a
 * 2-core machine: 2 slots per TaskManager, small memory. Every process is ended by its PID on
 * {@link #close()} (and by {@link ManagedProcess}'s shutdown hook if the JVM exits).
 *
 * <p>With {@link Options} a cluster can be laid out as hosts that share no filesystem: every
 * TaskManager in its own working directory ({@code tm-<i>/}, with its own {@code io.tmp.dirs}),
 * Flink's file system plugins in a {@code plugins/} directory of every process, and further
 * settings (e.g. {@code s3.*}, checkpoints on {@code s3://}) in {@code config.yaml}.
 */
final class FlinkStandaloneCluster implements AutoCloseable {
    /** Flink's default {@code env.java.opts.all}: the module openings Flink needs on Java 17. */
    static final List<String> JAVA_OPTS =
            List.of(
                    "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
                    "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED",
                    "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang=ALL-UNNAMED",
                    "--add-opens=java.base/java.net=ALL-UNNAMED",
                    "--add-opens=java.base/java.io=ALL-UNNAMED",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                    "--add-opens=java.base/java.text=ALL-UNNAMED",
                    "--add-opens=java.base/java.time=ALL-UNNAMED",
                    "--add-opens=java.base/java.util=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    static final int SLOTS_PER_TASK_MANAGER = 2;
    private static final String RESULT_PREFIX = "BASH_JAVA_UTILS_EXEC_RESULT:";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Path dir;
    private final Path confDir;
    private final Path logDir;
    private final String classpath;
    private final int restPort;
    private final List<String> tmJvmFlags;
    private final List<String> tmDynamicProps;
    private final List<ManagedProcess> taskManagers = new ArrayList<>();
    private final Options options;
    private ManagedProcess jobManager;

    /**
     * How the cluster is laid out: {@code ownWorkingDirectories} puts every TaskManager in its own
     * directory {@code tm-<i>/} (working directory and {@code io.tmp.dirs}), as on separate hosts;
     * {@code pluginsDir} (or null) is Flink's {@code plugins/} directory of every process ({@code
     * FLINK_PLUGINS_DIR}); {@code config} are further {@code config.yaml} entries, overriding the
     * defaults (e.g. {@code execution.checkpointing.dir}).
     */
    record Options(boolean ownWorkingDirectories, Path pluginsDir, Map<String, String> config) {
        static final Options DEFAULT = new Options(false, null, Map.of());
    }

    private FlinkStandaloneCluster(Path dir, String classpath, int restPort, Options options)
            throws IOException {
        this.dir = dir;
        this.confDir = dir.resolve("conf");
        this.logDir = dir.resolve("log");
        this.classpath = classpath;
        this.restPort = restPort;
        this.options = options;
        writeConfig();
        this.tmJvmFlags = new ArrayList<>();
        this.tmDynamicProps = new ArrayList<>();
        List<String> tm = bashJavaUtils("GET_TM_RESOURCE_PARAMS");
        tmJvmFlags.addAll(Arrays.asList(tm.get(0).trim().split("\\s+")));
        tmDynamicProps.addAll(Arrays.asList(tm.get(1).trim().split("\\s+")));
    }

    /**
     * Starts a JobManager and {@code taskManagers} TaskManagers under {@code dir} (conf/, log/,
     * tmp/) and waits until all TaskManagers are registered.
     */
    static FlinkStandaloneCluster start(Path dir, int taskManagers) {
        return start(dir, taskManagers, Options.DEFAULT);
    }

    /**
     * As {@link #start(Path, int)}, laid out as {@code options} says. The ports are picked free
     * before the JobManager binds them, so another process can take one in between (a BindException
     * in the JobManager's log, seen in a CI run of 2026-12-05: the REST port); such a start is
     * retried with new ports, up to {@link #START_ATTEMPTS} times, the failed attempt's logs kept
     * in {@code log-attempt-N}.
     */
    static FlinkStandaloneCluster start(Path dir, int taskManagers, Options options) {
        for (int attempt = 1; ; attempt++) {
            FlinkStandaloneCluster c = null;
            try {
                c = new FlinkStandaloneCluster(dir, flinkClasspath(), E2E.freePort(), options);
                c.startJobManager();
                for (int i = 0; i < taskManagers; i++) {
                    c.startTaskManager(); // they retry until the JobManager is up
                }
                c.awaitJobManager();
                c.awaitTaskManagers(taskManagers);
                return c;
            } catch (IOException e) {
                if (c != null) {
                    c.close();
                }
                throw new UncheckedIOException(e);
            } catch (RuntimeException | Error e) {
                boolean portTaken = c != null && c.jobManagerLostAPortRace();
                if (c != null) {
                    c.close();
                }
                if (!portTaken || attempt >= START_ATTEMPTS) {
                    throw e;
                }
                try {
                    Files.move(dir.resolve("log"), dir.resolve("log-attempt-" + attempt));
                } catch (IOException moveFailed) {
                    e.addSuppressed(moveFailed);
                    throw e;
                }
            }
        }
    }

    private static final int START_ATTEMPTS = 3;

    /** Whether the JobManager stopped because a port it was given was taken meanwhile. */
    private boolean jobManagerLostAPortRace() {
        Path log = logDir.resolve("jobmanager.log");
        try {
            return jobManager != null
                    && !jobManager.isAlive()
                    && Files.exists(log)
                    && Files.readString(log, StandardCharsets.UTF_8)
                            .contains("java.net.BindException");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The cluster's classpath: Flink's runtime, clients, streaming, connector-base, runtime-web and
     * Table API jars with log4j 2, resolved by Maven from {@code src/test/flink-cluster/pom.xml}
     * once per Flink version and cached in {@code target/}.
     */
    static String flinkClasspath() {
        return resolvedClasspath("flink-cluster");
    }

    /**
     * The SQL Client's own jars ({@code flink-sql-client}, {@code flink-sql-gateway}), from {@code
     * src/test/flink-sql-client/pom.xml}; with {@link #flinkClasspath()} it is what {@code
     * bin/sql-client.sh} runs.
     */
    static String sqlClientClasspath() {
        return resolvedClasspath("flink-sql-client");
    }

    private static synchronized String resolvedClasspath(String name) {
        Path module = E2E.projectRoot().resolve("e2e-tests");
        Path pom = module.resolve("src/test/" + name + "/pom.xml");
        String version = flinkVersion();
        Path cached = module.resolve("target/" + name + "-" + version + ".classpath");
        try {
            if (!Files.isRegularFile(cached)
                    || Files.getLastModifiedTime(cached).compareTo(Files.getLastModifiedTime(pom))
                            < 0) {
                Files.createDirectories(cached.getParent());
                Path log = module.resolve("target/" + name + ".classpath.log");
                Process p =
                        new ProcessBuilder(
                                        "mvn",
                                        "-B",
                                        "-q",
                                        "-f",
                                        pom.toString(),
                                        "-Dflink.version=" + version,
                                        "dependency:build-classpath",
                                        "-Dmdep.outputFile=" + cached)
                                .redirectErrorStream(true)
                                .redirectOutput(log.toFile())
                                .start();
                if (!p.waitFor(5, java.util.concurrent.TimeUnit.MINUTES) || p.exitValue() != 0) {
                    p.destroyForcibly();
                    Files.deleteIfExists(cached);
                    throw new IllegalStateException(
                            "could not resolve the classpath of "
                                    + pom
                                    + ": "
                                    + Files.readString(log));
                }
            }
            return Files.readString(cached, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The configuration directory ({@code config.yaml}, {@code log4j.properties}). */
    Path confDir() {
        return confDir;
    }

    /**
     * Starts Flink's SQL Client ({@code bin/sql-client.sh -j JAR -f SCRIPT}) against this cluster,
     * with this cluster's configuration: its jobs run on the cluster.
     */
    ManagedProcess startSqlClient(Path connectorJar, Path script, Path workDir) {
        List<String> args = List.of("-j", connectorJar.toString(), "-f", script.toString());
        List<String> cmd = new ArrayList<>();
        cmd.add(ManagedProcess.javaExecutable());
        cmd.add("-Xmx512m");
        cmd.addAll(JAVA_OPTS);
        cmd.add("-Dlog.file=" + workDir.resolve("sql-client.log"));
        cmd.add("-Dlog4j.configurationFile=" + confDir.resolve("log4j.properties").toUri());
        cmd.add("-Dlog4j2.configurationFile=" + confDir.resolve("log4j.properties").toUri());
        cmd.add("-cp");
        cmd.add(classpath + java.io.File.pathSeparator + sqlClientClasspath());
        cmd.add("org.apache.flink.table.client.SqlClient");
        cmd.addAll(args);
        return ManagedProcess.start(
                "sql-client", cmd, workDir, workDir, Map.of("FLINK_CONF_DIR", confDir.toString()));
    }

    /**
     * The Flink version under test: the build's {@code flink.version} (2.3.0, or 1.20.3 with {@code
     * -Pflink-1.20}), passed by surefire.
     */
    static String flinkVersion() {
        return System.getProperty("e2e.flink.version", "2.3.0");
    }

    private void writeConfig() throws IOException {
        Files.createDirectories(confDir);
        Files.createDirectories(logDir);
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        String conf =
                String.join(
                        "\n",
                        "jobmanager.bind-host: 127.0.0.1",
                        "jobmanager.rpc.address: 127.0.0.1",
                        "jobmanager.rpc.port: " + E2E.freePort(),
                        "jobmanager.memory.process.size: 1024m",
                        "taskmanager.bind-host: 127.0.0.1",
                        "taskmanager.host: 127.0.0.1",
                        "taskmanager.numberOfTaskSlots: " + SLOTS_PER_TASK_MANAGER,
                        "taskmanager.memory.process.size: 1280m",
                        "taskmanager.memory.managed.size: 128m",
                        "rest.address: 127.0.0.1",
                        "rest.bind-address: 127.0.0.1",
                        "rest.port: " + restPort,
                        "blob.server.port: \"" + E2E.freePort() + "\"",
                        "parallelism.default: 2",
                        // a job's tasks go to both TaskManagers, so killing one hits the job
                        "taskmanager.load-balance.mode: SLOTS",
                        "io.tmp.dirs: " + tmp,
                        "web.tmpdir: " + tmp.resolve("web"),
                        "web.upload.dir: " + tmp.resolve("upload"),
                        // a killed TaskManager is noticed within seconds, the job restarts quickly
                        "heartbeat.interval: 1000",
                        "heartbeat.timeout: 8000",
                        "restart-strategy.type: fixed-delay",
                        "restart-strategy.fixed-delay.attempts: 20",
                        "restart-strategy.fixed-delay.delay: 1 s",
                        "slot.request.timeout: 60000",
                        // metrics reach the REST API within a second
                        "metrics.fetcher.update-interval: 500",
                        "execution.checkpointing.dir: " + dir.resolve("checkpoints").toUri(),
                        "execution.checkpointing.savepoint-dir: "
                                + dir.resolve("savepoints").toUri(),
                        "");
        StringBuilder b = new StringBuilder();
        for (String line : conf.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && options.config().containsKey(line.substring(0, colon))) {
                continue; // overridden below
            }
            b.append(line).append('\n');
        }
        options.config().forEach((k, v) -> b.append(k).append(": ").append(v).append('\n'));
        Files.writeString(confDir.resolve("config.yaml"), b.toString());
        Files.writeString(
                confDir.resolve("log4j.properties"),
                String.join(
                        "\n",
                        "rootLogger.level = INFO",
                        "rootLogger.appenderRef.file.ref = MainAppender",
                        "appender.main.name = MainAppender",
                        "appender.main.type = File",
                        "appender.main.append = true",
                        "appender.main.fileName = ${sys:log.file}",
                        "appender.main.layout.type = PatternLayout",
                        "appender.main.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-60c %x - %m%n",
                        "logger.pekko.name = org.apache.pekko",
                        "logger.pekko.level = WARN",
                        "logger.netty.name = org.apache.flink.shaded.netty4",
                        "logger.netty.level = WARN",
                        ""));
    }

    /** Runs {@code BashJavaUtils <command>} and returns its result lines (JVM flags, -D props). */
    private List<String> bashJavaUtils(String command) throws IOException {
        ManagedProcess p =
                ManagedProcess.start(
                        "bash-java-utils-" + command,
                        List.of(
                                ManagedProcess.javaExecutable(),
                                "-cp",
                                classpath,
                                "org.apache.flink.runtime.util.bash.BashJavaUtils",
                                command,
                                "--configDir",
                                confDir.toString()),
                        dir,
                        logDir,
                        Map.of());
        int code = p.waitFor(Duration.ofSeconds(60));
        List<String> result = new ArrayList<>();
        for (String line : p.stdout().split("\n")) {
            if (line.startsWith(RESULT_PREFIX)) {
                result.add(line.substring(RESULT_PREFIX.length()));
            }
        }
        if (code != 0 || result.size() < 2) {
            throw new IllegalStateException(
                    "BashJavaUtils " + command + " failed: " + p.describe());
        }
        return result.subList(result.size() - 2, result.size());
    }

    private List<String> javaCommand(
            String logName, List<String> jvmFlags, String mainClass, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ManagedProcess.javaExecutable());
        cmd.addAll(jvmFlags);
        cmd.addAll(JAVA_OPTS);
        cmd.add("-Dlog.file=" + logDir.resolve(logName + ".log"));
        cmd.add("-Dlog4j.configurationFile=" + confDir.resolve("log4j.properties").toUri());
        cmd.add("-Dlog4j2.configurationFile=" + confDir.resolve("log4j.properties").toUri());
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    private void startJobManager() throws IOException {
        List<String> jm = bashJavaUtils("GET_JM_RESOURCE_PARAMS");
        List<String> args = new ArrayList<>();
        args.add("--configDir");
        args.add(confDir.toString());
        args.add("--executionMode");
        args.add("cluster");
        args.addAll(Arrays.asList(jm.get(1).trim().split("\\s+")));
        jobManager =
                ManagedProcess.start(
                        "jobmanager",
                        javaCommand(
                                "jobmanager",
                                Arrays.asList(jm.get(0).trim().split("\\s+")),
                                "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                                args),
                        dir,
                        logDir,
                        env());
    }

    /** The environment of the cluster's processes: its configuration and plugins directories. */
    private Map<String, String> env() {
        return options.pluginsDir() == null
                ? Map.of("FLINK_CONF_DIR", confDir.toString())
                : Map.of(
                        "FLINK_CONF_DIR",
                        confDir.toString(),
                        "FLINK_PLUGINS_DIR",
                        options.pluginsDir().toString());
    }

    /** TaskManager {@code index}'s working directory: its own, or the cluster's. */
    Path taskManagerDir(int index) {
        return options.ownWorkingDirectories() ? dir.resolve("tm-" + index) : dir;
    }

    private void awaitJobManager() {
        E2E.await(
                "the JobManager's REST API on port " + restPort,
                START_TIMEOUT,
                () -> {
                    if (!jobManager.isAlive()) {
                        throw new AssertionError("the JobManager died: " + describe());
                    }
                    return E2E.getJson(restUrl() + "/overview").has("taskmanagers");
                });
    }

    /** Starts one more TaskManager; returns its index (for {@link #killTaskManager}). */
    int startTaskManager() {
        int index = taskManagers.size();
        List<String> args = new ArrayList<>();
        args.add("--configDir");
        args.add(confDir.toString());
        args.addAll(tmDynamicProps);
        // its id in the REST API (/taskmanagers, /jobs/<id>/vertices/<vid>/taskmanagers)
        args.add("-D");
        args.add("taskmanager.resource-id=" + taskManagerId(index));
        Path workDir = taskManagerDir(index);
        if (options.ownWorkingDirectories()) {
            try {
                Files.createDirectories(workDir.resolve("tmp"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            args.add("-D");
            args.add("io.tmp.dirs=" + workDir.resolve("tmp"));
        }
        taskManagers.add(
                ManagedProcess.start(
                        "taskmanager-" + index,
                        javaCommand(
                                "taskmanager-" + index,
                                tmJvmFlags,
                                "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
                                args),
                        workDir,
                        logDir,
                        env()));
        return index;
    }

    /** The resource id TaskManager {@code index} registers with ({@code tm-<index>}). */
    static String taskManagerId(int index) {
        return "tm-" + index;
    }

    /** {@code kill -9} the TaskManager {@code index}'s JVM, as a machine failure would. */
    void killTaskManager(int index) {
        taskManagers.get(index).kill9();
    }

    /** The TaskManagers started so far (killed ones included), in start order. */
    List<ManagedProcess> taskManagerProcesses() {
        return List.copyOf(taskManagers);
    }

    ManagedProcess jobManagerProcess() {
        return jobManager;
    }

    int aliveTaskManagers() {
        return (int) taskManagers.stream().filter(ManagedProcess::isAlive).count();
    }

    /** How many TaskManagers the JobManager lists ({@code GET /taskmanagers}). */
    int registeredTaskManagers() {
        return E2E.getJson(restUrl() + "/taskmanagers").path("taskmanagers").size();
    }

    /**
     * Waits until exactly {@code n} TaskManagers are registered with the JobManager and their
     * {@value #SLOTS_PER_TASK_MANAGER} slots each are reported ({@code GET /overview}).
     */
    void awaitTaskManagers(int n) {
        E2E.await(
                n + " registered TaskManagers with their slots",
                START_TIMEOUT,
                () -> {
                    if (!jobManager.isAlive()) {
                        throw new AssertionError("the JobManager died: " + describe());
                    }
                    JsonNode o = rest("/overview");
                    return o.path("taskmanagers").asInt() == n
                            && o.path("slots-total").asInt() == n * SLOTS_PER_TASK_MANAGER
                            && registeredTaskManagers() == n;
                });
    }

    /** Starts TaskManagers until {@code n} are alive, then waits for them to be registered. */
    void ensureTaskManagers(int n) {
        while (aliveTaskManagers() < n) {
            startTaskManager();
        }
        awaitTaskManagers(n);
    }

    int restPort() {
        return restPort;
    }

    /** {@code 127.0.0.1:<rest port>}, what {@code --jobmanager} takes. */
    String restAddress() {
        return "127.0.0.1:" + restPort;
    }

    String restUrl() {
        return "http://127.0.0.1:" + restPort;
    }

    JsonNode rest(String path) {
        return E2E.getJson(restUrl() + path);
    }

    Path dir() {
        return dir;
    }

    /** Cancels job {@code jobId} ({@code PATCH /jobs/<id>?mode=cancel}) and waits until it ends. */
    void cancelJob(String jobId) {
        try {
            java.net.http.HttpClient.newHttpClient()
                    .send(
                            java.net.http.HttpRequest.newBuilder(
                                            java.net.URI.create(
                                                    restUrl() + "/jobs/" + jobId + "?mode=cancel"))
                                    .method(
                                            "PATCH",
                                            java.net.http.HttpRequest.BodyPublishers.noBody())
                                    .build(),
                            java.net.http.HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        E2E.await(
                "job " + jobId + " to end",
                Duration.ofSeconds(60),
                () -> isTerminal(jobStatus(jobId)));
    }

    /** The job's status ({@code RUNNING}, {@code FINISHED}, ...) from {@code GET /jobs/<id>}. */
    String jobStatus(String jobId) {
        return rest("/jobs/" + jobId).path("state").asText();
    }

    static boolean isTerminal(String status) {
        return status.equals("FINISHED") || status.equals("CANCELED") || status.equals("FAILED");
    }

    /** The jobs the cluster knows, newest first ({@code GET /jobs/overview}). */
    List<JsonNode> jobs() {
        List<JsonNode> jobs = new ArrayList<>();
        rest("/jobs/overview").path("jobs").forEach(jobs::add);
        jobs.sort(
                (a, b) ->
                        Long.compare(b.path("start-time").asLong(), a.path("start-time").asLong()));
        return jobs;
    }

    /**
     * Runs {@code flink run [args] jar [jobArgs]} ({@code CliFrontend} in its own JVM with this
     * cluster's configuration and the Flink classpath) against this cluster; attached, so it waits
     * for the job.
     */
    ManagedProcess flinkRun(String name, Path jar, List<String> jobArgs) {
        List<String> args = new ArrayList<>();
        args.add("run");
        args.add("-m");
        args.add(restAddress());
        args.add(jar.toString());
        args.addAll(jobArgs);
        return ManagedProcess.start(
                name,
                javaCommand(
                        name, List.of("-Xmx256m"), "org.apache.flink.client.cli.CliFrontend", args),
                dir,
                logDir,
                Map.of("FLINK_CONF_DIR", confDir.toString()));
    }

    Path logDir() {
        return logDir;
    }

    /** The processes and the tails of their logs, for failure messages. */
    String describe() {
        StringBuilder b = new StringBuilder("Flink cluster in ").append(dir);
        List<ManagedProcess> all = new ArrayList<>();
        if (jobManager != null) {
            all.add(jobManager);
        }
        all.addAll(taskManagers);
        for (ManagedProcess p : all) {
            b.append("\n== ").append(p.describe());
            Path log = logDir.resolve(p.name() + ".log");
            try {
                if (Files.exists(log)) {
                    b.append("\n--- ")
                            .append(log.getFileName())
                            .append(" (tail) ---\n")
                            .append(ManagedProcess.tail(Files.readString(log), 30));
                }
            } catch (IOException e) {
                b.append("\n(cannot read ").append(log).append(")");
            }
        }
        return b.toString();
    }

    /** SIGTERM to every TaskManager and the JobManager (by PID), SIGKILL after 10 s. */
    @Override
    public void close() {
        for (ManagedProcess tm : taskManagers) {
            tm.sigterm();
        }
        for (ManagedProcess tm : taskManagers) {
            tm.stop(Duration.ofSeconds(10));
        }
        if (jobManager != null) {
            jobManager.stop(Duration.ofSeconds(10));
        }
    }
}
