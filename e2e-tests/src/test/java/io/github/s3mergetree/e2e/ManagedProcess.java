package io.github.s3mergetree.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A child process of the test JVM whose stdout and stderr go to files, ended by its PID (and its
 * descendants') when {@link #close closed}, and in any case when the test JVM exits: a JVM shutdown
 * hook kills every process started here that is still alive, so a failing or aborted test leaves
 * nothing behind.
 */
final class ManagedProcess implements AutoCloseable {
    private static final Set<ManagedProcess> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(() -> LIVE.forEach(p -> p.killNow()), "e2e-process-reaper"));
    }

    private final String name;
    private final Process process;
    private final Path stdout;
    private final Path stderr;
    private final List<String> command;

    private ManagedProcess(
            String name, Process process, Path stdout, Path stderr, List<String> command) {
        this.name = name;
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
        this.command = command;
    }

    /**
     * Starts {@code command} in {@code workDir}; its output goes to {@code logDir/<name>.out} and
     * {@code .err} (appended, so a restarted process keeps the earlier output).
     */
    static ManagedProcess start(
            String name, List<String> command, Path workDir, Path logDir, Map<String, String> env) {
        try {
            Files.createDirectories(logDir);
            Files.createDirectories(workDir);
            Path out = logDir.resolve(name + ".out");
            Path err = logDir.resolve(name + ".err");
            ProcessBuilder pb =
                    new ProcessBuilder(command)
                            .directory(workDir.toFile())
                            .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()))
                            .redirectError(ProcessBuilder.Redirect.appendTo(err.toFile()));
            pb.environment().putAll(env);
            ManagedProcess p = new ManagedProcess(name, pb.start(), out, err, List.copyOf(command));
            LIVE.add(p);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command, e);
        }
    }

    /** {@code java} of the running JVM. */
    static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Process process() {
        return process;
    }

    /** Waits for the exit; returns the exit code, or fails (killing the process) on timeout. */
    int waitFor(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                String tail = describe();
                killNow();
                throw new AssertionError(
                        name + " did not end within " + timeout + "; killed it\n" + tail);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            killNow();
            throw new AssertionError("interrupted waiting for " + name, e);
        }
        LIVE.remove(this);
        return process.exitValue();
    }

    /** SIGTERM to the process (by PID), as an operator's Ctrl-C or {@code kill PID} would. */
    void sigterm() {
        process.toHandle().destroy();
    }

    /** {@code kill -9 PID} (and its descendants), then waits for it to be gone. */
    void kill9() {
        killNow();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void killNow() {
        List<ProcessHandle> family = new ArrayList<>(process.descendants().toList());
        process.toHandle().destroyForcibly();
        family.forEach(ProcessHandle::destroyForcibly);
        LIVE.remove(this);
    }

    /** SIGTERM, up to {@code grace} to exit, then SIGKILL. Idempotent. */
    void stop(Duration grace) {
        if (process.isAlive()) {
            List<ProcessHandle> family = new ArrayList<>(process.descendants().toList());
            process.toHandle().destroy();
            try {
                if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    killNow();
                    process.waitFor(30, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                killNow();
            }
            family.forEach(ProcessHandle::destroyForcibly);
        }
        LIVE.remove(this);
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(10));
    }

    String stdout() {
        return read(stdout);
    }

    String stderr() {
        return read(stderr);
    }

    Path stdoutFile() {
        return stdout;
    }

    Path stderrFile() {
        return stderr;
    }

    /** The command and the last lines of its output, for failure messages. */
    String describe() {
        return name
                + " (pid "
                + process.pid()
                + (process.isAlive() ? ", running" : ", exit code " + process.exitValue())
                + "): "
                + String.join(" ", command)
                + "\n--- stdout (tail) ---\n"
                + tail(stdout(), 40)
                + "\n--- stderr (tail) ---\n"
                + tail(stderr(), 60);
    }

    static String tail(String text, int lines) {
        String[] all = text.split("\n", -1);
        int from = Math.max(0, all.length - lines);
        return String.join("\n", java.util.Arrays.copyOfRange(all, from, all.length));
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }

    @Override
    public String toString() {
        return name + "[pid " + process.pid() + "]";
    }
}
