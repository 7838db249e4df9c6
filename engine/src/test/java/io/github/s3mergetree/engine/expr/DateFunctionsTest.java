package io.github.s3mergetree.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.engine.types.TypeKind;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Date and time functions against chDB: result types and values for a few hundred inputs per
 * function and argument type, including pre-1970 and post-2106 values, type boundaries, and
 * instants around the UTC offset changes of several time zones.
 */
class DateFunctionsTest {
    @ChDbSession static ChDb db;
    static ExprOracle oracle;

    @BeforeAll
    static void start() {
        oracle = new ExprOracle(db);
    }

    static final List<String> TYPES =
            List.of(
                    "Date",
                    "Date32",
                    "DateTime",
                    "DateTime('Asia/Kolkata')",
                    "DateTime('America/New_York')",
                    "DateTime('Australia/Lord_Howe')",
                    "DateTime64(3, 'UTC')",
                    "DateTime64(3, 'America/New_York')",
                    "DateTime64(0)",
                    "DateTime64(6, 'Asia/Kolkata')",
                    "DateTime64(2, 'Europe/Moscow')");

    static final List<String> FUNCTIONS =
            List.of(
                    "toYYYYMM(x)",
                    "toYYYYMMDD(x)",
                    "toYear(x)",
                    "toMonth(x)",
                    "toDayOfMonth(x)",
                    "toHour(x)",
                    "toMonday(x)",
                    "toStartOfMonth(x)",
                    "toStartOfQuarter(x)",
                    "toStartOfYear(x)",
                    "toStartOfWeek(x)",
                    "toStartOfWeek(x, 1)",
                    "toStartOfDay(x)",
                    "toStartOfHour(x)",
                    "toStartOfMinute(x)",
                    "toStartOfFifteenMinutes(x)",
                    "toDate(x)",
                    "toDate32(x)",
                    "toDateTime(x)",
                    "toUnixTimestamp(x)",
                    "toYYYYMM(x, 'Asia/Kathmandu')",
                    "toStartOfDay(x, 'America/Sao_Paulo')",
                    "toString(x)");

    @Test
    void matchesChDb() {
        List<String> failures = new ArrayList<>();
        int compared = 0;
        for (String typeName : TYPES) {
            DataType t = DataTypeParser.parse(typeName);
            long[] values = Inputs.values(t, 300, typeName.hashCode());
            for (String f : FUNCTIONS) {
                boolean dateArg = t.kind() == TypeKind.DATE || t.kind() == TypeKind.DATE32;
                if (dateArg
                        && (f.startsWith("toHour")
                                || f.startsWith("toStartOfHour")
                                || f.startsWith("toStartOfMinute")
                                || f.startsWith("toStartOfFifteen"))) {
                    continue;
                }
                long[] v = values;
                if (f.equals("toUnixTimestamp(x)") && t.kind() == TypeKind.DATETIME64) {
                    // ClickHouse rejects DateTime64 values outside UInt32 (checked below)
                    long scale = DateFunctions.scaleOf(t);
                    v =
                            java.util.Arrays.stream(values)
                                    .filter(x -> x / scale >= 0 && x / scale <= 0xFFFFFFFFL)
                                    .toArray();
                }
                List<ExprOracle.Input> in = List.of(new ExprOracle.Input("x", t, v));
                compared += check(f, in, ZoneOffset.UTC, typeName, failures);
            }
        }
        System.out.println("DateFunctionsTest compared " + compared + " values with chDB");
        assertThat(failures).as("compared %d values", compared).isEmpty();
        assertThat(compared).isGreaterThan(50_000);
    }

    @Test
    void outOfRangeDateTime64IsAnErrorForToUnixTimestamp() {
        DataType t = DataTypeParser.parse("DateTime64(3, 'UTC')");
        for (long v : new long[] {-1001, 4294967296000L}) {
            List<ExprOracle.Input> in = List.of(new ExprOracle.Input("x", t, new long[] {v}));
            assertThat(oracle.chDbError("toUnixTimestamp(x)", in)).isNotNull();
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> oracle.compare("toUnixTimestamp(x)", in, ZoneOffset.UTC))
                    .isInstanceOf(ExprException.class)
                    .hasMessageContaining("out of the range of UInt32");
        }
    }

    @Test
    void oracleDetectsDifferences() {
        // guards the harness itself: a wrong expectation must show up as a mismatch
        DataType t = DataTypeParser.parse("Date");
        List<ExprOracle.Input> in = List.of(new ExprOracle.Input("x", t, new long[] {19723}));
        ExprOracle.Outcome o = oracle.compare("toYear(x)", in, ZoneOffset.UTC);
        assertThat(o.ours()).containsExactly("2024");
        assertThat(o.theirs()).containsExactly("2024");
        assertThat(o.ourType()).isEqualTo("UInt16");
    }

    @Test
    void serverTimeZoneApplies() {
        List<String> failures = new ArrayList<>();
        for (String typeName : List.of("DateTime", "Date", "DateTime64(3)")) {
            DataType t = DataTypeParser.parse(typeName);
            long[] values = Inputs.values(t, 200, 42);
            for (String f :
                    List.of(
                            "toYYYYMM(x)",
                            "toStartOfDay(x)",
                            "toHour(x)",
                            "toDate(x)",
                            "toDateTime(x)")) {
                if (t.kind() == TypeKind.DATE && f.startsWith("toHour")) {
                    continue;
                }
                List<ExprOracle.Input> in = List.of(new ExprOracle.Input("x", t, values));
                check(f, in, ZoneId.of("Asia/Kolkata"), typeName, failures);
            }
        }
        assertThat(failures).isEmpty();
    }

    static int check(
            String f,
            List<ExprOracle.Input> in,
            ZoneId zone,
            String typeName,
            List<String> failures) {
        try {
            ExprOracle.Outcome o = oracle.compare(f, in, zone);
            for (String m : o.mismatches().subList(0, Math.min(5, o.mismatches().size()))) {
                failures.add(f + " over " + typeName + ": " + m);
            }
            if (o.mismatches().size() > 5) {
                failures.add(
                        f + " over " + typeName + ": ... " + o.mismatches().size() + " mismatches");
            }
            return o.ours().size();
        } catch (RuntimeException e) {
            String m = String.valueOf(e.getMessage());
            failures.add(
                    f
                            + " over "
                            + typeName
                            + ": "
                            + e.getClass().getSimpleName()
                            + ": "
                            + m.substring(0, Math.min(300, m.length())));
            return 0;
        }
    }
}
