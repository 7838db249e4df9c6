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
import java.util.Set;
import java.util.stream.Stream;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * {@code s3-mergetree demo}: the whole product on an embedded default.
 *
 * <p>Writes F Parquet files of N StackOverflow-posts-like rows each into a local bucket directory,
 * serves it with an S3 API server on loopback ({@link LocalS3Server}), runs a Flink job on a local
 * MiniCluster (S3 source → MergeTree sink, OPTIMIZE FINAL at the end) into {@code
 * <work-dir>/table}, and prints the SQL that attaches the result into ClickHouse and, as the last
 * stdout line, a JSON summary.
 */
public final class DemoCommand implements Subcommand {
    static final String BUCKET = "demo";
    static final String ACCESS_KEY = "demo-access";
    static final String SECRET_KEY = "demo-secret";

    @Override
    public String name() {
        return "demo";
    }

    @Override
    public String usage() {
        return "demo [--rows N] [--files F] [--work-dir DIR] [--parallelism P] [--verbose]";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        return demo(DemoOptions.parse(args), out, err);
    }

    /** The demo's options. */
    record DemoOptions(long rows, int files, Path workDir, int parallelism) {
        static DemoOptions parse(List<String> argv) throws UsageException, IOException {
            Args a =
                    Args.parse(
                            argv,
                            Set.of("--rows", "--files", "--work-dir", "--parallelism"),
                            Set.of("--verbose"),
                            Set.of());
            long rows = a.positive("--rows", 20_000);
            int files = (int) a.positive("--files", 12);
            int parallelism = (int) a.positive("--parallelism", 2);
            if (rows * files > Integer.MAX_VALUE) {
                throw new UsageException("--rows × --files must be at most " + Integer.MAX_VALUE);
            }
            Path workDir =
                    a.get("--work-dir").isPresent()
                            ? Paths.get(a.get("--work-dir").get())
                            : Files.createTempDirectory("s3-mergetree-demo-");
            return new DemoOptions(rows, files, workDir.toAbsolutePath(), parallelism);
        }
    }

    private int demo(DemoOptions o, PrintStream out, PrintStream err) throws Exception {
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
            Path file =
                    store.resolve(BUCKET)
                            .resolve("posts")
                            .resolve(String.format(Locale.ROOT, "part-%04d.parquet", f));
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
        long rowsIn;
        double seconds;
        try (LocalS3Server server = LocalS3Server.start(store, 0, ACCESS_KEY, SECRET_KEY)) {
            URI endpoint = server.endpoint();
            err.printf(
                    Locale.ROOT, "S3 API server (S3Proxy) on %s, bucket '%s'%n", endpoint, BUCKET);
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
        long partsWritten =
                log.stream().filter(l -> l.contains("\"event_type\":\"NewPart\"")).count();
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
}
