package io.github.s3mergetree.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The test data: StackOverflow-posts-like monthly Parquet files written by ClickHouse itself
 * ({@code node ../shared/tools/gen-posts.js OUTDIR MONTHS ROWS_PER_MONTH SEED}), and their table
 * ({@code ../shared/tools/posts.sql}). Generated once per run and size.
 */
final class Posts {
    private static final Map<String, List<Path>> GENERATED = new ConcurrentHashMap<>();

    private Posts() {}

    /** {@code posts.sql}: the CREATE TABLE of table {@code posts}. */
    static Path ddlFile() {
        Path f = E2E.sharedDir().resolve("tools/posts.sql");
        if (!Files.isRegularFile(f)) {
            throw new IllegalStateException("no " + f + " (is -Dshared.dir right?)");
        }
        return f;
    }

    static String ddl() {
        try {
            return Files.readString(ddlFile()).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code months} Parquet files ({@code 2008-07.parquet}, ... one per month from July 2008) with
     * {@code rowsPerMonth} rows each, pseudo-random from {@code seed}.
     */
    static List<Path> generate(int months, int rowsPerMonth, int seed) {
        return GENERATED.computeIfAbsent(
                months + "x" + rowsPerMonth + "-" + seed,
                key -> {
                    Path dir = E2E.newDir("posts-" + key);
                    Path chdbModule =
                            io.github.s3mergetree.engine.testing.ChDb.locateChDbDir()
                                    .resolve("node_modules/chdb");
                    ManagedProcess gen =
                            ManagedProcess.start(
                                    "gen-posts",
                                    List.of(
                                            System.getProperty("chdb.node", "node"),
                                            E2E.sharedDir()
                                                    .resolve("tools/gen-posts.js")
                                                    .toString(),
                                            dir.resolve("files").toString(),
                                            Integer.toString(months),
                                            Integer.toString(rowsPerMonth),
                                            Integer.toString(seed)),
                                    dir,
                                    dir,
                                    Map.of("CHDB_MODULE", chdbModule.toString()));
                    int code = gen.waitFor(Duration.ofMinutes(3));
                    if (code != 0) {
                        throw new IllegalStateException("gen-posts.js failed: " + gen.describe());
                    }
                    try (Stream<Path> s = Files.list(dir.resolve("files"))) {
                        List<Path> files = new ArrayList<>(s.sorted().toList());
                        if (files.size() != months) {
                            throw new IllegalStateException(
                                    "gen-posts.js wrote " + files + ": " + gen.describe());
                        }
                        return files;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    /** Uploads {@code files} to {@code s3://bucket/<prefix><file name>}. */
    static void upload(S3ServerProcess s3, String bucket, String prefix, List<Path> files) {
        for (Path f : files) {
            s3.upload(bucket, prefix + f.getFileName(), f);
        }
    }
}
