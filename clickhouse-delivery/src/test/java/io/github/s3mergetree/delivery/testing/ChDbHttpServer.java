package io.github.s3mergetree.delivery.testing;

import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.server.ServerInfo;
import io.github.s3mergetree.engine.testing.ChDb;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A live "ClickHouse 26.x server" for tests: chDB behind {@code tools/chdb/chdb-http-server.js},
 * which speaks the subset of ClickHouse's HTTP interface the delivery client uses, on 127.0.0.1 and
 * a free port. Its databases persist under the session directory, so a test can stop it and start
 * it again over the same data (a server restart). {@link #close()} ends it; if the JVM dies, the
 * process exits because its stdin closes.
 */
public final class ChDbHttpServer implements AutoCloseable {
    private static final Pattern PORT = Pattern.compile("\\{\"port\":(\\d+)\\}");

    private final Process process;
    private final int port;
    private final Path sessionDir;
    private final Path stderr;
    private final String user;
    private final String password;

    private ChDbHttpServer(
            Process process, int port, Path sessionDir, Path stderr, String user, String password) {
        this.process = process;
        this.port = port;
        this.sessionDir = sessionDir;
        this.stderr = stderr;
        this.user = user;
        this.password = password;
    }

    /** Starts a server over {@code sessionDir} for user {@code default} without a password. */
    public static ChDbHttpServer start(Path sessionDir) throws IOException {
        return start(sessionDir, "default", "");
    }

    /**
     * Starts a server over {@code sessionDir} that accepts only {@code user} / {@code password}.
     */
    public static ChDbHttpServer start(Path sessionDir, String user, String password)
            throws IOException {
        Path chdbDir = ChDb.locateChDbDir();
        Files.createDirectories(sessionDir);
        Path stderr = Files.createTempFile(sessionDir.getParent(), "chdb-http-", ".err");
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("chdb.node", "node"));
        command.add(chdbDir.resolve("chdb-http-server.js").toString());
        command.add(sessionDir.toAbsolutePath().toString());
        command.add("--user");
        command.add(user);
        command.add("--password");
        command.add(password);
        Process p =
                new ProcessBuilder(command)
                        .redirectError(stderr.toFile())
                        .redirectInput(ProcessBuilder.Redirect.PIPE)
                        .start();
        BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String line;
        while ((line = out.readLine()) != null) {
            Matcher m = PORT.matcher(line);
            if (m.find()) {
                return new ChDbHttpServer(
                        p, Integer.parseInt(m.group(1)), sessionDir, stderr, user, password);
            }
            if (System.nanoTime() > deadline) {
                break;
            }
        }
        p.destroyForcibly();
        throw new IOException("chdb-http-server did not start: " + Files.readString(stderr).trim());
    }

    /**
     * Waits until the server's {@code uptime()} is above {@code seconds}. A RESTORE delivery whose
     * intent was recorded within a second of the server's start cannot tell a server that was up
     * before the intent from one restarted after it ({@code now() - uptime()} is whole seconds),
     * and refuses to guess: a test that kills a delivery before its RESTORE was sent, right after
     * starting the server, waits here first so that its rerun can prove the RESTORE was never sent.
     */
    public void awaitUptimeAbove(int seconds) throws IOException, InterruptedException {
        ClickHouseHttpClient client =
                ClickHouseHttpClient.create(
                        ClickHouseEndpoint.of(url()).withCredentials(user, password));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds + 60L);
        long uptime;
        while ((uptime = ServerInfo.read(client).uptimeSeconds()) <= seconds) {
            if (System.nanoTime() > deadline) {
                throw new IOException("uptime() of " + this + " still " + uptime + " s");
            }
            Thread.sleep(200);
        }
    }

    public int port() {
        return port;
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public Path sessionDir() {
        return sessionDir;
    }

    public long pid() {
        return process.pid();
    }

    /** Kills the server at once (SIGKILL), as a crash would. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException, IOException {
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(15, TimeUnit.SECONDS);
        }
        Files.deleteIfExists(stderr);
    }

    @Override
    public String toString() {
        return "chdb-http-server " + url() + " over " + sessionDir + " (stderr " + stderr + ")";
    }
}
