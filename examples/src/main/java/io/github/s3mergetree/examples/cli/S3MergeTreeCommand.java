package io.github.s3mergetree.examples.cli;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableDirectory;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.sink.mergetree.MergeTreeSinkOptions;
import io.github.s3mergetree.source.s3.S3Source;
import io.github.s3mergetree.source.s3.format.ParquetBlockFormat;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * The {@code s3-mergetree} command.
 *
 * <pre>
 * s3-mergetree demo [--rows N] [--files F] [--work-dir DIR] [--parallelism P] [--verbose]
 * </pre>
 *
 * <p>{@code demo} writes F Parquet files of N StackOverflow-posts-like rows each into a local
 * bucket directory, serves it with S3Proxy on loopback, runs a Flink job on a local MiniCluster
 * (S3 source → MergeTree sink, OPTIMIZE FINAL at the end) into {@code <work-dir>/table}, and prints
 * the SQL that attaches the result into ClickHouse and, as the last stdout line, a JSON summary.
 */
public final class S3MergeTreeCommand {
    static final String BUCKET = "demo";
    static final String ACCESS_KEY = "demo-access";
    static final String SECRET_KEY = "demo-secret";

    private static final String USAGE =
            "usage: s3-mergetree demo [--rows N] [--files F] [--work-dir DIR] [--parallelism P]"
                    + " [--verbose]";

    private final PrintStream out;
    private final PrintStream err;

    S3MergeTreeCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        int code = new S3MergeTreeCommand(System.out, System.err).run(args);
        System.out.flush();
        System.exit(code);
    }

    /** Runs the command; returns the exit code. */
    int run(String[] args) {
        boolean verbose = List.of(args).contains("--verbose");
        try {
            if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
                err.println(USAGE);
                return args.length == 0 ? 2 : 0;
            }
            if (!args[0].equals("demo")) {
                throw new UsageException("unknown command '" + args[0] + "'");
            }
            return demo(DemoOptions.parse(args));
        } catch (UsageException e) {
            err.println("s3-mergetree: " + e.getMessage());
            err.println(USAGE);
            return 2;
        } catch (Throwable e) {
            err.println("s3-mergetree: error: " + rootMessage(e));
            if (verbose) {
                e.printStackTrace(err);
            } else {
                err.println("(run with --verbose for the stack trace)");
            }
            return 1;
        }
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m =
                t.getMessage() == null
                        ? t.getClass().getSimpleName()
                        : t instanceof Error
                                ? t.getClass().getSimpleName() + ": " + t.getMessage()
                                : t.getMessage();
        return m.replace('\n', ' ');
    }

    /** The demo's options. */
    record DemoOptions(long rows, int files, Path workDir, int parallelism) {
        static DemoOptions parse(String[] args) throws UsageException, IOException {
            long rows = 20_000;
            int files = 12;
            Path workDir = null;
            int parallelism = 2;
            for (int i = 1; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--verbose" -> {}
                    case "--rows" -> rows = positive(a, value(args, ++i, a));
                    case "--files" -> files = (int) positive(a, value(args, ++i, a));
                    case "--parallelism" -> parallelism = (int) positive(a, value(args, ++i, a));
                    case "--work-dir" -> workDir = Paths.get(value(args, ++i, a));
                    default -> throw new UsageException("unknown option '" + a + "'");
                }
            }
            if (rows * files > Integer.MAX_VALUE) {
                throw new UsageException("--rows × --files must be at most " + Integer.MAX_VALUE);
            }
            if (workDir == null) {
                workDir = Files.createTempDirectory("s3-mergetree-demo-");
            }
            return new DemoOptions(rows, files, workDir.toAbsolutePath(), parallelism);
        }

        private static String value(String[] args, int i, String option) throws UsageException {
            if (i >= args.length) {
                throw new UsageException(option + " needs a value");
            }
            return args[i];
        }

        private static long positive(String option, String v) throws UsageException {
            try {
                long n = Long.parseLong(v);
                if (n > 0 && n <= Integer.MAX_VALUE) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // below
            }
            throw new UsageException(option + " must be a positive integer, not '" + v + "'");
        }
    }

    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    int demo(DemoOptions o) throws Exception {
        Path table = o.workDir().resolve("table");
        Path store = o.workDir().resolve("s3");
        if (Files.isDirectory(table)) {
            try (Stream<Path> s = Files.list(table)) {
                if (s.findAny().isPresent()) {
                    throw new IllegalStateException(
                            table + " is not empty: choose another --work-dir, or delete it");
                }
            }
        }
        err.printf(Locale.ROOT, "work dir: %s%n", o.workDir());

        // 1. the input: Parquet files in a bucket directory of S3Proxy's filesystem store
        long t0 = System.nanoTime();
        PostsGenerator gen = new PostsGenerator(1);
        long parquetBytes = 0;
        for (int f = 0; f < o.files(); f++) {
            Path file = store.resolve(BUCKET).resolve("posts").resolve(String.format(
                    Locale.ROOT, "part-%04d.parquet", f));
            parquetBytes += gen.write(file, 1 + (long) f * o.rows(), o.rows());
        }
        err.printf(
                Locale.ROOT,
                "generated %d Parquet files, %d rows, %.1f MB in %.1f s under %s%n",
                o.files(),
                o.rows() * o.files(),
                parquetBytes / 1e6,
                (System.nanoTime() - t0) / 1e9,
                store.resolve(BUCKET));

        // 2. an S3 API server over them, then the Flink job
        BlobStoreContext context = blobStore(store);
        S3Proxy proxy = null;
        long rowsIn;
        double seconds;
        try {
            proxy = startProxy(context);
            URI endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
            err.printf(Locale.ROOT, "S3 API server (S3Proxy) on %s, bucket '%s'%n", endpoint, BUCKET);

            S3Source<Block> source =
                    S3Source.builder(
                                    new ParquetBlockFormat(
                                            TargetSchema.parse(PostsGenerator.COLUMNS)))
                            .setLocation("s3://" + BUCKET + "/posts/*.parquet")
                            .setEndpoint(endpoint)
                            .setPathStyleAccess(true)
                            .setCredentials(ACCESS_KEY, SECRET_KEY)
                            .setBounded()
                            .build();
            MergeTreeSink<Block> sink =
                    MergeTreeSink.forBlocks()
                            .setTablePath(table.toString())
                            .setDdl(PostsGenerator.DDL)
                            .setOption(MergeTreeSinkOptions.OPTIMIZE_FINAL, true)
                            .build();

            Configuration conf = new Configuration();
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.createLocalEnvironment(o.parallelism(), conf);
            env.setRuntimeMode(RuntimeExecutionMode.BATCH);
            env.fromSource(source, WatermarkStrategy.noWatermarks(), "s3://demo/posts/*.parquet")
                    .sinkTo(sink)
                    .name("MergeTree posts");
            err.printf(
                    Locale.ROOT,
                    "running the Flink job on a local MiniCluster (parallelism %d)...%n",
                    o.parallelism());
            long t1 = System.nanoTime();
            env.execute("s3-mergetree demo");
            seconds = (System.nanoTime() - t1) / 1e9;
            rowsIn = o.rows() * o.files();
        } finally {
            if (proxy != null) {
                proxy.stop();
            }
            context.close();
        }

        // 3. the result, as the table directory shows it
        String ddl = TableDirectory.open(table).storedDdl().orElse(PostsGenerator.DDL);
        MergeTreeTable t = MergeTreeTable.open(table, TableLayouts.fromDdl(ddl), Clock.systemUTC());
        List<ActivePart> parts = new ArrayList<>(t.activeParts());
        long rows = 0;
        long bytesUncompressed = 0;
        long bytesOnDisk = 0;
        for (ActivePart p : parts) {
            rows += p.rows();
            bytesUncompressed += p.dataUncompressedBytes();
            bytesOnDisk += p.bytesOnDisk();
        }
        List<String> log = t.partLog().lines();
        long partsWritten = log.stream().filter(l -> l.contains("\"event_type\":\"NewPart\"")).count();
        long merges = log.stream().filter(l -> l.contains("\"event_type\":\"MergeParts\"")).count();
        if (rows != rowsIn) {
            throw new IllegalStateException(
                    "the table has " + rows + " rows, " + rowsIn + " were generated");
        }
        err.printf(
                Locale.ROOT,
                "done in %.1f s: %d rows, %d parts written, %d merges, %d active parts"
                        + " (%.1f MB on disk, %.1f MB uncompressed) in %s%n",
                seconds,
                rows,
                partsWritten,
                merges,
                parts.size(),
                bytesOnDisk / 1e6,
                bytesUncompressed / 1e6,
                table);

        out.println("-- Attach the result into ClickHouse:");
        out.println(PostsGenerator.DDL + ";");
        out.println("-- copy the active parts into the table's detached/ directory, e.g.:");
        for (ActivePart p : parts) {
            out.println(
                    "--   cp -r "
                            + table.resolve(p.name().toString())
                            + " /var/lib/clickhouse/data/default/posts/detached/");
        }
        out.println("-- (and chown -R clickhouse:clickhouse them), then:");
        for (ActivePart p : parts) {
            out.println("ALTER TABLE posts ATTACH PART '" + p.name() + "';");
        }
        out.println("CHECK TABLE posts;");
        out.println("SELECT count() FROM posts;  -- " + rows);
        out.printf(
                Locale.ROOT,
                "{\"rows\":%d,\"bytes_uncompressed\":%d,\"seconds\":%.3f,\"rows_per_s\":%.0f,"
                        + "\"parts_written\":%d,\"active_parts\":%d,\"merges\":%d}%n",
                rows,
                bytesUncompressed,
                seconds,
                seconds > 0 ? rows / seconds : 0.0,
                partsWritten,
                parts.size(),
                merges);
        out.flush();
        return 0;
    }

    private static BlobStoreContext blobStore(Path baseDir) throws IOException {
        Files.createDirectories(baseDir);
        Properties props = new Properties();
        props.setProperty("jclouds.filesystem.basedir", baseDir.toString());
        return ContextBuilder.newBuilder("filesystem")
                .credentials("identity", "credential")
                .overrides(props)
                .build(BlobStoreContext.class);
    }

    private static S3Proxy startProxy(BlobStoreContext context) throws Exception {
        S3Proxy proxy =
                S3Proxy.builder()
                        .blobStore(context.getBlobStore())
                        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                        .endpoint(URI.create("http://127.0.0.1:0"))
                        .ignoreUnknownHeaders(true)
                        .build();
        proxy.start();
        long deadline = System.currentTimeMillis() + 30_000;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.currentTimeMillis() > deadline) {
                proxy.stop();
                throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
            }
            Thread.sleep(10);
        }
        return proxy;
    }
}
