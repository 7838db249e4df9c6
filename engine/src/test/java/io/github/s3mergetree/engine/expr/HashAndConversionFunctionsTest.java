package io.github.s3mergetree.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.engine.types.DataTypes;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * cityHash64, the integer/string/date conversions, toString, lower/upper, tuples, Nullable and
 * LowCardinality arguments, and DEFAULT conversions against chDB.
 */
class HashAndConversionFunctionsTest {
    @ChDbSession static ChDb db;
    static ExprOracle oracle;

    @BeforeAll
    static void start() {
        oracle = new ExprOracle(db);
    }

    static String[] strings(int n, long seed) {
        Random r = new Random(seed);
        List<String> out =
                new ArrayList<>(
                        List.of(
                                "",
                                "a",
                                "abc",
                                "Hello, World!",
                                "ÄÖÜ ß",
                                "x".repeat(16),
                                "y".repeat(17),
                                "z".repeat(32),
                                "w".repeat(33),
                                "v".repeat(64),
                                "u".repeat(65),
                                "long ".repeat(100)));
        while (out.size() < n) {
            int len = r.nextInt(r.nextBoolean() ? 20 : 200);
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < len; i++) {
                b.append((char) (32 + r.nextInt(95)));
            }
            out.add(b.toString());
        }
        return out.toArray(new String[0]);
    }

    static final List<String> HASHABLE =
            List.of(
                    "UInt8",
                    "UInt16",
                    "UInt32",
                    "UInt64",
                    "Int8",
                    "Int16",
                    "Int32",
                    "Int64",
                    "Date",
                    "Date32",
                    "DateTime",
                    "DateTime64(3, 'UTC')",
                    "DateTime64(0)",
                    "Bool",
                    "Enum8('a' = -1, 'b' = 5, 'c' = 100)",
                    "Enum16('x' = -1000, 'y' = 1000)");

    static long[] valuesFor(DataType t, int n, long seed) {
        switch (t.kind()) {
            case BOOL:
                {
                    long[] v = new long[n];
                    for (int i = 0; i < n; i++) {
                        v[i] = i % 2;
                    }
                    return v;
                }
            case ENUM8:
            case ENUM16:
                {
                    var e = (io.github.s3mergetree.engine.types.EnumType) t;
                    long[] v = new long[n];
                    for (int i = 0; i < n; i++) {
                        v[i] = e.valueOf(e.names().get(i % e.names().size()));
                    }
                    return v;
                }
            default:
                return Inputs.values(t, n, seed);
        }
    }

    @Test
    void cityHash64MatchesChDb() {
        List<String> failures = new ArrayList<>();
        for (String tn : HASHABLE) {
            DataType t = DataTypeParser.parse(tn);
            long[] v = valuesFor(t, 120, tn.hashCode());
            List<ExprOracle.Input> in = List.of(new ExprOracle.Input("x", t, v));
            check("cityHash64(x)", in, tn, failures);
            check("cityHash64(x, x)", in, tn, failures);
            check("cityHash64(x, 'salt', 7)", in, tn, failures);
        }
        String[] s = strings(150, 1);
        List<ExprOracle.Input> sin =
                List.of(
                        new ExprOracle.Input("s", DataTypes.STRING_TYPE, s),
                        new ExprOracle.Input(
                                "n", DataTypes.INT64, Inputs.values(DataTypes.INT64, 150, 3)),
                        new ExprOracle.Input(
                                "d", DataTypes.DATE, Inputs.values(DataTypes.DATE, 150, 4)));
        for (String f :
                List.of(
                        "cityHash64(s)",
                        "cityHash64(s, n)",
                        "cityHash64(n, s, d)",
                        "cityHash64((s, n))",
                        "cityHash64(tuple(s), (n, d))",
                        "cityHash64(s, s, s, s)",
                        "cityHash64(lower(s))",
                        "cityHash64(toString(n))",
                        "cityHash64(n % 10, s)")) {
            check(f, sin, "String/Int64/Date", failures);
        }
        // FixedString, LowCardinality and Nullable arguments
        List<ExprOracle.Input> special =
                List.of(
                        new ExprOracle.Input(
                                "f", DataTypeParser.parse("FixedString(5)"), strings(100, 5)),
                        new ExprOracle.Input(
                                "lc",
                                DataTypeParser.parse("LowCardinality(String)"),
                                strings(100, 6)),
                        new ExprOracle.Input(
                                "nu",
                                DataTypeParser.parse("Nullable(UInt32)"),
                                Inputs.values(DataTypes.UINT32, 100, 7),
                                null,
                                nulls(100)));
        for (int i = 0; i < 100; i++) {
            String x = special.get(0).strings[i].replaceAll("[^ -~]", "?");
            special.get(0).strings[i] = x.substring(0, Math.min(5, x.length()));
        }
        for (String f :
                List.of(
                        "cityHash64(f)",
                        "cityHash64(lc)",
                        "cityHash64(nu)",
                        "cityHash64(lc, 1)",
                        "cityHash64(f, lc)",
                        "cityHash64(nu, lc)")) {
            check(f, special, "FixedString/LowCardinality/Nullable", failures);
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void cityHash64OfWideAndFloatTypesMatchesChDb() {
        // one value each, built in memory as the engine holds it, against chDB's hash of it
        Object[][] cases = {
            {
                "UUID",
                bytes(0x0123456789abcdefL, 0x1122334455667788L),
                "toUUID('01234567-89ab-cdef-1122-334455667788')"
            },
            {"Int128", bytes(-1L, -1L), "toInt128(-1)"},
            {"UInt256", bytes(5L, 0L, 0L, 0L), "toUInt256(5)"},
            {"IPv6", new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, "toIPv6('::1')"},
            {"Decimal(38, 2)", bytes(150L, 0L), "toDecimal128(1.5, 2)"},
        };
        for (Object[] c : cases) {
            DataType t = DataTypeParser.parse((String) c[0]);
            byte[] b = (byte[]) c[1];
            var col = new io.github.s3mergetree.engine.column.FixedBytesColumn(b.length, 1);
            col.add(b, 0);
            assertThat(hashOf(t, col))
                    .as((String) c[0])
                    .isEqualTo(db.query("SELECT cityHash64(" + c[2] + ")"));
        }
        assertThat(
                        hashOf(
                                DataTypeParser.parse("Decimal(18, 2)"),
                                Vectors.fromLongs(
                                        new long[] {150},
                                        1,
                                        DataTypeParser.parse("Decimal(18, 2)"))))
                .isEqualTo(db.query("SELECT cityHash64(toDecimal64(1.5, 2))"));
        assertThat(
                        hashOf(
                                DataTypes.FLOAT32,
                                Vectors.fromDoubles(new double[] {1.5}, 1, DataTypes.FLOAT32)))
                .isEqualTo(db.query("SELECT cityHash64(toFloat32(1.5))"));
        assertThat(
                        hashOf(
                                DataTypes.IPV4,
                                Vectors.fromLongs(new long[] {16909060}, 1, DataTypes.IPV4)))
                .isEqualTo(db.query("SELECT cityHash64(toIPv4('1.2.3.4'))"));
        double[] ds = {0, -0.0, 1.5, -1e300, Double.NaN, Double.POSITIVE_INFINITY};
        long[] raw = new long[ds.length];
        for (int i = 0; i < ds.length; i++) {
            raw[i] = Double.doubleToRawLongBits(ds[i]);
        }
        List<String> failures = new ArrayList<>();
        check(
                "cityHash64(f)",
                List.of(new ExprOracle.Input("f", DataTypes.FLOAT64, raw)),
                "Float64",
                failures);
        assertThat(failures).isEmpty();
    }

    static byte[] bytes(long... words) {
        byte[] b = new byte[words.length * 8];
        for (int w = 0; w < words.length; w++) {
            for (int i = 0; i < 8; i++) {
                b[w * 8 + i] = (byte) (words[w] >>> (8 * i));
            }
        }
        return b;
    }

    static String hashOf(DataType t, io.github.s3mergetree.engine.column.Column c) {
        var block =
                new io.github.s3mergetree.engine.column.Block(List.of("x"), List.of(t), List.of(c));
        Expr e = ExprParser.parse("cityHash64(x)", Map.of("x", t));
        return ExprOracle.render(e.evaluate(block, EvaluationContext.utc()), e.resultType(), 0);
    }

    static boolean[] nulls(int n) {
        boolean[] b = new boolean[n];
        for (int i = 0; i < n; i += 3) {
            b[i] = true;
        }
        return b;
    }

    @Test
    void conversionsMatchChDb() {
        List<String> failures = new ArrayList<>();
        List<String> targets =
                List.of(
                        "toUInt8",
                        "toUInt16",
                        "toUInt32",
                        "toUInt64",
                        "toInt8",
                        "toInt16",
                        "toInt32",
                        "toInt64",
                        "toString",
                        "toFloat64");
        for (String tn :
                List.of(
                        "UInt8",
                        "UInt16",
                        "UInt32",
                        "UInt64",
                        "Int8",
                        "Int16",
                        "Int32",
                        "Int64",
                        "Date",
                        "Date32",
                        "DateTime",
                        "DateTime('Asia/Kolkata')",
                        "Bool",
                        "Enum8('a' = -1, 'b' = 5, 'c' = 100)")) {
            DataType t = DataTypeParser.parse(tn);
            long[] v = valuesFor(t, 100, tn.hashCode() + 1);
            List<ExprOracle.Input> in = List.of(new ExprOracle.Input("x", t, v));
            for (String f : targets) {
                check(f + "(x)", in, tn, failures);
            }
        }
        DataType dt64 = DataTypeParser.parse("DateTime64(3, 'America/New_York')");
        List<ExprOracle.Input> d64 =
                List.of(new ExprOracle.Input("x", dt64, Inputs.values(dt64, 150, 9)));
        check("toString(x)", d64, dt64.name(), failures);
        check("toInt64(x)", d64, dt64.name(), failures);
        // integers to dates
        for (String tn : List.of("UInt8", "UInt16", "UInt32", "Int8", "Int16", "Int32", "Int64")) {
            DataType t = DataTypeParser.parse(tn);
            long[] v = Inputs.values(t, 100, tn.hashCode() + 2);
            List<ExprOracle.Input> in = List.of(new ExprOracle.Input("x", t, v));
            for (String f :
                    List.of(
                            "toDate(x)",
                            "toDate32(x)",
                            "toDateTime(x, 'UTC')",
                            "toDateTime(x, 'Asia/Kolkata')",
                            "toUnixTimestamp(x)")) {
                check(f, in, tn, failures);
            }
        }
        // strings
        String[] numbers = {
            "0",
            "1",
            "+5",
            "-1",
            "255",
            "256",
            "300",
            "65535",
            "65536",
            "4294967296",
            "18446744073709551615",
            "18446744073709551616",
            "-128",
            "-129",
            "9223372036854775807",
            "-9223372036854775808",
            "-9223372036854775809",
            "007"
        };
        List<ExprOracle.Input> nin =
                List.of(new ExprOracle.Input("s", DataTypes.STRING_TYPE, numbers));
        for (String f : List.of("toInt8(s)", "toInt16(s)", "toInt32(s)", "toInt64(s)")) {
            check(f, nin, "String", failures);
        }
        String[] positive =
                java.util.Arrays.stream(numbers)
                        .filter(x -> !x.startsWith("-"))
                        .toArray(String[]::new);
        List<ExprOracle.Input> pin =
                List.of(new ExprOracle.Input("s", DataTypes.STRING_TYPE, positive));
        for (String f : List.of("toUInt8(s)", "toUInt16(s)", "toUInt32(s)", "toUInt64(s)")) {
            check(f, pin, "String", failures);
        }
        String[] dates = {
            "2024-01-15",
            "2024-01-15 10:11:12",
            "2024-1-5",
            "20240115",
            "1969-12-31",
            "1970-01-01",
            "1900-01-01",
            "2149-06-06",
            "2149-06-07",
            "2300-01-01",
            "2024-01-15T10:11:12",
            "2024-01-15 10:11:12.123",
            "2024-03-10 02:30:00",
            "2024-11-03 01:30:00",
            "2106-02-07 06:28:15",
            "2106-02-07 06:28:16",
            "2000-02-29"
        };
        List<ExprOracle.Input> din =
                List.of(new ExprOracle.Input("s", DataTypes.STRING_TYPE, dates));
        for (String f :
                List.of(
                        "toDate(s)",
                        "toDate32(s)",
                        "toDateTime(s)",
                        "toDateTime(s, 'America/New_York')",
                        "toUnixTimestamp(s, 'Asia/Kolkata')",
                        "toYYYYMM(toDateTime(s, 'Europe/Moscow'))")) {
            check(f, din, "String", failures);
        }
        String[] words = strings(100, 11);
        List<ExprOracle.Input> win =
                List.of(new ExprOracle.Input("s", DataTypes.STRING_TYPE, words));
        for (String f : List.of("lower(s)", "upper(s)", "UPPER(s)", "lcase(s)", "toString(s)")) {
            check(f, win, "String", failures);
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void resultTypesWithWrappersMatchChDb() {
        List<String> failures = new ArrayList<>();
        List<ExprOracle.Input> in =
                List.of(
                        new ExprOracle.Input(
                                "lc",
                                DataTypeParser.parse("LowCardinality(String)"),
                                strings(40, 21)),
                        new ExprOracle.Input(
                                "ln",
                                DataTypeParser.parse("LowCardinality(Nullable(String))"),
                                null,
                                strings(40, 22),
                                nulls(40)),
                        new ExprOracle.Input(
                                "n",
                                DataTypeParser.parse("Nullable(UInt32)"),
                                Inputs.values(DataTypes.UINT32, 40, 23),
                                null,
                                nulls(40)),
                        new ExprOracle.Input(
                                "d",
                                DataTypeParser.parse("Nullable(Date)"),
                                Inputs.values(DataTypes.DATE, 40, 24),
                                null,
                                nulls(40)),
                        new ExprOracle.Input(
                                "t",
                                DataTypeParser.parse("DateTime('Europe/London')"),
                                Inputs.values(
                                        DataTypeParser.parse("DateTime('Europe/London')"),
                                        40,
                                        25)));
        for (String f :
                List.of(
                        "lower(lc)",
                        "lower(ln)",
                        "n % 3",
                        "n + 1",
                        "-n",
                        "toYYYYMM(d)",
                        "toString(n)",
                        "toString(lc)",
                        "toStartOfDay(d)",
                        "toDate(t)",
                        "toString(t)",
                        "toStartOfHour(t)",
                        "intDiv(n, 7)",
                        "toUInt8(lc = lc)".replace(" = lc", ""))) {
            if (f.contains("toUInt8(lc)")) {
                continue;
            }
            check(f, in, "wrappers", failures);
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void defaultConversionsMatchChDbCast() {
        // DEFAULT values are converted to the column type as CAST does
        List<String[]> cases =
                List.of(
                        new String[] {"0", "UInt32"},
                        new String[] {"-1", "Int64"},
                        new String[] {"300", "UInt8"},
                        new String[] {"'2024-01-15'", "Date"},
                        new String[] {"'2024-01-15 10:00:00'", "DateTime('Asia/Kolkata')"},
                        new String[] {"'b'", "Enum8('a' = 1, 'b' = 2)"},
                        new String[] {"2", "Enum8('a' = 1, 'b' = 2)"},
                        new String[] {"'ab'", "FixedString(4)"},
                        new String[] {"42", "String"},
                        new String[] {"1.5", "Float32"},
                        new String[] {"7", "Nullable(UInt16)"},
                        new String[] {"'x'", "LowCardinality(String)"},
                        new String[] {"toDate('2024-02-29')", "DateTime"},
                        new String[] {"1", "Bool"});
        List<String> failures = new ArrayList<>();
        for (String[] c : cases) {
            DataType target = DataTypeParser.parse(c[1]);
            Expr e = ExprParser.parseDefault(c[0], Map.of(), target);
            assertThat(e.resultType()).isEqualTo(target);
            assertThat(e.toSql()).isEqualTo(ExprParser.parse(c[0], Map.of()).toSql());
            var block =
                    new io.github.s3mergetree.engine.column.Block(
                            List.of("r"),
                            List.of(DataTypes.UINT8),
                            List.of(Vectors.fromLongs(new long[] {0}, 1, DataTypes.UINT8)));
            String ours = ExprOracle.render(e.evaluate(block, EvaluationContext.utc()), target, 0);
            String theirs =
                    db.query(
                            "SELECT "
                                    + ExprOracle.renderSql(
                                            "CAST(" + c[0] + " AS " + c[1] + ")", target));
            if (!ours.equals(theirs)) {
                failures.add(c[0] + " -> " + c[1] + ": ours " + ours + ", chDB " + theirs);
            }
        }
        assertThat(failures).isEmpty();
        assertThatThrownBy(() -> ExprParser.parseDefault("NULL", Map.of(), DataTypes.UINT8))
                .isInstanceOf(ExprException.class)
                .hasMessageContaining("NULL");
        assertThat(
                        ExprParser.parseDefault(
                                        "NULL", Map.of(), DataTypeParser.parse("Nullable(String)"))
                                .toSql())
                .isEqualTo("NULL");
    }

    static void check(String f, List<ExprOracle.Input> in, String types, List<String> failures) {
        try {
            ExprOracle.Outcome o = oracle.compare(f, in, ZoneOffset.UTC);
            for (String m : o.mismatches().subList(0, Math.min(4, o.mismatches().size()))) {
                failures.add(f + " over " + types + ": " + m);
            }
        } catch (RuntimeException e) {
            String m = String.valueOf(e.getMessage());
            failures.add(
                    f
                            + " over "
                            + types
                            + ": "
                            + e.getClass().getSimpleName()
                            + ": "
                            + m.substring(0, Math.min(300, m.length())));
        }
    }
}
