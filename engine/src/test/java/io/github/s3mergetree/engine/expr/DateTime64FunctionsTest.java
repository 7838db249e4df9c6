package io.github.s3mergetree.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.engine.types.DataTypes;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code now()}, {@code now64()}, {@code today()} read the evaluation context's clock (a fixed
 * clock here); {@code toUnixTimestamp64Second/Milli/Micro/Nano} and {@code
 * fromUnixTimestamp64Second/Milli/Micro/Nano} against chDB over generated DateTime64 values of
 * several precisions and zones (pre-1970 and far-future, sub-second negatives) and integers; the
 * arguments ClickHouse refuses are refused.
 */
class DateTime64FunctionsTest {
    @ChDbSession static ChDb db;
    static ExprOracle oracle;

    @BeforeAll
    static void start() {
        oracle = new ExprOracle(db);
    }

    private static Column eval(String expr, EvaluationContext ctx) {
        Expr e = ExprParser.parse(expr, Map.of());
        Block twoRows =
                new Block(
                        List.of("k"),
                        List.of(DataTypes.UINT8),
                        List.of(Vectors.fromLongs(new long[2], 2, DataTypes.UINT8)));
        return e.evaluate(twoRows, ctx);
    }

    @Test
    void nowReadsTheInjectedClock() {
        Instant t = Instant.parse("1969-07-20T20:17:40.123456789Z");
        EvaluationContext ctx =
                EvaluationContext.of(ZoneId.of("Asia/Tokyo"))
                        .withClock(Clock.fixed(t, ZoneOffset.UTC));
        assertThat(ExprOracle.render(eval("now64()", ctx), new DateTimeTypeHolder(3).type, 1))
                .isEqualTo(Long.toString(t.getEpochSecond() * 1_000_000_000L + 123_000_000L));
        assertThat(ExprOracle.render(eval("now64(9, 'UTC')", ctx), dt64(9, "UTC"), 0))
                .isEqualTo(Long.toString(t.getEpochSecond() * 1_000_000_000L + 123_456_789L));
        assertThat(ExprOracle.render(eval("now64(0)", ctx), dt64(0, null), 0))
                .isEqualTo(Long.toString((t.getEpochSecond()) * 1_000_000_000L));
        Instant later = Instant.parse("2026-12-31T16:30:00Z");
        EvaluationContext c2 = ctx.withClock(Clock.fixed(later, ZoneOffset.UTC));
        assertThat(ExprOracle.render(eval("now()", c2), DataTypes.UINT32, 0))
                .isEqualTo(Long.toString(later.getEpochSecond()));
        // today() is the day in the server's zone: already 2027-01-01 in Tokyo
        assertThat(ExprOracle.render(eval("today()", c2), DataTypes.DATE, 0))
                .isEqualTo(Long.toString(java.time.LocalDate.of(2027, 1, 1).toEpochDay()));
        assertThat(ExprParser.parse("now64(6, 'Asia/Tokyo')", Map.of()).resultType().name())
                .isEqualTo(
                        ExprOracle.unescape(db.query("SELECT toTypeName(now64(6, 'Asia/Tokyo'))")));
        assertThat(ExprParser.parse("now64()", Map.of()).resultType().name())
                .isEqualTo(db.query("SELECT toTypeName(now64())"));
        assertThat(ExprParser.parse("now64()", Map.of()).isConstant()).isFalse();
    }

    private static DataType dt64(int p, String tz) {
        return new io.github.s3mergetree.engine.types.DateTime64Type(p, tz);
    }

    /** The DateTime64(p) type, for rendering. */
    private record DateTimeTypeHolder(DataType type) {
        DateTimeTypeHolder(int p) {
            this(new io.github.s3mergetree.engine.types.DateTime64Type(p, null));
        }
    }

    @Test
    void toUnixTimestamp64MatchesChDb() {
        List<String> failures = new ArrayList<>();
        for (String type :
                List.of(
                        "DateTime64(0)",
                        "DateTime64(3)",
                        "DateTime64(6, 'Asia/Kolkata')",
                        "DateTime64(9, 'UTC')",
                        "Nullable(DateTime64(3))")) {
            DataType t = DataTypeParser.parse(type);
            DataType base = ExprOracle.baseType(t);
            long scale =
                    ((io.github.s3mergetree.engine.types.DateTime64Type) base).ticksPerSecond();
            long[] all = Inputs.values(base, 200, type.hashCode());
            // finer units overflow Int64 (as in ClickHouse) past ±292 years around 1970
            List<Long> inRange = new ArrayList<>();
            for (long v : all) {
                if (Math.abs(v / scale) < 9_000_000_000L) {
                    inRange.add(v);
                }
            }
            long[] values = inRange.stream().mapToLong(Long::longValue).toArray();
            boolean[] nulls = new boolean[values.length];
            for (int i = 0; i < nulls.length; i += 5) {
                nulls[i] = true;
            }
            ExprOracle.Input in =
                    new ExprOracle.Input(
                            "x", t, values, null, type.startsWith("Nullable") ? nulls : null);
            for (String f :
                    List.of(
                            "toUnixTimestamp64Second(x)",
                            "toUnixTimestamp64Milli(x)",
                            "toUnixTimestamp64Micro(x)",
                            "toUnixTimestamp64Nano(x)",
                            "toUnixTimestamp64Milli(x) % 1000")) {
                ExprOracle.Outcome o = oracle.compare(f, List.of(in), ZoneOffset.UTC);
                for (String m : o.mismatches()) {
                    failures.add(f + " over " + type + ": " + m);
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void fromUnixTimestamp64MatchesChDb() {
        List<String> failures = new ArrayList<>();
        long[] ints = Inputs.values(DataTypes.INT32, 150, 4);
        long[] bounded = new long[ints.length];
        for (int i = 0; i < ints.length; i++) {
            bounded[i] = ints[i] * 1000L + (i * 7919L) % 1000;
        }
        for (String f :
                List.of(
                        "fromUnixTimestamp64Second(x)",
                        "fromUnixTimestamp64Milli(x)",
                        "fromUnixTimestamp64Micro(x, 'Asia/Tokyo')",
                        "fromUnixTimestamp64Nano(x)",
                        "toUnixTimestamp64Milli(fromUnixTimestamp64Micro(x))")) {
            for (ExprOracle.Input in :
                    List.of(
                            new ExprOracle.Input("x", DataTypes.INT32, ints),
                            new ExprOracle.Input("x", DataTypes.INT64, bounded),
                            new ExprOracle.Input(
                                    "x",
                                    DataTypes.UINT32,
                                    Inputs.values(DataTypes.UINT32, 100, 2)))) {
                if (f.startsWith("fromUnixTimestamp64Second") && in.raw == bounded) {
                    continue; // seconds past ±292 years: chDB cannot render them in nanoseconds
                }
                ExprOracle.Outcome o = oracle.compare(f, List.of(in), ZoneOffset.UTC);
                for (String m : o.mismatches()) {
                    failures.add(f + " over " + in.type.name() + ": " + m);
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void refusesWhatClickHouseRefuses() {
        Map<String, DataType> cols =
                Map.of(
                        "dt", new io.github.s3mergetree.engine.types.DateTimeType(null),
                        "f", DataTypes.FLOAT64,
                        "s", DataTypes.STRING_TYPE);
        assertThatThrownBy(() -> ExprParser.parse("toUnixTimestamp64Milli(dt)", cols))
                .isInstanceOf(ExprException.class)
                .hasMessageContaining(
                        "function 'toUnixTimestamp64Milli'. Expected: DateTime64, got: DateTime");
        assertThatThrownBy(() -> ExprParser.parse("fromUnixTimestamp64Milli(f)", cols))
                .isInstanceOf(ExprException.class)
                .hasMessageContaining(
                        "The first argument for function fromUnixTimestamp64Milli must be"
                                + " integer");
        assertThatThrownBy(() -> ExprParser.parse("fromUnixTimestamp64Nano(s)", cols))
                .isInstanceOf(ExprException.class)
                .hasMessageContaining("must be integer");
        assertThatThrownBy(() -> ExprParser.parse("now64(10)", cols))
                .isInstanceOf(ExprException.class)
                .hasMessageContaining("Scale 10 is too large for DateTime64");
        assertThatThrownBy(
                        () ->
                                ExprParser.parse(
                                                "toUnixTimestamp64Nano(x)",
                                                Map.of("x", dt64(3, null)))
                                        .evaluate(
                                                new Block(
                                                        List.of("x"),
                                                        List.of(dt64(3, null)),
                                                        List.of(
                                                                Vectors.fromLongs(
                                                                        new long[] {
                                                                            10413791999000L
                                                                        },
                                                                        1,
                                                                        dt64(3, null)))),
                                                EvaluationContext.utc()))
                .isInstanceOf(ExprException.class)
                .hasMessageContaining("Decimal math overflow");
        for (String refused :
                List.of(
                        "toUnixTimestamp64Milli(toDateTime(0))",
                        "fromUnixTimestamp64Milli(1.5)",
                        "now64(10)",
                        "toUnixTimestamp64Nano(toDateTime64('2299-12-31 00:00:00', 3, 'UTC'))")) {
            assertThatThrownBy(() -> db.query("SELECT " + refused)).as(refused).isNotNull();
        }
    }
}
