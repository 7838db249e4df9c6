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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The hash functions found in the sharding keys of Distributed tables ({@code sipHash64}, {@code
 * xxHash64}, {@code murmurHash3_64}, {@code intHash32}, {@code intHash64}) against chDB: every
 * integer, date, enum and float type at its native width, Strings of every length class
 * (0/short/16/17/32/33/64/65/long, multi-byte), FixedString, LowCardinality, Nullable, several
 * arguments and tuples (the functions' own hash combination), and modulo forms as sharding keys use
 * them.
 */
class ShardingHashFunctionsTest {
    @ChDbSession static ChDb db;
    static ExprOracle oracle;

    static final List<String> ANY_HASH = List.of("sipHash64", "xxHash64", "murmurHash3_64");

    @BeforeAll
    static void start() {
        oracle = new ExprOracle(db);
    }

    @Test
    void numbersOfEveryWidthMatchChDb() {
        List<String> failures = new ArrayList<>();
        List<String> types = new ArrayList<>(HashAndConversionFunctionsTest.HASHABLE);
        for (String tn : types) {
            DataType t = DataTypeParser.parse(tn);
            long[] v = HashAndConversionFunctionsTest.valuesFor(t, 120, tn.hashCode() + 11);
            List<ExprOracle.Input> in = List.of(new ExprOracle.Input("x", t, v));
            for (String h : ANY_HASH) {
                check(h + "(x)", in, tn, failures);
                check(h + "(x, x)", in, tn, failures);
                check(h + "(x, 'salt', 7)", in, tn, failures);
            }
        }
        double[] ds = {0, -0.0, 1.5, -1e300, Double.NaN, Double.POSITIVE_INFINITY, 3.25e-5};
        long[] raw = new long[ds.length];
        for (int i = 0; i < ds.length; i++) {
            raw[i] = Double.doubleToRawLongBits(ds[i]);
        }
        for (String h : ANY_HASH) {
            check(
                    h + "(f)",
                    List.of(new ExprOracle.Input("f", DataTypes.FLOAT64, raw)),
                    "Float64",
                    failures);
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void stringsTuplesAndSeveralArgumentsMatchChDb() {
        List<String> failures = new ArrayList<>();
        String[] s = HashAndConversionFunctionsTest.strings(150, 21);
        s[3] = "日本語テキスト and ÄÖÜ";
        List<ExprOracle.Input> in =
                List.of(
                        new ExprOracle.Input("s", DataTypes.STRING_TYPE, s),
                        new ExprOracle.Input(
                                "n", DataTypes.INT64, Inputs.values(DataTypes.INT64, 150, 23)),
                        new ExprOracle.Input(
                                "d", DataTypes.DATE, Inputs.values(DataTypes.DATE, 150, 24)));
        for (String h : ANY_HASH) {
            for (String f :
                    List.of(
                            "H(s)",
                            "H(s, n)",
                            "H(n, s, d)",
                            "H((s, n))",
                            "H(tuple(s), (n, d))",
                            "H(s, s, s, s)",
                            "H(lower(s))",
                            "H(s) % 7",
                            "H(n) % 3")) {
                check(f.replace("H", h), in, "String/Int64/Date", failures);
            }
        }
        List<ExprOracle.Input> special =
                List.of(
                        new ExprOracle.Input(
                                "lc",
                                DataTypeParser.parse("LowCardinality(String)"),
                                HashAndConversionFunctionsTest.strings(100, 25)),
                        new ExprOracle.Input(
                                "nu",
                                DataTypeParser.parse("Nullable(UInt32)"),
                                Inputs.values(DataTypes.UINT32, 100, 26),
                                null,
                                HashAndConversionFunctionsTest.nulls(100)));
        for (String h : ANY_HASH) {
            check(h + "(lc)", special, "LowCardinality", failures);
            check(h + "(nu)", special, "Nullable", failures);
            check(h + "(lc, 1)", special, "LowCardinality", failures);
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void intHashesMatchChDb() {
        List<String> failures = new ArrayList<>();
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
                        "DateTime")) {
            DataType t = DataTypeParser.parse(tn);
            long[] v = HashAndConversionFunctionsTest.valuesFor(t, 150, tn.hashCode() + 31);
            List<ExprOracle.Input> in = List.of(new ExprOracle.Input("x", t, v));
            for (String f : List.of("intHash32(x)", "intHash64(x)", "intHash64(x) % 5")) {
                check(f, in, tn, failures);
            }
        }
        assertThat(failures).isEmpty();
        assertThatThrownBy(
                        () -> ExprParser.parse("intHash64(s)", Map.of("s", DataTypes.STRING_TYPE)))
                .hasMessageContaining("Illegal type String of argument 1 of function intHash64");
    }

    private static void check(
            String f, List<ExprOracle.Input> in, String types, List<String> failures) {
        try {
            ExprOracle.Outcome o = oracle.compare(f, in, ZoneOffset.UTC);
            for (String m : o.mismatches().subList(0, Math.min(4, o.mismatches().size()))) {
                failures.add(f + " over " + types + ": " + m);
            }
        } catch (RuntimeException e) {
            failures.add(f + " over " + types + ": " + e);
        }
    }
}
