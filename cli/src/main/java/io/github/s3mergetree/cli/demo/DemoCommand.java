package io.github.s3mergetree.cli.demo;

import io.github.s3mergetree.cli.args.Args;
import io.github.s3mergetree.cli.args.UsageException;
import io.github.s3mergetree.cli.command.Subcommand;
import io.github.s3mergetree.cli.ingest.FlinkFileSystems;
import io.github.s3mergetree.cli.ingest.IngestCommand;
import io.github.s3mergetree.cli.parts.TableParts;
import io.github.s3mergetree.cli.s3server.BucketNames;
import io.github.s3mergetree.cli.s3server.LocalS3Server;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.sink.mergetree.storage.S3TableStorage;
import io.github.s3mergetree.sink.mergetree.storage.TableLocation;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code s3-mergetree demo}: the whole product on an embedded default.
 *
 * <p>Writes F Parquet files of N StackOverflow-posts-like rows each into a local bucket directory,
 * serves it with an S3 API server on loopback ({@link LocalS3Server}), runs a Flink job on a local
 * MiniCluster (S3 source → MergeTree sink, OPTIMIZE FINAL at the end) into {@code
 * <work-dir>/table}, and prints the SQL that attaches the result into ClickHouse and, as the last
 * stdout line, a JSON summary.
 *
 * <p>With {@code --table-path s3://bucket/prefix} the table is written to the same embedded S3
 * server instead (its checkpoints too, through Flink's S3 plugin), and the SQL printed is the
 * in-place {@code ATTACH TABLE … SETTINGS table_disk = 1, disk = disk(type = s3_plain, …)} that
 * reads it from the bucket while {@code s3-mergetree s3-server} serves the work directory's {@code
 * s3/} again on the same port.
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
        return "demo [--rows N] [--files F] [--work-dir DIR] [--parallelism P]"
                + " [--table-path s3://bucket/prefix] [--verbose]";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        return demo(DemoOptions.parse(args), out, err);
    }

    /** The demo's options. */
    record DemoOptions(long rows, int files, Path workDir, int parallelism, String s3Table) {
        static DemoOptions parse(List<String> argv) throws UsageException, IOException {
            Args a =
                    Args.parse(
                            argv,
                            Set.of(
                                    "--rows",
                                    "--files",
                                    "--work-dir",
                                    "--parallelism",
                                    "--table-path"),
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
            String s3Table = a.get("--table-path").orElse(null);
            if (s3Table != null) {
                // the demo's table is local or on its own embedded S3: nothing else
                if (!s3Table.startsWith("s3://")) {
                    throw new UsageException(
                            "demo --table-path takes s3://bucket/prefix (a table on the demo's"
                                    + " embedded S3 server), not '"
                                    + s3Table
                                    + "'; without it the table is <work-dir>/table");
                }
                String rest = s3Table.substring("s3://".length()).replaceAll("/+$", "");
                int slash = rest.indexOf('/');
                String bucket = slash < 0 ? rest : rest.substring(0, slash);
                if (slash < 0 || slash == rest.length() - 1) {
                    throw new UsageException(
                            "demo --table-path needs a prefix under the bucket"
                                    + " (s3://bucket/tables/posts), not '"
                                    + s3Table
                                    + "'");
                }
                if (bucket.equals(BUCKET)) {
                    throw new UsageException(
                            "demo --table-path: bucket '"
                                    + BUCKET
                                    + "' holds the demo's input; choose another bucket");
                }
                Optional<String> problem = BucketNames.problem(bucket);
                if (problem.isPresent()) {
                    throw new UsageException("demo --table-path: " + problem.get());
                }
                s3Table = "s3://" + rest;
            }
            return new DemoOptions(rows, files, workDir.toAbsolutePath(), parallelism, s3Table);
        }
    }

    private int demo(DemoOptions o, PrintStream out, PrintStream err) throws Exception {
        Path store = o.workDir().resolve("s3");
        Path table =
                o.s3Table() == null
                        ? o.workDir().resolve("table")
                        : store.resolve(o.s3Table().substring("s3://".length())); // its objects
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

        // 2. an S3 API server over them, then the ingest job (the same as `s3-mergetree ingest`)
        long rowsIn = o.rows() * o.files();
        Path ddlFile = o.workDir().resolve("posts.sql");
        Files.writeString(ddlFile, PostsGenerator.DDL + "\n");
        String summary;
        String tablePath = o.s3Table() != null ? o.s3Table() : table.toString();
        String attach = null;
        List<ActivePart> parts;
        long rows = 0;
        long bytesUncompressed = 0;
        long bytesOnDisk = 0;
        long partsWritten;
        long merges;
        if (o.s3Table() != null) {
            // the table's bucket, a directory of the server's store
            Files.createDirectories(store.resolve(bucketOf(o.s3Table())));
        }
        try (LocalS3Server server = LocalS3Server.start(store, 0, ACCESS_KEY, SECRET_KEY)) {
            URI endpoint = server.endpoint();
            err.printf(
                    Locale.ROOT, "S3 API server (S3Proxy) on %s, bucket '%s'%n", endpoint, BUCKET);
            err.printf(
                    Locale.ROOT,
                    "running the Flink job on a local MiniCluster (parallelism %d)...%n",
                    o.parallelism());
            ByteArrayOutputStream jobOut = new ByteArrayOutputStream();
            List<String> checkpoints = List.of();
            if (o.s3Table() != null && !FlinkFileSystems.hasS3PluginOfThisFlink()) {
                // no S3 plugin of this Flink (the 1.20 build): checkpoints in the work directory
                checkpoints =
                        List.of("--checkpoint-dir", o.workDir().resolve("checkpoints").toString());
                err.println(
                        "no flink-s3-fs-presto plugin of this Flink: the checkpoints go to "
                                + o.workDir().resolve("checkpoints"));
            }
            List<String> ingestArgs = new ArrayList<>(checkpoints);
            int code =
                    new IngestCommand()
                            .run(
                                    concat(
                                            ingestArgs,
                                            "--source",
                                            "s3://" + BUCKET + "/posts/*.parquet",
                                            "--format",
                                            "Parquet",
                                            "--table-ddl-file",
                                            ddlFile.toString(),
                                            "--table-path",
                                            tablePath,
                                            "--s3-endpoint",
                                            endpoint.toString(),
                                            "--s3-access-key",
                                            ACCESS_KEY,
                                            "--s3-secret-key",
                                            SECRET_KEY,
                                            "--s3-path-style",
                                            "--parallelism",
                                            Integer.toString(o.parallelism()),
                                            "--checkpoint-interval",
                                            "2s",
                                            "--optimize-final"),
                                    new PrintStream(jobOut, true, StandardCharsets.UTF_8),
                                    err);
            String[] lines = jobOut.toString(StandardCharsets.UTF_8).strip().split("\n");
            summary = lines[lines.length - 1];
            if (code != 0 || !summary.startsWith("{")) {
                throw new IllegalStateException("the ingest job failed (exit code " + code + ")");
            }

            // 3. the result, as the table's store shows it (the S3 server still runs)
            TableLocation.S3Settings d = TableLocation.S3Settings.defaults();
            TableStorage storage =
                    TableLocation.parse(
                            tablePath,
                            new TableLocation.S3Settings(
                                    endpoint,
                                    null,
                                    true,
                                    ACCESS_KEY,
                                    SECRET_KEY,
                                    d.connectTimeout(),
                                    d.requestTimeout()));
            try (TableStore tableStore = storage.openStore()) {
                String ddl = MergeTreeTable.storedDdl(tableStore).orElse(PostsGenerator.DDL);
                MergeTreeTable t =
                        MergeTreeTable.open(
                                tableStore, TableLayouts.fromDdl(ddl), Clock.systemUTC());
                parts = new ArrayList<>(t.activeParts());
                for (ActivePart p : parts) {
                    rows += p.rows();
                    bytesUncompressed += p.dataUncompressedBytes();
                    bytesOnDisk += p.bytesOnDisk();
                }
                List<String> log = t.partLog().lines();
                partsWritten =
                        log.stream().filter(l -> l.contains("\"event_type\":\"NewPart\"")).count();
                merges =
                        log.stream()
                                .filter(l -> l.contains("\"event_type\":\"MergeParts\""))
                                .count();
                t.close();
                if (storage instanceof S3TableStorage s3) {
                    attach = TableParts.attachStatement(s3, ddl, SECRET_KEY);
                }
            }
            if (rows != rowsIn) {
                throw new IllegalStateException(
                        "the table has " + rows + " rows, " + rowsIn + " were generated");
            }
            err.printf(
                    Locale.ROOT,
                    "%d rows, %d parts written, %d merges, %d active parts"
                            + " (%.1f MB on disk, %.1f MB uncompressed) in %s%n",
                    rows,
                    partsWritten,
                    merges,
                    parts.size(),
                    bytesOnDisk / 1e6,
                    bytesUncompressed / 1e6,
                    tablePath);
            if (attach != null) {
                out.println(
                        "-- Attach the table into ClickHouse in place (ClickHouse reads it from the"
                                + " bucket), while the S3 server serves it again:");
                out.println(
                        "--   ./s3-mergetree s3-server --root "
                                + store
                                + " --port "
                                + endpoint.getPort()
                                + " --access-key "
                                + ACCESS_KEY
                                + " --secret-key "
                                + SECRET_KEY);
                out.println(attach + ";");
            }
        }

        if (attach == null) {
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
        }
        out.println("CHECK TABLE posts;");
        out.println("SELECT count() FROM posts;  -- " + rows);
        out.println(summary);
        out.flush();
        return 0;
    }

    private static List<String> concat(List<String> first, String... more) {
        List<String> all = new ArrayList<>(first);
        all.addAll(List.of(more));
        return all;
    }

    /** The bucket of {@code s3://bucket/prefix}. */
    private static String bucketOf(String s3Path) {
        String rest = s3Path.substring("s3://".length());
        return rest.substring(0, rest.indexOf('/'));
    }
}
