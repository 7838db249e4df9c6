package io.github.s3mergetree.source.s3.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.format.arrow.ArrowBlockFormat;
import io.github.s3mergetree.source.s3.format.nativeformat.NativeBlockFormat;
import io.github.s3mergetree.source.s3.format.parquet.ParquetBlockFormat;
import io.github.s3mergetree.source.s3.format.text.TextBlockFormat;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real-world file suite (issue 16, item 7): files written by other tools — pyarrow (Parquet
 * with every compression, page version, dictionary on/off and encoding; Arrow IPC file, stream and
 * Feather), pandas, DuckDB, and the cases of apache/parquet-testing and arrow-testing reproduced by
 * {@code tools/realworld/generate.py} — read by this project's readers and by ClickHouse (chDB)
 * with the same ClickHouse structure, file by file. Each file must be read to the same rows (the
 * RowBinary of our blocks equals chDB's RowBinary of {@code SELECT * FROM file(f, format,
 * structure)}, byte for byte) or be refused by both, our error naming the object and holding no raw
 * control bytes.
 *
 * <p>The generator runs in the venv {@code tools/pyenv} that {@code tools/install-test-engines.sh}
 * installs (pyarrow, pandas, duckdb). A missing venv or a failing generator fails this test: the
 * suite is never skipped.
 */
public class RealWorldFilesITCase {
    @TempDir Path tmp;

    /**
     * Files whose difference from ClickHouse is known and accepted for now, with the reason; each
     * must still differ (a fixed one is removed from this list).
     */
    static final Map<String, String> KNOWN_DIFFERENCES = new LinkedHashMap<>();

    /** What the errors of refused files must say (besides naming the object), by file. */
    static final Map<String, List<String>> ERROR_MUST_SAY =
            Map.of(
                    "pyarrow-crc-wrong.parquet",
                    List.of("row group 0, column 's'", "Page CRC checksum verification failed"),
                    "pyarrow-snappy-corrupt-page.parquet",
                    List.of("row group 0", "column 's'"),
                    "pyarrow-truncated.parquet",
                    List.of("not a Parquet file"),
                    "pyarrow-stream-truncated.arrows",
                    List.of("record batch"));

    public record Case(String file, String format, String structure, String note) {}

    public enum Outcome {
        SAME,
        BOTH_REFUSE,
        DIFFERENT,
        ONLY_CLICKHOUSE_READS,
        ONLY_WE_READ
    }

    public record Result(Case c, Outcome outcome, long rows, String detail) {}

    static Path repositoryRoot() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("tools/realworld/generate.py"))) {
                return d;
            }
        }
        throw new IllegalStateException(
                "tools/realworld/generate.py not found above " + Path.of("").toAbsolutePath());
    }

    /** Runs the generator into {@code out}; fails loudly when it cannot run. */
    public static List<Case> generate(Path out) throws Exception {
        return generate("generate.py", out);
    }

    /**
     * Runs the generator {@code tools/realworld/<script>} into {@code out} and returns its
     * manifest; fails loudly when it cannot run.
     */
    public static List<Case> generate(String script, Path out) throws Exception {
        Path root = repositoryRoot();
        Path python =
                Path.of(
                        System.getProperty(
                                "realworld.python",
                                root.resolve("tools/pyenv/bin/python").toString()));
        assertThat(python)
                .as(
                        "the real-world file suite needs the venv tools/pyenv with pyarrow, pandas"
                                + " and duckdb: run tools/install-test-engines.sh")
                .isExecutable();
        Path log = out.resolveSibling(script + ".log");
        Process p =
                new ProcessBuilder(
                                python.toString(),
                                root.resolve("tools/realworld").resolve(script).toString(),
                                out.toString())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        boolean done = p.waitFor(5, TimeUnit.MINUTES);
        if (!done) {
            p.destroyForcibly();
        }
        assertThat(done && p.exitValue() == 0)
                .as("tools/realworld/%s failed:\n%s", script, Files.readString(log))
                .isTrue();
        return manifest(out);
    }

    static List<Case> manifest(Path out) throws IOException {
        List<Case> cases = new ArrayList<>();
        for (String line : Files.readAllLines(out.resolve("manifest.tsv"))) {
            if (!line.isBlank()) {
                String[] f = line.split("\t", -1);
                cases.add(new Case(f[0], f[1], f[2], f[3]));
            }
        }
        return cases;
    }

    public static S3ObjectFormat<Block> format(String name, TargetSchema schema) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "parquet" -> new ParquetBlockFormat(schema);
            case "arrow", "arrowstream" ->
                    new ArrowBlockFormat(ArrowBlockFormat.Kind.of(name), schema);
            case "native" -> new NativeBlockFormat(schema);
            default -> new TextBlockFormat(TextBlockFormat.Kind.of(name), schema, "auto");
        };
    }

    @Test
    void everyFileReadsAsClickHouseReadsItOrBothRefuse() throws Exception {
        // -Drealworld.dir=DIR: the files generated there before (debugging); -Drealworld.only=S:
        // the files whose name contains S
        String existing = System.getProperty("realworld.dir");
        Path files = existing == null ? tmp.resolve("files") : Path.of(existing);
        List<Case> cases = existing == null ? generate(files) : manifest(files);
        String only = System.getProperty("realworld.only");
        if (only != null) {
            cases = cases.stream().filter(c -> c.file().contains(only)).toList();
        } else if (existing == null) {
            assertThat(cases).hasSizeGreaterThan(50);
        }
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.MAX_BLOCK_SIZE, 128); // many blocks per file: block borders
        List<Result> results = new ArrayList<>();
        try (ChDb ch = ChDb.start(tmp.resolve("chdb"));
                FormatTesting t =
                        new FormatTesting(
                                ObjectStoreConfig.localDirectory(files.toString()).createClient(),
                                conf)) {
            for (Case c : cases) {
                System.out.println("real-world file: " + c.file());
                results.add(run(c, ch, t, files));
            }
        }
        StringBuilder report = new StringBuilder();
        List<String> failures = new ArrayList<>();
        for (Result r : results) {
            report.append(
                    String.format(
                            Locale.ROOT,
                            "%-22s %6d  %-48s %s%n",
                            r.outcome(),
                            r.rows(),
                            r.c().file(),
                            r.c().note()));
            boolean known = KNOWN_DIFFERENCES.containsKey(r.c().file());
            boolean agrees = r.outcome() == Outcome.SAME || r.outcome() == Outcome.BOTH_REFUSE;
            if (!agrees && !known) {
                failures.add(r.c().file() + ": " + r.outcome() + ": " + r.detail());
            } else if (!agrees) {
                report.append("  known difference: ")
                        .append(KNOWN_DIFFERENCES.get(r.c().file()))
                        .append(": ")
                        .append(r.detail())
                        .append('\n');
            } else if (known) {
                // fixed (perhaps by another change): not a failure, but the list is stale
                report.append("  agrees now, remove it from KNOWN_DIFFERENCES\n");
            }
        }
        System.out.println("Real-world file suite (" + results.size() + " files):\n" + report);
        assertThat(failures).as("files read differently from ClickHouse:\n%s", report).isEmpty();
    }

    /** Reads one file with our reader and with chDB and compares: the outcome, and what differs. */
    public static Result run(Case c, ChDb ch, FormatTesting t, Path files) throws IOException {
        byte[] theirs = null;
        String chError = null;
        try {
            theirs = ch.readFileAsRowBinary(files.resolve(c.file()), c.format(), c.structure(), "");
        } catch (RuntimeException e) {
            chError = e.getMessage();
        }
        byte[] ours = null;
        List<Block> blocks = new ArrayList<>();
        String ourError = null;
        try {
            var records =
                    t.readAll(
                            format(c.format(), TargetSchema.parse(c.structure())),
                            t.wholeSplit(c.file()));
            records.forEach(r -> blocks.add(r.record()));
            ours = ReadAsClickHouse.recordsRowBinary(records);
        } catch (IOException | RuntimeException e) {
            ourError = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        long rows = blocks.stream().mapToLong(Block::rows).sum();
        if (chError != null && ourError != null) {
            String problem = badErrorMessage(c, ourError);
            return problem == null
                    ? new Result(c, Outcome.BOTH_REFUSE, 0, ourError)
                    : new Result(c, Outcome.DIFFERENT, 0, problem);
        }
        if (chError != null) {
            return new Result(c, Outcome.ONLY_WE_READ, rows, "ClickHouse: " + chError);
        }
        if (ourError != null) {
            return new Result(c, Outcome.ONLY_CLICKHOUSE_READS, 0, ourError);
        }
        if (Arrays.equals(ours, theirs)) {
            return new Result(c, Outcome.SAME, rows, "");
        }
        String where;
        try {
            where = ReadAsClickHouse.firstDifference(blocks, theirs);
        } catch (RuntimeException e) {
            where = "at byte " + Arrays.mismatch(ours, theirs) + " (" + e + ")";
        }
        return new Result(
                c,
                Outcome.DIFFERENT,
                rows,
                where + "; ours " + ours.length + " bytes, ClickHouse's " + theirs.length);
    }

    /**
     * Null when our error is a good one: it names the object and holds no raw control or
     * replacement characters (binary bytes must be escaped).
     */
    static String badErrorMessage(Case c, String message) {
        if (!message.contains(c.file())) {
            return "the error does not name the object: " + message;
        }
        for (String must : ERROR_MUST_SAY.getOrDefault(c.file(), List.of())) {
            if (!message.contains(must)) {
                return "the error does not say '" + must + "': " + message;
            }
        }
        for (int i = 0; i < message.length(); i++) {
            char ch = message.charAt(i);
            if ((ch < 0x20 && ch != '\n') || (ch >= 0x7F && ch < 0xA0) || ch == '\uFFFD') {
                return "the error holds a raw byte 0x"
                        + Integer.toHexString(ch)
                        + " at "
                        + i
                        + ": "
                        + new String(
                                message.getBytes(StandardCharsets.UTF_8),
                                StandardCharsets.US_ASCII);
            }
        }
        return null;
    }
}
