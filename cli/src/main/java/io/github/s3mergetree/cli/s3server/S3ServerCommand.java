package io.github.s3mergetree.cli.s3server;

import io.github.s3mergetree.cli.args.Args;
import io.github.s3mergetree.cli.args.UsageException;
import io.github.s3mergetree.cli.command.Subcommand;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code s3-mergetree s3-server}: a local S3 API server over a directory, for trying jobs without a
 * cloud account.
 *
 * <p>Serves {@code --root DIR} (created if missing) with {@link LocalS3Server} (S3Proxy, filesystem
 * store) on {@code 127.0.0.1} only: each subdirectory of DIR is a bucket, the files below it are
 * its objects (created buckets and uploaded objects land there too; a subdirectory is also listed
 * as an empty marker object {@code name/}, S3Proxy's filesystem store's habit). Requests must be
 * signed (AWS Signature V2 or V4, path-style) with the access key and secret key given by {@code
 * --access-key} / {@code --secret-key} (both or neither), by default {@value #DEFAULT_ACCESS_KEY} /
 * {@value #DEFAULT_SECRET_KEY}. {@code --port 0} (the default) picks a free port.
 *
 * <p>Once the server accepts requests it prints the endpoint, the buckets and the access key to
 * stderr (never the secret key), and one JSON line {@code
 * {"endpoint":"http://127.0.0.1:P","port":P}} to stdout, then serves until SIGTERM or SIGINT
 * (Ctrl-C), when it stops the server and prints {@code stopped} to stderr. As with any JVM killed
 * by a signal, the exit status is then 128 + the signal number (143 for SIGTERM).
 */
public final class S3ServerCommand implements Subcommand {
    /** The access key when {@code --access-key} is not given. */
    public static final String DEFAULT_ACCESS_KEY = "s3mergetree";

    /** The secret key when {@code --secret-key} is not given. */
    public static final String DEFAULT_SECRET_KEY = "s3mergetree-secret";

    private final CountDownLatch stopRequested = new CountDownLatch(1);

    @Override
    public String name() {
        return "s3-server";
    }

    @Override
    public String usage() {
        return "s3-server --root DIR [--port P] [--access-key K --secret-key S]";
    }

    /** Asks a running {@link #run} to stop the server and return 0 (as SIGTERM does). */
    void stop() {
        stopRequested.countDown();
    }

    @Override
    public int run(List<String> argv, PrintStream out, PrintStream err) throws Exception {
        Args a =
                Args.parse(
                        argv,
                        Set.of("--root", "--port", "--access-key", "--secret-key"),
                        Set.of("--verbose"),
                        Set.of());
        Path root = Paths.get(a.required("--root")).toAbsolutePath();
        int port = port(a);
        if (a.has("--access-key") != a.has("--secret-key")) {
            throw new UsageException("give both --access-key and --secret-key, or neither");
        }
        String accessKey = a.get("--access-key").orElse(DEFAULT_ACCESS_KEY);
        String secretKey = a.get("--secret-key").orElse(DEFAULT_SECRET_KEY);
        if (accessKey.isEmpty() || secretKey.isEmpty()) {
            throw new UsageException("--access-key and --secret-key must not be empty");
        }
        if (Files.exists(root) && !Files.isDirectory(root)) {
            throw new IllegalArgumentException("--root " + root + " is not a directory");
        }

        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook =
                new Thread(
                        () -> {
                            stopRequested.countDown();
                            try {
                                stopped.await(10, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        "s3-server-shutdown");
        boolean started = false;
        try (LocalS3Server server = LocalS3Server.start(root, port, accessKey, secretKey)) {
            started = true;
            Runtime.getRuntime().addShutdownHook(hook);
            err.printf(
                    Locale.ROOT,
                    "S3 API server (S3Proxy) on %s over %s, buckets: %s%n",
                    server.endpoint(),
                    root,
                    buckets(root));
            err.printf(
                    Locale.ROOT,
                    "path-style requests signed with access key '%s' (secret key: %s); stop with"
                            + " Ctrl-C or SIGTERM%n",
                    accessKey,
                    a.has("--secret-key") ? "as given" : "the default, see --help");
            err.flush();
            out.printf(
                    Locale.ROOT,
                    "{\"endpoint\":\"%s\",\"port\":%d}%n",
                    server.endpoint(),
                    server.port());
            out.flush();
            stopRequested.await();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException | IllegalArgumentException e) {
                // the JVM is shutting down (the hook is running), or it was never added
            }
            if (started) {
                err.println("stopped");
                err.flush();
            }
            stopped.countDown();
        }
        return 0;
    }

    private static int port(Args a) throws UsageException {
        String v = a.get("--port").orElse("0");
        try {
            int p = Integer.parseInt(v);
            if (p >= 0 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException(
                "--port must be an integer in 0..65535 (0 = any free port), not '" + v + "'");
    }

    private static String buckets(Path root) throws java.io.IOException {
        if (!Files.isDirectory(root)) {
            return "(none yet)";
        }
        try (Stream<Path> s = Files.list(root)) {
            List<String> names =
                    s.filter(Files::isDirectory)
                            .map(p -> p.getFileName().toString())
                            .filter(n -> !n.startsWith("."))
                            .sorted()
                            .toList();
            return names.isEmpty() ? "(none yet)" : String.join(", ", names);
        }
    }
}
