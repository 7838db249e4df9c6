package io.github.s3mergetree.engine.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs the write-path benchmark and its anchor in one go: prepares the data sets (chDB), runs
 * {@link PartWriteBenchmark} under JMH (one thread, one fork; the best iteration counts), times
 * chDB inserting the same rows from Native into the same MergeTree table with one insert thread
 * ({@code ../shared/tools/chdb-ingest.js}, best of several runs), and prints MB/s of uncompressed
 * data per core for both and their ratio. Usage: {@code tools/bench/write-bench.sh}.
 */
public final class WriteBenchmarkMain {
    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        Path dir = root.resolve("engine/target/bench-data");
        Path shared = root.resolveSibling("shared");
        if (!Files.exists(dir.resolve("posts.native"))) {
            run(
                    List.of(
                            "node",
                            root.resolve("tools/bench/prepare-write-bench.js").toString(),
                            dir.toString()),
                    root);
        }
        int iterations = Integer.getInteger("bench.iterations", 8);
        Options opts =
                new OptionsBuilder()
                        .include(PartWriteBenchmark.class.getName())
                        .forks(1)
                        .threads(1)
                        .warmupIterations(3)
                        .measurementIterations(iterations)
                        .jvmArgsAppend("-Dbench.dir=" + dir, "-Xmx8g", "-XX:+UseParallelGC")
                        .build();
        Collection<RunResult> results = new Runner(opts).run();
        List<String> lines = new ArrayList<>();
        lines.add(
                String.format(
                        Locale.ROOT,
                        "%-8s %10s %10s %12s %12s %8s",
                        "dataset",
                        "rows",
                        "MB",
                        "ours MB/s",
                        "chDB MB/s",
                        "ratio"));
        for (RunResult r : results) {
            String dataset = r.getParams().getParam("dataset");
            // the best run on each side: this 2-core machine is noisy, and chDB's figure is a best
            // too
            double ms = r.getPrimaryResult().getStatistics().getMin();
            long bytes = PartWriteBenchmark.dataUncompressedBytes(dataset, dir);
            double chdb = bestChDb(root, shared, dir, dataset);
            long rows = countRows(dir, dataset);
            double ours = bytes / 1e6 / (ms / 1000);
            lines.add(
                    String.format(
                            Locale.ROOT,
                            "%-8s %10d %10.1f %12.1f %12.1f %7.2fx",
                            dataset,
                            rows,
                            bytes / 1e6,
                            ours,
                            chdb,
                            ours / chdb));
        }
        lines.forEach(System.out::println);
        Files.write(root.resolve("engine/target/write-bench.txt"), lines, StandardCharsets.UTF_8);
    }

    private static long countRows(Path dir, String dataset) throws IOException {
        return Long.parseLong(Files.readString(dir.resolve(dataset + ".rows")).trim());
    }

    /** chDB's best MB/s (uncompressed, data streams) over five runs with one insert thread. */
    private static double bestChDb(Path root, Path shared, Path dir, String dataset)
            throws Exception {
        double best = 0;
        Pattern p =
                Pattern.compile(
                        "\"seconds\":([0-9.]+).*\"rows\":([0-9]+).*\"mb_per_s_uncompressed\":([0-9.]+)");
        for (int i = 0; i < 5; i++) {
            String out =
                    run(
                            List.of(
                                    "node",
                                    shared.resolve("tools/chdb-ingest.js").toString(),
                                    dir.resolve(dataset + ".sql").toString(),
                                    "file('" + dir.resolve(dataset + ".native") + "', Native)",
                                    "max_threads = 1, max_insert_threads = 1"),
                            root);
            Matcher m = p.matcher(out);
            if (!m.find()) {
                throw new IllegalStateException("unexpected chdb-ingest output: " + out);
            }
            best = Math.max(best, Double.parseDouble(m.group(3)));
            Files.writeString(dir.resolve(dataset + ".rows"), m.group(2));
        }
        return best;
    }

    private static String run(List<String> cmd, Path root) throws Exception {
        ProcessBuilder pb =
                new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true);
        pb.environment()
                .put("CHDB_MODULE", root.resolve("tools/chdb/node_modules/chdb").toString());
        Process proc = pb.start();
        String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (proc.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed:\n" + out);
        }
        return out;
    }
}
