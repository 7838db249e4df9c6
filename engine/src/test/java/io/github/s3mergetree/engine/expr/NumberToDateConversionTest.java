package io.github.s3mergetree.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code toDate}, {@code toDate32} and {@code toDateTime} of numbers as real DEFAULT and TTL
 * clauses use them ({@code toDate(ms / 1000)}, {@code toDateTime(intDiv(ms, 1000))}, {@code
 * toDate(x)} of a Float): against chDB over generated Float64 / Float32 values (fractions, day
 * numbers up to 65535 and the seconds just above, negatives, the end of the DateTime range) and
 * millisecond timestamps, in UTC and New York; a NaN is refused with a message naming it.
 */
class NumberToDateConversionTest {
    @ChDbSession static ChDb db;
    static ExprOracle oracle;

    @BeforeAll
    static void start() {
        oracle = new ExprOracle(db);
    }

    static long[] floats(int n, boolean float32, long seed) {
        Random r = new Random(seed);
        List<Double> d =
                new ArrayList<>(
                        List.of(
                                0.0,
                                -0.0,
                                0.5,
                                -0.5,
                                1.5,
                                -1.5,
                                65535.0,
                                65535.9,
                                65536.0,
                                86400.7,
                                120529.0,
                                120530.5,
                                1e10,
                                -1e10,
                                4294967295.9,
                                4294967296.0,
                                1.7e9 + 0.25,
                                -2208988800.0,
                                1e18,
                                -1e18));
        while (d.size() < n) {
            switch (r.nextInt(4)) {
                case 0 -> d.add(r.nextDouble() * 70000);
                case 1 -> d.add(r.nextDouble() * 5e9 - 1e9);
                case 2 -> d.add((double) (r.nextInt(200000) - 100000));
                default -> d.add(r.nextDouble() * 2e11 - 1e11);
            }
        }
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            double v = d.get(i);
            out[i] = Double.doubleToRawLongBits(float32 ? (float) v : v);
        }
        return out;
    }

    @Test
    void floatsConvertAsClickHouseConvertsThem() {
        List<String> failures = new ArrayList<>();
        for (DataType t : List.of(DataTypes.FLOAT64, DataTypes.FLOAT32)) {
            ExprOracle.Input in =
                    new ExprOracle.Input(
                            "x", t, floats(200, t.equals(DataTypes.FLOAT32), t.name().hashCode()));
            for (String f :
                    List.of(
                            "toDate(x)",
                            "toDate32(x)",
                            "toDateTime(x)",
                            "toDateTime(x, 'Asia/Tokyo')",
                            "toDate(x / 1000)")) {
                for (ZoneId z : List.of(ZoneOffset.UTC, ZoneId.of("America/New_York"))) {
                    for (String m : oracle.compare(f, List.of(in), z).mismatches()) {
                        failures.add(f + " over " + t.name() + " (" + z + "): " + m);
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void millisecondTimestampsConvertAsClickHouseConvertsThem() {
        Random r = new Random(5);
        long[] ms = new long[200];
        for (int i = 0; i < ms.length; i++) {
            ms[i] =
                    i < 4
                            ? new long[] {0, 999, 1000, 4294967295999L}[i]
                            : (long) (r.nextDouble() * 4.3e12);
        }
        List<String> failures = new ArrayList<>();
        for (DataType t : List.of(DataTypes.UINT64, DataTypes.INT64)) {
            ExprOracle.Input in = new ExprOracle.Input("ms", t, ms);
            for (String f :
                    List.of(
                            "toDate(ms / 1000)",
                            "toDateTime(ms / 1000)",
                            "toDate32(ms / 1000)",
                            "ms / 1000",
                            "intDiv(ms, 1000)",
                            "toDate(intDiv(ms, 1000))",
                            "toDateTime(intDiv(ms, 1000))",
                            "toDateTime(ms / 1000) >= toDateTime(intDiv(ms, 1000))")) {
                for (ZoneId z : List.of(ZoneOffset.UTC, ZoneId.of("America/New_York"))) {
                    for (String m : oracle.compare(f, List.of(in), z).mismatches()) {
                        failures.add(f + " over " + t.name() + " (" + z + "): " + m);
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void undefinedConversionsAreRefused() {
        Expr e = ExprParser.parse("toDate(x)", Map.of("x", DataTypes.FLOAT64));
        Block b =
                new Block(
                        List.of("x"),
                        List.of(DataTypes.FLOAT64),
                        List.of(
                                Vectors.fromDoubles(
                                        new double[] {Double.NaN}, 1, DataTypes.FLOAT64)));
        assertThatThrownBy(() -> e.evaluate(b, EvaluationContext.utc()))
                .isInstanceOf(ExprException.class)
                .hasMessageContaining("The value NaN is out of the supported range of toDate");
    }
}
