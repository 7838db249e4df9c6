package io.github.s3mergetree.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.TypeKind;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The comparison operators ({@code = == != <> < <= > >=}, {@code [NOT] IN}, {@code [NOT] BETWEEN}),
 * the logical ones ({@code AND OR NOT}, {@code IS [NOT] NULL}) against chDB: result types, values
 * over generated numbers (signed with unsigned, integers with floats, NaN, ±0, ±Inf, 2^63, 2^64),
 * dates and times (Date with DateTime in several zones, DateTime64 precisions, pre-1970 and
 * far-future values, server zones), strings (String with FixedString, zero bytes, multi-byte
 * UTF-8), Nullable and LowCardinality inputs; the printed form equals ClickHouse's {@code
 * formatQuery}; the combinations ClickHouse refuses are refused.
 */
class ComparisonAndLogicalFunctionsTest {
    @ChDbSession static ChDb db;
    static ExprOracle oracle;

    @BeforeAll
    static void start() {
        oracle = new ExprOracle(db);
    }

    private static final List<String> COMPARISONS =
            List.of("x = y", "x == y", "x != y", "x <> y", "x < y", "x <= y", "x > y", "x >= y");

    /** Raw values of a numeric type (double bits for floats), {@code n} of them. */
    static long[] numbers(DataType t, int n, long seed) {
        if (t.kind() == TypeKind.FLOAT64 || t.kind() == TypeKind.FLOAT32) {
            Random r = new Random(seed);
            List<Double> d =
                    new ArrayList<>(
                            List.of(
                                    0.0,
                                    -0.0,
                                    1.0,
                                    -1.0,
                                    0.5,
                                    -0.5,
                                    Double.NaN,
                                    Double.POSITIVE_INFINITY,
                                    Double.NEGATIVE_INFINITY,
                                    9.223372036854775808E18,
                                    -9.223372036854775808E18,
                                    1.8446744073709551616E19,
                                    9.007199254740992E15,
                                    255.0,
                                    127.5,
                                    4294967295.0,
                                    0.1));
            while (d.size() < n) {
                int k = r.nextInt(3);
                d.add(
                        k == 0
                                ? (double) r.nextInt(600) - 300
                                : k == 1 ? r.nextGaussian() * 1e6 : (double) r.nextLong());
            }
            long[] out = new long[n];
            for (int i = 0; i < n; i++) {
                double v = d.get(i);
                if (t.kind() == TypeKind.FLOAT32) {
                    v = (float) v;
                }
                out[i] = Double.doubleToRawLongBits(v);
            }
            return out;
        }
        if (t.kind() == TypeKind.BOOL) {
            long[] out = new long[n];
            for (int i = 0; i < n; i++) {
                out[i] = (i / 2) % 2;
            }
            return out;
        }
        return fit(Inputs.values(t, n, seed), n);
    }

    /** {@code v} repeated cyclically to {@code n} values. */
    static long[] fit(long[] v, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = v[i % v.length];
        }
        return out;
    }

    /** Shuffled copy, so that equal and unequal pairs both occur. */
    static long[] mixed(long[] x, long[] y, long seed) {
        Random r = new Random(seed);
        long[] out = y.clone();
        for (int i = 0; i < out.length; i++) {
            if (r.nextInt(4) == 0) {
                out[i] = x[r.nextInt(x.length)];
            }
        }
        return out;
    }

    private static int check(
            String expr, List<ExprOracle.Input> in, ZoneId zone, String what, List<String> fail) {
        ExprOracle.Outcome o = oracle.compare(expr, in, zone);
        for (String m : o.mismatches()) {
            if (fail.size() < 40) {
                fail.add(expr + " over " + what + " (" + zone + "): " + m);
            }
        }
        return o.ours().size();
    }

    @Test
    void numbersCompareByExactValue() {
        List<String> types =
                List.of(
                        "UInt8", "Int8", "UInt32", "Int32", "UInt64", "Int64", "Float32", "Float64",
                        "Bool");
        List<String> failures = new ArrayList<>();
        int compared = 0;
        int n = 80;
        for (String a : types) {
            for (String b : types) {
                DataType ta = DataTypeParser.parse(a);
                DataType tb = DataTypeParser.parse(b);
                long[] x = numbers(ta, n, a.hashCode());
                long[] y = ta.equals(tb) ? mixed(x, numbers(tb, n, 7), 3) : numbers(tb, n, 5);
                List<ExprOracle.Input> in =
                        List.of(new ExprOracle.Input("x", ta, x), new ExprOracle.Input("y", tb, y));
                for (String f : COMPARISONS) {
                    compared += check(f, in, ZoneOffset.UTC, a + "/" + b, failures);
                }
            }
        }
        assertThat(failures).as("compared %d values", compared).isEmpty();
    }

    @Test
    void numbersCompareWithConstants() {
        List<String> failures = new ArrayList<>();
        for (String a : List.of("UInt8", "Int16", "UInt64", "Int64", "Float32", "Float64")) {
            DataType t = DataTypeParser.parse(a);
            List<ExprOracle.Input> in = List.of(new ExprOracle.Input("x", t, numbers(t, 60, 11)));
            for (String f :
                    List.of(
                            "x = 1",
                            "x < -1",
                            "-1 < x",
                            "x >= 18446744073709551615",
                            "x <= 9223372036854775807",
                            "x = 0.5",
                            "x != nan",
                            "x = '1'",
                            "x > '127'",
                            "x = '300'",
                            "x IN (1, 255, -1, 0.5, 300, NULL)",
                            "x NOT IN (0, 1)",
                            "x IN 1",
                            "x IN (1)",
                            "x BETWEEN -1 AND 200",
                            "x NOT BETWEEN 0 AND 1",
                            "x + 1 > 2 * x")) {
                check(f, in, ZoneOffset.UTC, a, failures);
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void datesAndTimesCompareAsPointsInTime() {
        List<String> types =
                List.of(
                        "Date",
                        "Date32",
                        "DateTime",
                        "DateTime('Asia/Tokyo')",
                        "DateTime('America/New_York')",
                        "DateTime64(3)",
                        "DateTime64(6, 'Asia/Kolkata')");
        List<String> failures = new ArrayList<>();
        int compared = 0;
        int n = 120;
        for (String a : types) {
            for (String b : types) {
                DataType ta = DataTypeParser.parse(a);
                DataType tb = DataTypeParser.parse(b);
                long[] x = fit(Inputs.values(ta, n, a.hashCode()), n);
                long[] y = ta.equals(tb) ? mixed(x, x, 9) : fit(Inputs.values(tb, n, 13), n);
                List<ExprOracle.Input> in =
                        List.of(new ExprOracle.Input("x", ta, x), new ExprOracle.Input("y", tb, y));
                for (String f : List.of("x = y", "x < y", "x >= y", "x != y")) {
                    compared += check(f, in, ZoneOffset.UTC, a + "/" + b, failures);
                }
                if (a.equals("Date") || b.equals("DateTime")) {
                    compared +=
                            check("x <= y", in, ZoneId.of("Europe/Moscow"), a + "/" + b, failures);
                }
            }
        }
        assertThat(failures).as("compared %d values", compared).isEmpty();
        assertThat(compared).isGreaterThan(20_000);
    }

    @Test
    void datesCompareWithStringConstants() {
        List<String> failures = new ArrayList<>();
        for (String a : List.of("Date", "Date32", "DateTime", "DateTime('Asia/Tokyo')")) {
            DataType t = DataTypeParser.parse(a);
            List<ExprOracle.Input> in =
                    List.of(new ExprOracle.Input("x", t, fit(Inputs.values(t, 100, 3), 100)));
            for (String f :
                    List.of(
                            "x > '2020-01-01'",
                            "x = '1970-01-01'",
                            "'2000-02-29' >= x",
                            "x < '1969-12-31'",
                            "x IN ('2020-01-01', '1970-01-01')",
                            "x BETWEEN '2000-01-01' AND '2030-12-31'")) {
                check(f, in, ZoneOffset.UTC, a, failures);
                check(f, in, ZoneId.of("America/New_York"), a, failures);
            }
        }
        assertThat(failures).isEmpty();
    }

    static String[] stringValues() {
        List<String> out =
                new ArrayList<>(
                        List.of(
                                "",
                                "a",
                                "a\u0000",
                                "ab",
                                "abc",
                                "b",
                                "\u0000",
                                "ÄÖ",
                                "日本",
                                "😀",
                                "A",
                                "zz",
                                "a\u0000b"));
        out.addAll(List.of(HashAndConversionFunctionsTest.strings(30, 5)));
        List<String> fits = new ArrayList<>();
        for (String s : out) {
            if (s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= 4) {
                fits.add(s);
            }
        }
        return fits.toArray(new String[0]);
    }

    @Test
    void stringsCompareByteWiseFixedStringsZeroPadded() {
        String[] values = stringValues();
        String[] shuffled = values.clone();
        java.util.Collections.shuffle(java.util.Arrays.asList(shuffled), new Random(1));
        boolean[] nulls = new boolean[values.length];
        for (int i = 0; i < nulls.length; i += 4) {
            nulls[i] = true;
        }
        List<String> types =
                List.of(
                        "String",
                        "FixedString(4)",
                        "Nullable(String)",
                        "LowCardinality(String)",
                        "LowCardinality(Nullable(String))");
        List<String> failures = new ArrayList<>();
        for (String a : types) {
            for (String b : types) {
                ExprOracle.Input x = input("x", a, values, nulls);
                ExprOracle.Input y = input("y", b, shuffled, nulls);
                for (String f : COMPARISONS) {
                    check(f, List.of(x, y), ZoneOffset.UTC, a + "/" + b, failures);
                }
                for (String f :
                        List.of(
                                "x = 'a'",
                                "x > 'a'",
                                "'ab' <= x",
                                "x IN ('a', 'abc', NULL, 1)",
                                "x NOT IN ('')",
                                "x BETWEEN 'a' AND 'b'",
                                "x IS NULL",
                                "x IS NOT NULL",
                                "isNull(x) OR x = y")) {
                    check(f, List.of(x, y), ZoneOffset.UTC, a + "/" + b, failures);
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    private static ExprOracle.Input input(String name, String type, String[] v, boolean[] nulls) {
        return new ExprOracle.Input(
                name,
                DataTypeParser.parse(type),
                null,
                v,
                type.contains("Nullable") ? nulls : null);
    }

    @Test
    void logicalOperatorsUseThreeValuedLogic() {
        int n = 64;
        long[] x = new long[n];
        long[] y = new long[n];
        long[] z = new long[n];
        boolean[] nx = new boolean[n];
        boolean[] ny = new boolean[n];
        double[] f = {0.0, -0.0, 1.5, Double.NaN};
        for (int i = 0; i < n; i++) {
            x[i] = i % 3 == 0 ? 0 : i % 3 == 1 ? 1 : 7;
            y[i] = (i / 3) % 3 == 0 ? 0 : -2;
            z[i] = Double.doubleToRawLongBits(f[(i / 9) % 4]);
            nx[i] = (i / 36) % 2 == 1 && i % 2 == 0;
            ny[i] = i % 5 == 0;
        }
        List<String> failures = new ArrayList<>();
        for (String tx : List.of("UInt8", "Nullable(UInt8)", "LowCardinality(UInt8)")) {
            for (String ty : List.of("Int32", "Nullable(Int32)")) {
                List<ExprOracle.Input> in =
                        List.of(
                                new ExprOracle.Input(
                                        "x",
                                        DataTypeParser.parse(tx),
                                        x,
                                        null,
                                        tx.contains("Nullable") ? nx : null),
                                new ExprOracle.Input(
                                        "y",
                                        DataTypeParser.parse(ty),
                                        y,
                                        null,
                                        ty.contains("Nullable") ? ny : null),
                                new ExprOracle.Input("z", DataTypes.FLOAT64, z));
                for (String e :
                        List.of(
                                "x AND y",
                                "x OR y",
                                "NOT x",
                                "NOT y",
                                "NOT z",
                                "x AND y AND z",
                                "x OR y OR z",
                                "z AND 1",
                                "x = 1 OR y > -3 AND NOT z",
                                "(x OR y) AND (y OR z)",
                                "NOT x = 1",
                                "x IS NULL OR y IS NOT NULL",
                                "and(x, y, z)",
                                "or(x, not(y))",
                                "x > 0 AND x = 7 OR y < 0")) {
                    check(e, in, ZoneOffset.UTC, tx + "/" + ty, failures);
                }
            }
        }
        List<ExprOracle.Input> bools =
                List.of(
                        new ExprOracle.Input("x", DataTypes.BOOL, numbers(DataTypes.BOOL, 8, 0)),
                        new ExprOracle.Input("y", DataTypes.BOOL, fit(new long[] {1, 0, 0}, 8)));
        for (String e : List.of("x AND y", "x OR y", "NOT x", "x AND 1", "x = y")) {
            check(e, bools, ZoneOffset.UTC, "Bool", failures);
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void printsAsClickHouseFormatsIt() {
        Map<String, DataType> cols = new LinkedHashMap<>();
        cols.put("a", DataTypes.UINT32);
        cols.put("b", DataTypes.INT64);
        cols.put("s", DataTypes.STRING_TYPE);
        cols.put("n", DataTypeParser.parse("Nullable(UInt8)"));
        for (String e :
                List.of(
                        "a = 1 AND b > 2 OR NOT n AND s IS NULL AND a IN (1, 2)",
                        "a BETWEEN 1 AND 2 AND b NOT IN (1)",
                        "a NOT BETWEEN 1 AND 2",
                        "(a AND b) AND a != b AND a <> b AND a == b",
                        "n IS NOT NULL",
                        "a + 1 >= b * 2 OR s < 'x'",
                        "a = b = 1",
                        "a != 0")) {
            String ours = ExprParser.parse(e, cols).toSql();
            String theirs =
                    db.query(
                            "SELECT formatQuerySingleLine('SELECT " + e.replace("'", "\\'") + "')");
            assertThat("SELECT " + ours).as(e).isEqualTo(ExprOracle.unescape(theirs));
            // and parses back to the same expression
            assertThat(ExprParser.parse(ours, cols).toSql()).isEqualTo(ours);
        }
    }

    @Test
    void refusesWhatClickHouseRefuses() {
        Map<String, DataType> cols = new LinkedHashMap<>();
        cols.put("d", DataTypes.DATE);
        cols.put("u", DataTypes.UINT8);
        cols.put("s", DataTypes.STRING_TYPE);
        List<ExprOracle.Input> in =
                List.of(
                        new ExprOracle.Input("d", DataTypes.DATE, new long[] {1}),
                        new ExprOracle.Input("u", DataTypes.UINT8, new long[] {1}),
                        new ExprOracle.Input("s", DataTypes.STRING_TYPE, new String[] {"1"}));
        Map<String, String> refused =
                Map.of(
                        "d = 1",
                        "Illegal types of arguments (`Date`, `UInt8`) of function `equals`",
                        "s = u",
                        "There is no supertype for types String, UInt8",
                        "u = 'abc'",
                        "Cannot convert string 'abc' to type UInt8",
                        "u < '-1'",
                        "Cannot convert string '-1' to type UInt8",
                        "u AND s",
                        "Illegal type (String) of 2 argument of function and",
                        "NOT d",
                        "Illegal type (Date) of argument of function not",
                        "d AND u",
                        "Illegal type (Date) of 1 argument of function and",
                        "d > 'yesterday'",
                        "Cannot convert string 'yesterday' to type Date",
                        "d IN ('2020-01-01', 'nonsense')",
                        "Cannot convert string 'nonsense' to type Date",
                        "d = '2020-01-01 00:00:00'",
                        "Cannot convert string '2020-01-01 00:00:00' to type Date");
        for (Map.Entry<String, String> r : refused.entrySet()) {
            assertThat(oracle.chDbError(r.getKey(), in)).as(r.getKey()).isNotNull();
            assertThatThrownBy(() -> ExprParser.parse(r.getKey(), cols))
                    .as(r.getKey())
                    .isInstanceOf(ExprException.class)
                    .hasMessageContaining(r.getValue());
        }
    }
}
