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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test of text date-times against ClickHouse (chDB reading the same file with the same
 * settings): seeded random values from 1900 to 2299 for DateTime64 of every precision 0..9, with
 * column time zones and {@code session_timezone}, in every form {@code date_time_input_format =
 * basic}, {@code best_effort} and {@code best_effort_us} read ({@code T}, {@code Z}, offsets, unix
 * timestamps with fractions, negative ones where ClickHouse takes them), plain, {@code Nullable}
 * and {@code Array}, in CSV, TabSeparated and JSONEachRow; and DateTime, Date, Date32 and
 * DateTime64 values at and past their range edges one file each, where a value ClickHouse refuses
 * must be refused by us. The rows are compared as RowBinary, byte for byte.
 */
class TextDateTimeDifferentialTest {
    @TempDir static Path dir;
    private static ChDb chdb;
    private static int files;

    private static final String[] ZONES = {
        "UTC", "America/New_York", "Asia/Kolkata", "Europe/Moscow", "Australia/Lord_Howe"
    };

    private static final TextParser.Format[] FORMATS = {
        TextParser.Format.CSV, TextParser.Format.TAB_SEPARATED, TextParser.Format.JSON_EACH_ROW
    };

    @BeforeAll
    static void startChDb() {
        chdb = ChDb.start(dir.resolve("chdb"));
    }

    @AfterAll
    static void stopChDb() {
        if (chdb != null) {
            chdb.close();
        }
    }

    /** The rows read as RowBinary, or the refusal. */
    record Outcome(byte[] rowBinary, String error) {
        boolean ok() {
            return error == null;
        }

        boolean sameAs(Outcome o) {
            return ok() == o.ok() && (!ok() || Arrays.equals(rowBinary, o.rowBinary));
        }

        @Override
        public String toString() {
            return ok()
                    ? "rows " + TextCursor.escape(rowBinary, 0, Math.min(96, rowBinary.length))
                    : "error: " + error;
        }
    }

    /** A text date-time form: {@code date_time_input_format} and the value's text. */
    enum InputFormat {
        BASIC("basic"),
        BEST_EFFORT("best_effort"),
        BEST_EFFORT_US("best_effort_us");

        final String name;

        InputFormat(String name) {
            this.name = name;
        }
    }

    static Outcome ours(
            TextParser.Format format,
            String structure,
            InputFormat inputFormat,
            String sessionZone,
            byte[] data,
            int buffer) {
        TargetSchema schema = TargetSchema.parse(structure);
        TextSettings d = TextSettings.defaults();
        TextSettings settings =
                new TextSettings(
                        d.delimiter(),
                        d.allowSingleQuotes(),
                        d.allowDoubleQuotes(),
                        d.csvEmptyAsDefault(),
                        d.tsvEmptyAsDefault(),
                        d.nullAsDefault(),
                        d.skipUnknownFields(),
                        d.csvDetectHeader(),
                        d.tsvDetectHeader(),
                        TextSettings.DateTimeInputFormat.of(inputFormat.name),
                        ZoneId.of(sessionZone));
        TextParser p = new TextParser(format, schema, settings, 0, 0, "case", "");
        try {
            p.startAtObjectStart(new TextCursor(new ByteArrayInputStream(data), 0, 1, buffer));
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
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static Outcome clickHouse(
            TextParser.Format format,
            String structure,
            InputFormat inputFormat,
            String sessionZone,
            byte[] data)
            throws Exception {
        Path in = dir.resolve("in-" + files++);
        Files.write(in, data);
        try {
            return new Outcome(
                    chdb.readFileAsRowBinary(
                            in,
                            format.clickHouseName(),
                            structure,
                            ", date_time_input_format = '"
                                    + inputFormat.name
                                    + "', session_timezone = '"
                                    + sessionZone
                                    + "'"),
                    null);
        } catch (ChDbException e) {
            return new Outcome(null, e.getMessage());
        } finally {
            Files.deleteIfExists(in);
        }
    }

    /** One value of a column in a format: quoted as the format quotes strings. */
    static String field(TextParser.Format format, String text) {
        return switch (format) {
            case CSV, CSV_WITH_NAMES -> "\"" + text + "\"";
            case JSON_EACH_ROW -> "{\"d\":\"" + text + "\"}";
            default -> text;
        };
    }

    /** Rows of one column {@code d}; {@code null} is a NULL; lists are arrays. */
    static byte[] file(TextParser.Format format, List<?> values) {
        StringBuilder b = new StringBuilder();
        for (Object v : values) {
            b.append(row(format, v)).append('\n');
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String row(TextParser.Format format, Object v) {
        if (v == null) {
            return switch (format) {
                case JSON_EACH_ROW -> "{\"d\":null}";
                default -> "\\N";
            };
        }
        if (v instanceof List<?> list) {
            StringBuilder a = new StringBuilder("[");
            for (Object e : list) {
                if (a.length() > 1) {
                    a.append(',');
                }
                a.append(format == TextParser.Format.JSON_EACH_ROW ? "\"" : "'")
                        .append(e)
                        .append(format == TextParser.Format.JSON_EACH_ROW ? "\"" : "'");
            }
            a.append(']');
            return switch (format) {
                case JSON_EACH_ROW -> "{\"d\":" + a + "}";
                case CSV, CSV_WITH_NAMES -> "\"" + a + "\"";
                default -> a.toString();
            };
        }
        return format == TextParser.Format.CSV && v.toString().matches("-?[0-9.]+")
                ? v.toString() // a bare number, as writers of unix timestamps write it
                : field(format, v.toString());
    }

    // ---------------------------------------------------------------- generated values

    private static String pad(long v, int width) {
        String s = Long.toString(v);
        return "0".repeat(Math.max(0, width - s.length())) + s;
    }

    private static String fraction(Random r) {
        int digits = r.nextInt(13);
        if (digits == 0) {
            return "";
        }
        StringBuilder f = new StringBuilder(".");
        for (int i = 0; i < digits; i++) {
            f.append((char) ('0' + r.nextInt(10)));
        }
        return f.toString();
    }

    private static String date(Random r, int fromYear, int toYear) {
        int y = fromYear + r.nextInt(toYear - fromYear + 1);
        int m = 1 + r.nextInt(12);
        int d = 1 + r.nextInt(java.time.YearMonth.of(y, m).lengthOfMonth());
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2);
    }

    private static String time(Random r) {
        return pad(r.nextInt(24), 2) + ":" + pad(r.nextInt(60), 2) + ":" + pad(r.nextInt(60), 2);
    }

    private static String offset(Random r) {
        int minutes = r.nextInt(14 * 60 + 1);
        String hm = pad(minutes / 60, 2) + (r.nextBoolean() ? ":" : "") + pad(minutes % 60, 2);
        return (r.nextBoolean() ? "+" : "-") + hm;
    }

    /** Seconds from 1900 to 2299 (and a few around 1970), as a unix timestamp's text. */
    private static long epochSecond(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> -r.nextInt(100_000);
            case 1 -> r.nextInt(100_000);
            default ->
                    -2_208_988_800L + (long) (r.nextDouble() * (10_413_792_000L + 2_208_988_800L));
        };
    }

    /** A value in a form {@code basic} reads. */
    static String basicValue(Random r, boolean dt64) {
        return switch (r.nextInt(7)) {
            case 0, 1 -> date(r, 1900, 2299) + " " + time(r) + (dt64 ? fraction(r) : "");
            case 2 -> date(r, 1900, 2299) + "T" + time(r) + (dt64 ? fraction(r) : "");
            case 3 -> date(r, 1900, 2299);
            case 4 -> {
                long s = epochSecond(r);
                if (!dt64) {
                    s = Math.abs(s) % 4_294_967_296L;
                    yield Long.toString(Math.max(10_000, s));
                }
                yield s + fraction(r);
            }
            case 5 -> dt64 ? "-" + r.nextInt(100) + fraction(r) : date(r, 1970, 2105);
            default ->
                    dt64
                            ? Long.toString(10_413_792_000L + (long) (r.nextDouble() * 9e15))
                            : date(r, 1970, 2105) + " " + time(r);
        };
    }

    /** A value in a form {@code best_effort} reads. */
    static String bestEffortValue(Random r, boolean dt64) {
        String f = dt64 ? fraction(r) : "";
        return switch (r.nextInt(9)) {
            case 0, 1 -> date(r, 1900, 2299) + " " + time(r) + f;
            case 2 -> date(r, 1901, 2298) + "T" + time(r) + f + "Z";
            case 3 -> date(r, 1901, 2298) + "T" + time(r) + f + offset(r);
            case 4 -> date(r, 1901, 2298) + " " + time(r) + f + " " + offset(r);
            case 5 -> (1_000_000_000L + r.nextInt(1_000_000_000)) + f;
            case 6 -> Long.toString(1_000_000_000_000L + (long) (r.nextDouble() * 8e12));
            case 7 -> date(r, 1900, 2299).replace("-", "") + time(r).replace(":", "");
            default -> {
                String d = date(r, 1900, 2299);
                yield d.substring(8)
                        + "/"
                        + d.substring(5, 7)
                        + "/"
                        + d.substring(0, 4)
                        + " "
                        + time(r)
                        + f;
            }
        };
    }

    /** Checks one file both ways; a mismatch is added to {@code mismatches}. */
    static Outcome compare(
            TextParser.Format format,
            String structure,
            InputFormat inputFormat,
            String sessionZone,
            byte[] data,
            List<String> mismatches)
            throws Exception {
        Outcome expected = clickHouse(format, structure, inputFormat, sessionZone, data);
        Outcome actual = ours(format, structure, inputFormat, sessionZone, data, 64 * 1024);
        Outcome small = ours(format, structure, inputFormat, sessionZone, data, 7);
        if (!expected.sameAs(actual) || !actual.sameAs(small)) {
            mismatches.add(
                    format.clickHouseName()
                            + " '"
                            + structure
                            + "' "
                            + inputFormat.name
                            + " session_timezone="
                            + sessionZone
                            + ": "
                            + TextCursor.escape(data, 0, Math.min(300, data.length))
                            + "\n    ClickHouse: "
                            + expected
                            + "\n    ours:       "
                            + actual
                            + (actual.sameAs(small) ? "" : "\n    ours (7-byte buffer): " + small));
        }
        return expected;
    }

    /**
     * For each input format, precision 0..9, format and zone: a file of random values that
     * ClickHouse must read; when it does not (a generated value it refuses), each row alone is
     * compared, refusals included.
     */
    @Test
    void randomDateTime64ValuesFrom1900To2299AreReadAsClickHouseReadsThem() throws Exception {
        long seed = Long.getLong("text.datetime.seed", 20261207L);
        int rows = Integer.getInteger("text.datetime.rows", 40);
        Random r = new Random(seed);
        List<String> mismatches = new ArrayList<>();
        int read = 0;
        int refused = 0;
        for (InputFormat inputFormat : InputFormat.values()) {
            for (int precision = 0; precision <= 9; precision++) {
                for (TextParser.Format format : FORMATS) {
                    String zone = ZONES[r.nextInt(ZONES.length)];
                    String session = ZONES[r.nextInt(ZONES.length)];
                    String type =
                            r.nextBoolean()
                                    ? "DateTime64(" + precision + ", '" + zone + "')"
                                    : "DateTime64(" + precision + ")";
                    Function<Random, String> value =
                            inputFormat == InputFormat.BASIC
                                    ? x -> basicValue(x, true)
                                    : x -> bestEffortValue(x, true);
                    List<Object> plain = new ArrayList<>();
                    List<Object> nullable = new ArrayList<>();
                    List<Object> arrays = new ArrayList<>();
                    for (int i = 0; i < rows; i++) {
                        plain.add(value.apply(r));
                        nullable.add(r.nextInt(5) == 0 ? null : value.apply(r));
                        List<String> a = new ArrayList<>();
                        for (int k = r.nextInt(4); k > 0; k--) {
                            a.add(value.apply(r));
                        }
                        arrays.add(a);
                    }
                    for (var c :
                            List.of(
                                    new Object[] {"d " + type, plain},
                                    new Object[] {"d Nullable(" + type + ")", nullable},
                                    new Object[] {"d Array(" + type + ")", arrays})) {
                        String structure = (String) c[0];
                        @SuppressWarnings("unchecked")
                        List<Object> values = (List<Object>) c[1];
                        Outcome whole =
                                compare(
                                        format,
                                        structure,
                                        inputFormat,
                                        session,
                                        file(format, values),
                                        mismatches);
                        if (whole.ok()) {
                            read += values.size();
                            continue;
                        }
                        for (Object v : values) {
                            Outcome one =
                                    compare(
                                            format,
                                            structure,
                                            inputFormat,
                                            session,
                                            file(format, java.util.Collections.singletonList(v)),
                                            mismatches);
                            if (one.ok()) {
                                read++;
                            } else {
                                refused++;
                            }
                        }
                    }
                }
            }
        }
        System.out.println(
                "text date-time differential: " + read + " values read, " + refused + " refused");
        assertThat(mismatches)
                .as(
                        "%d files differ from ClickHouse:\n%s",
                        mismatches.size(), String.join("\n", mismatches))
                .isEmpty();
        assertThat(read).as("values read").isGreaterThan(5000);
    }

    /**
     * DateTime (seconds, saturating) in files of many rows: values of every form of each input
     * format, in every format, plain, Nullable and Array, with and without a column zone.
     */
    @Test
    void randomDateTimeValuesAreReadAsClickHouseReadsThem() throws Exception {
        Random r = new Random(Long.getLong("text.datetime.seed", 20261207L) + 1);
        List<String> mismatches = new ArrayList<>();
        int read = 0;
        for (InputFormat inputFormat : InputFormat.values()) {
            for (TextParser.Format format : FORMATS) {
                for (String type : new String[] {"DateTime", "DateTime('Asia/Kolkata')"}) {
                    String session = ZONES[r.nextInt(ZONES.length)];
                    Function<Random, String> value =
                            inputFormat == InputFormat.BASIC
                                    ? x -> basicValue(x, false)
                                    : x -> bestEffortValue(x, false);
                    List<Object> plain = new ArrayList<>();
                    List<Object> nullable = new ArrayList<>();
                    List<Object> arrays = new ArrayList<>();
                    for (int i = 0; i < 60; i++) {
                        plain.add(value.apply(r));
                        nullable.add(r.nextInt(5) == 0 ? null : value.apply(r));
                        arrays.add(List.of(value.apply(r), value.apply(r)));
                    }
                    for (var c :
                            List.of(
                                    new Object[] {"d " + type, plain},
                                    new Object[] {"d Nullable(" + type + ")", nullable},
                                    new Object[] {"d Array(" + type + ")", arrays})) {
                        @SuppressWarnings("unchecked")
                        List<Object> values = (List<Object>) c[1];
                        Outcome whole =
                                compare(
                                        format,
                                        (String) c[0],
                                        inputFormat,
                                        session,
                                        file(format, values),
                                        mismatches);
                        read += whole.ok() ? values.size() : 0;
                    }
                }
            }
        }
        assertThat(mismatches)
                .as(
                        "%d files differ from ClickHouse:\n%s",
                        mismatches.size(), String.join("\n", mismatches))
                .isEmpty();
        assertThat(read).as("values read").isGreaterThan(1000);
    }

    /**
     * Files ClickHouse itself writes (CSV, TabSeparated, JSONEachRow) of DateTime64 values from
     * 1900 to 2299, many before 1970 with a fraction, in UTC and a column zone: read back as
     * ClickHouse reads them, with either input format.
     */
    @Test
    void filesClickHouseWritesAreReadBackAsClickHouseReadsThem() throws Exception {
        List<String> mismatches = new ArrayList<>();
        for (TextParser.Format format : FORMATS) {
            for (int precision : new int[] {1, 3, 6, 9}) {
                for (String zone : new String[] {"UTC", "America/New_York"}) {
                    String type = "DateTime64(" + precision + ", '" + zone + "')";
                    Path out = dir.resolve("written-" + files++);
                    // 9: the Int64 nanoseconds end in 2262
                    double step = precision == 9 ? 2_470_000.123456789 : 3_155_692.608_712_3;
                    chdb.execute(
                            "INSERT INTO FUNCTION file('"
                                    + out
                                    + "', '"
                                    + format.clickHouseName()
                                    + "', 'd "
                                    + type.replace("'", "\\'")
                                    + "') SELECT toDateTime64(-2208988800 + number * "
                                    + step
                                    + ", "
                                    + precision
                                    + ", '"
                                    + zone
                                    + "') FROM numbers(4000)");
                    byte[] data = Files.readAllBytes(out);
                    assertThat(new String(data, 0, 200, StandardCharsets.UTF_8)).contains("19");
                    for (InputFormat inputFormat : InputFormat.values()) {
                        Outcome o =
                                compare(format, "d " + type, inputFormat, "UTC", data, mismatches);
                        assertThat(o.ok()).as("ClickHouse reads its own file").isTrue();
                    }
                }
            }
        }
        assertThat(mismatches)
                .as(
                        "%d files differ from ClickHouse:\n%s",
                        mismatches.size(), String.join("\n", mismatches))
                .isEmpty();
    }

    /** Values at and past the range edges of each date type, one per file, refusals compared. */
    @Test
    void rangeEdgesAndRefusalsAreAsClickHouses() throws Exception {
        List<String> dateValues =
                List.of(
                        "1900-01-01",
                        "1899-12-31",
                        "1969-12-31",
                        "1970-01-01",
                        "2149-06-06",
                        "2149-06-07",
                        "2299-12-31",
                        "2300-01-01",
                        "0000-00-00",
                        "2020-02-30",
                        "2020-13-01",
                        "20200101",
                        "2020-1-2",
                        "-1",
                        "abc");
        List<String> dateTimeValues =
                List.of(
                        "1970-01-01 00:00:00",
                        "1969-12-31 23:59:59",
                        "1900-01-01 00:00:00",
                        "1899-12-31 23:59:59",
                        "2106-02-07 06:28:15",
                        "2106-02-07 06:28:16",
                        "2299-12-31 23:59:59",
                        "2300-01-01 00:00:00",
                        "1970-01-01T00:00:00Z",
                        "1969-12-31T23:59:59Z",
                        "1900-01-01T00:00:00+01:00",
                        "2299-12-31T23:59:59-01:00",
                        "0",
                        "4294967295",
                        "4294967296",
                        "-1",
                        "12345",
                        "1234",
                        "2020-01-01 00:00:00.",
                        "2020-01-01 25:61:61",
                        "");
        List<String> dateTime64Values =
                List.of(
                        "1900-01-01 00:00:00.000000001",
                        "1900-01-01 00:00:00",
                        "1899-12-31 23:59:59.999",
                        "1969-12-31 23:59:59.999999999",
                        "1969-12-31 23:59:59.5",
                        "1970-01-01 00:00:00.5",
                        "1921-01-03 06:08:46.045",
                        "1967-01-02 21:15:26.947361",
                        "2299-12-31 23:59:59.999999999",
                        "2300-01-01 00:00:00",
                        "1921-01-03T06:08:46.045Z",
                        "1921-01-03T06:08:46.045+05:30",
                        "1921-01-03 06:08:46.045 -0800",
                        "-1.5",
                        "-0.5",
                        "-100.25",
                        "-2208988800.5",
                        "0.5",
                        ".5",
                        "1234567890.123456789",
                        "1234567890123",
                        "10413791999",
                        "10413792000",
                        "10413792000123",
                        "2020-01-01 00:00:00.",
                        "");
        List<String> mismatches = new ArrayList<>();
        for (TextParser.Format format : FORMATS) {
            for (InputFormat inputFormat : InputFormat.values()) {
                for (String zone : new String[] {"UTC", "Asia/Kolkata", "America/New_York"}) {
                    for (String v : dateValues) {
                        compare(
                                format,
                                "d Date",
                                inputFormat,
                                zone,
                                file(format, List.of(v)),
                                mismatches);
                        compare(
                                format,
                                "d Date32",
                                inputFormat,
                                zone,
                                file(format, List.of(v)),
                                mismatches);
                    }
                    for (String v : dateTimeValues) {
                        compare(
                                format,
                                "d DateTime",
                                inputFormat,
                                zone,
                                file(format, List.of(v)),
                                mismatches);
                    }
                    for (String v : dateTime64Values) {
                        for (int p : new int[] {0, 3, 6, 9}) {
                            compare(
                                    format,
                                    "d DateTime64(" + p + ")",
                                    inputFormat,
                                    zone,
                                    file(format, List.of(v)),
                                    mismatches);
                        }
                    }
                }
            }
        }
        // JSON numbers (not strings): DateTime64 ticks, DateTime seconds
        for (String json :
                List.of("-1.5", "1.5", "-100", "1234567890", "1234567890123", "-2208988800", "0")) {
            byte[] data = ("{\"d\":" + json + "}\n").getBytes(StandardCharsets.UTF_8);
            for (InputFormat inputFormat : InputFormat.values()) {
                for (String type : new String[] {"DateTime", "DateTime64(3)", "Date32"}) {
                    compare(
                            TextParser.Format.JSON_EACH_ROW,
                            "d " + type,
                            inputFormat,
                            "UTC",
                            data,
                            mismatches);
                }
            }
        }
        assertThat(mismatches)
                .as(
                        "%d values differ from ClickHouse:\n%s",
                        mismatches.size(), String.join("\n", mismatches))
                .isEmpty();
    }
}
