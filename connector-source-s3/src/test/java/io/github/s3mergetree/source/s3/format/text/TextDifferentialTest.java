package io.github.s3mergetree.source.s3.format.text;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test of the text parsers against ClickHouse (chDB): hundreds of generated inputs
 * ({@link TextCases}: well-formed rows of four schemas in the five formats, and the same rows with
 * a field missing or extra, a quote left open, a bad escape, CR/LF mixes, a BOM, empty lines, a cut
 * at any byte, a value of the wrong type) are read by {@code SELECT * FROM file(path, format,
 * structure)} in chDB and by {@link TextParser}. Each input must be refused by both, or read by
 * both into the same rows (compared as RowBinary, byte for byte). Our parser reads each input
 * twice, with a 64 KiB and a 7-byte buffer, which must agree (values split across buffer refills).
 */
class TextDifferentialTest {
    @TempDir Path dir;

    /** The outcome of reading one input: the rows as RowBinary, or the error. */
    record Outcome(byte[] rowBinary, String error) {
        boolean ok() {
            return error == null;
        }

        @Override
        public String toString() {
            return ok()
                    ? "rows ("
                            + rowBinary.length
                            + " bytes RowBinary): "
                            + TextCursor.escape(rowBinary, 0, Math.min(200, rowBinary.length))
                    : "error: " + error;
        }
    }

    static Outcome ours(TextCases.Case c, int buffer) {
        return ours(c, buffer, 0, 0);
    }

    static Outcome ours(TextCases.Case c, int buffer, long allowNum, double allowRatio) {
        TargetSchema schema = TargetSchema.parse(c.structure());
        TextParser p =
                new TextParser(
                        c.format(),
                        schema,
                        TextSettings.defaults(),
                        allowNum,
                        allowRatio,
                        "case",
                        "");
        try {
            p.startAtObjectStart(new TextCursor(new ByteArrayInputStream(c.data()), 0, 1, buffer));
            Block b = Block.empty(schema.names(), schema.types(), 16);
            while (p.read(b, 1000) > 0) {
                // all rows into one block
            }
            ByteArraySink out = new ByteArraySink();
            for (int r = 0; r < b.rows(); r++) {
                for (int col = 0; col < b.columnCount(); col++) {
                    ValueSerde.write(b.types().get(col), b.column(col), r, out);
                }
            }
            return new Outcome(out.toByteArray(), null);
        } catch (ObjectFormatException e) {
            return new Outcome(null, e.getMessage());
        } catch (Exception e) {
            throw new AssertionError("unexpected " + e + " reading " + c, e);
        }
    }

    static Outcome clickHouse(ChDb chdb, Path dir, TextCases.Case c, int n) throws Exception {
        return clickHouse(chdb, dir, c, n, "");
    }

    static Outcome clickHouse(ChDb chdb, Path dir, TextCases.Case c, int n, String settings)
            throws Exception {
        Path in = dir.resolve("in-" + n);
        Files.write(in, c.data());
        try {
            return new Outcome(
                    chdb.readFileAsRowBinary(
                            in, c.format().clickHouseName(), c.structure(), settings),
                    null);
        } catch (ChDbException e) {
            return new Outcome(null, e.getMessage());
        }
    }

    @Test
    void malformedInputsAreRefusedOrReadExactlyAsClickHouseReadsThem() throws Exception {
        long seed = Long.getLong("text.differential.seed", 20240611L);
        int perFormatAndSchema = Integer.getInteger("text.differential.cases", 40);
        List<TextCases.Case> cases = new TextCases(seed).generate(perFormatAndSchema);
        List<String> mismatches = new ArrayList<>();
        Map<TextParser.Format, int[]> tally = new EnumMap<>(TextParser.Format.class);
        Map<String, int[]> byKind = new java.util.TreeMap<>();
        try (ChDb chdb = ChDb.start(dir.resolve("chdb"))) {
            int n = 0;
            for (TextCases.Case c : cases) {
                Outcome expected = clickHouse(chdb, dir, c, n++);
                Outcome actual = ours(c, 64 * 1024);
                Outcome small = ours(c, 7);
                int[] t = tally.computeIfAbsent(c.format(), k -> new int[2]);
                t[expected.ok() ? 0 : 1]++;
                byKind.computeIfAbsent(
                                c.format().clickHouseName()
                                        + "/"
                                        + c.name().substring(0, c.name().indexOf(" #")),
                                k -> new int[2])[expected.ok() ? 0 : 1]++;
                boolean same =
                        expected.ok() == actual.ok()
                                && (!expected.ok()
                                        || Arrays.equals(expected.rowBinary(), actual.rowBinary()));
                boolean sameSmall =
                        actual.ok() == small.ok()
                                && (!actual.ok()
                                        || Arrays.equals(actual.rowBinary(), small.rowBinary()));
                if (!same || !sameSmall) {
                    Path keep = Path.of("target", "text-differential-mismatches");
                    Files.createDirectories(keep);
                    Files.write(
                            keep.resolve("case-" + n + "." + c.format().clickHouseName()),
                            c.data());
                    mismatches.add(
                            c
                                    + "\n    ClickHouse: "
                                    + expected
                                    + "\n    ours:       "
                                    + actual
                                    + (sameSmall ? "" : "\n    ours (7-byte buffer): " + small));
                }
            }
        }
        System.out.println(
                "text differential: "
                        + cases.size()
                        + " inputs; per format [read, refused] by ClickHouse: "
                        + tallyString(tally));
        byKind.forEach((k, v) -> System.out.println("  " + k + " " + Arrays.toString(v)));
        assertThat(mismatches)
                .as(
                        "%d of %d inputs differ from ClickHouse:\n%s",
                        mismatches.size(), cases.size(), String.join("\n", mismatches))
                .isEmpty();
        for (int[] t : tally.values()) {
            assertThat(t[0]).as("inputs ClickHouse reads").isGreaterThan(20);
            assertThat(t[1]).as("inputs ClickHouse refuses").isGreaterThan(20);
        }
    }

    /**
     * With {@code input_format_allow_errors_num = 1} and {@code input_format_allow_errors_ratio =
     * 0.3}, malformed rows are skipped while few: ClickHouse and our parser must skip the same rows
     * (and fail on the same inputs).
     */
    @Test
    void skippedMalformedRowsAreTheRowsClickHouseSkips() throws Exception {
        List<TextCases.Case> cases =
                new TextCases(Long.getLong("text.differential.errors.seed", 77L)).generate(20);
        List<String> mismatches = new ArrayList<>();
        int skippedSome = 0;
        try (ChDb chdb = ChDb.start(dir.resolve("chdb"))) {
            int n = 0;
            for (TextCases.Case c : cases) {
                Outcome expected =
                        clickHouse(
                                chdb,
                                dir,
                                c,
                                n++,
                                ", input_format_allow_errors_num = 1,"
                                        + " input_format_allow_errors_ratio = 0.3");
                Outcome actual = ours(c, 64 * 1024, 1, 0.3);
                Outcome strict = ours(c, 64 * 1024);
                if (expected.ok() && !strict.ok()) {
                    skippedSome++;
                }
                boolean same =
                        expected.ok() == actual.ok()
                                && (!expected.ok()
                                        || Arrays.equals(expected.rowBinary(), actual.rowBinary()));
                if (!same) {
                    Path keep = Path.of("target", "text-differential-mismatches");
                    Files.createDirectories(keep);
                    Files.write(
                            keep.resolve("errors-case-" + n + "." + c.format().clickHouseName()),
                            c.data());
                    mismatches.add(
                            c + "\n    ClickHouse: " + expected + "\n    ours:       " + actual);
                }
            }
        }
        System.out.println(
                "text differential with allowed errors: "
                        + cases.size()
                        + " inputs, "
                        + skippedSome
                        + " read only by skipping rows");
        assertThat(mismatches)
                .as(
                        "%d of %d inputs differ from ClickHouse:\n%s",
                        mismatches.size(), cases.size(), String.join("\n", mismatches))
                .isEmpty();
        assertThat(skippedSome)
                .as("inputs read only because bad rows were skipped")
                .isGreaterThan(30);
    }

    private static String tallyString(Map<TextParser.Format, int[]> tally) {
        StringBuilder b = new StringBuilder();
        tally.forEach(
                (f, t) ->
                        b.append(f.clickHouseName())
                                .append(' ')
                                .append(Arrays.toString(t))
                                .append(' '));
        return b.toString();
    }
}
