package io.github.s3mergetree.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.engine.types.TypeKind;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code INTERVAL n UNIT} and {@code toInterval<Unit>(n)} in date arithmetic (the TTL expressions'
 * {@code ts + INTERVAL 30 DAY}, {@code toDate(ts) + toIntervalDay(7)}, {@code toStartOfDay(ts) +
 * INTERVAL 1 MONTH}): result types, values and printed forms equal chDB's over generated dates and
 * times, around offset changes of several time zones and at month ends.
 */
class IntervalArithmeticTest {
    @ChDbSession static ChDb db;
    static ExprOracle oracle;

    @BeforeAll
    static void start() {
        oracle = new ExprOracle(db);
    }

    static final List<String> TYPES =
            List.of(
                    "Date",
                    "DateTime",
                    "DateTime('UTC')",
                    "DateTime('Asia/Kolkata')",
                    "DateTime('America/New_York')",
                    "DateTime('Australia/Lord_Howe')",
                    "DateTime('Europe/Moscow')");

    static final List<String> FUNCTIONS =
            List.of(
                    "x + INTERVAL 30 DAY",
                    "x + INTERVAL 1 MONTH",
                    "x - INTERVAL 1 MONTH",
                    "x + INTERVAL 2 WEEK",
                    "x + INTERVAL 1 QUARTER",
                    "x + INTERVAL 1 YEAR",
                    "x + INTERVAL 3 HOUR",
                    "x + INTERVAL 90 MINUTE",
                    "x + INTERVAL 45 SECOND",
                    "x + toIntervalDay(7)",
                    "toIntervalMonth(13) + x",
                    "x + INTERVAL '5 days'",
                    "x - INTERVAL 7 DAYS",
                    "toStartOfDay(x) + INTERVAL 1 MONTH",
                    "toDate(x) + toIntervalDay(7)");

    @Test
    void matchesChDb() {
        List<String> failures = new ArrayList<>();
        int compared = 0;
        for (String typeName : TYPES) {
            DataType t = DataTypeParser.parse(typeName);
            long[] values = Inputs.values(t, 300, typeName.hashCode());
            for (String f : FUNCTIONS) {
                List<ExprOracle.Input> in = List.of(new ExprOracle.Input("x", t, values));
                compared += check(f, in, ZoneOffset.UTC, typeName, failures);
                if (t.kind() == TypeKind.DATE || typeName.equals("DateTime")) {
                    compared += check(f, in, ZoneId.of("America/New_York"), typeName, failures);
                }
            }
        }
        assertThat(failures).as("compared %d values", compared).isEmpty();
        assertThat(compared).isGreaterThan(20_000);
    }

    private static int check(
            String f, List<ExprOracle.Input> in, ZoneId zone, String type, List<String> failures) {
        try {
            ExprOracle.Outcome o = oracle.compare(f, in, zone);
            for (String m : o.mismatches().subList(0, Math.min(3, o.mismatches().size()))) {
                failures.add(f + " over " + type + " in " + zone + ": " + m);
            }
            return o.ours().size();
        } catch (RuntimeException e) {
            failures.add(f + " over " + type + " in " + zone + ": " + e);
            return 0;
        }
    }

    @Test
    void printsAsClickHouseFormatsIt() {
        Map<String, DataType> cols = Map.of("ts", DataTypeParser.parse("DateTime"));
        assertThat(ExprParser.parse("ts + INTERVAL 30 DAY", cols).toSql())
                .isEqualTo("ts + toIntervalDay(30)");
        assertThat(ExprParser.parse("toStartOfDay(ts) + interval 1 month", cols).toSql())
                .isEqualTo("toStartOfDay(ts) + toIntervalMonth(1)");
        assertThat(ExprParser.parse("ts + INTERVAL 1 HOUR", cols).resultType().name())
                .isEqualTo("DateTime");
        assertThatThrownBy(() -> ExprParser.parse("ts + INTERVAL 1 FORTNIGHT", cols))
                .hasMessageContaining("Unknown interval unit 'FORTNIGHT'");
    }
}
