package io.github.s3mergetree.engine.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.aggregate.StateFunctions;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.testing.ClickHouse1816;
import io.github.s3mergetree.engine.types.AggregateFunctionType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which {@code AggregateFunction} states ClickHouse 18.16 serializes as ClickHouse 26.x (and so as
 * this engine writes them): the same values' states from both servers, byte for byte. Only states
 * over a Nullable argument with the Null combinator's flag differ, exactly those {@link
 * StateFunctions#startsWithNullFlag} reports (delivery refuses them for 18.16).
 */
class AggregateFunctionStatesClickHouse1816Test {
    @TempDir static Path tmp;
    @ChDbSession static ChDb chdb;
    private static ClickHouse1816 old;

    @BeforeAll
    static void startServer() {
        old = ClickHouse1816.start(tmp.resolve("ch1816"));
    }

    @AfterAll
    static void stopServer() {
        if (old != null) {
            old.close();
        }
    }

    /** State expressions over {@code x} of {@code arrayJoin} values, per function. */
    private static final Map<String, String> STATES = new LinkedHashMap<>();

    static {
        STATES.put("sum", "sumState(toUInt64(x))");
        STATES.put("sumNullable", "sumState(toNullable(toInt32(x)))");
        STATES.put("sumDecimal", "sumState(toDecimal64(x, 3))");
        STATES.put("sumFloat", "sumState(toFloat64(x) / 4)");
        STATES.put("count", "countState()");
        STATES.put("countNullable", "countState(toNullable(x))");
        STATES.put("avg", "avgState(toInt16(x))");
        STATES.put("avgFloat", "avgState(toFloat64(x))");
        STATES.put("avgDecimal", "avgState(toDecimal32(x, 2))");
        STATES.put("any", "anyState(toUInt32(x))");
        STATES.put("anyString", "anyState(toString(x))");
        STATES.put("anyLastString", "anyLastState(toString(x))");
        STATES.put("anyArray", "anyState([toString(x)])");
        STATES.put("min", "minState(toFloat32(x))");
        STATES.put("maxString", "maxState(toString(x))");
        STATES.put("argMax", "argMaxState(toString(x), toDateTime(x))");
        STATES.put("argMin", "argMinState(toUInt8(x), toInt64(x))");
        STATES.put("groupArray", "groupArrayState(toString(x))");
        STATES.put("groupArrayMax", "groupArrayState(2)(toUInt32(x))");
        STATES.put("anyNullable", "anyState(toNullable(toString(x)))");
        STATES.put("minNullable", "minState(toNullable(toInt8(x)))");
        STATES.put("avgNullable", "avgState(toNullable(toInt16(x)))");
        STATES.put("groupArrayNullable", "groupArrayState(toNullable(toUInt8(x)))");
        STATES.put("sumNull", "sumState(if(x = 2, NULL, toInt32(x)))");
        STATES.put("anyEmpty", "anyState(toString(x))");
        STATES.put("uniqExact", "uniqExactState(toUInt32(x))");
        STATES.put("uniqExactString", "uniqExactState(toString(x))");
        STATES.put("uniqExactNullable", "uniqExactState(toNullable(toUInt32(x)))");
        STATES.put("uniq", "uniqState(toUInt32(x))");
        STATES.put("uniqString", "uniqState(toString(x))");
        STATES.put("uniqInt", "uniqState(toInt64(x) - 2)");
        STATES.put("uniqFloat", "uniqState(toFloat64(x) / 3)");
        STATES.put("uniqDecimal", "uniqState(toDecimal64(x, 3))");
        STATES.put("uniqNullable", "uniqState(toNullable(toUInt32(x)))");
        STATES.put("uniqCombined", "uniqCombinedState(toUInt32(x))");
        STATES.put("uniqCombinedString", "uniqCombinedState(toString(x))");
        STATES.put("uniqCombinedFloat", "uniqCombinedState(toFloat64(x) / 3)");
        STATES.put("uniqCombinedNullable", "uniqCombinedState(toNullable(toInt8(x)))");
        STATES.put("groupArrayArray", "groupArrayArrayState([toString(x), 'a'])");
        STATES.put("groupArrayArrayMax", "groupArrayArrayState(3)([toNullable(toUInt8(x)), NULL])");
        STATES.put(
                "uniqCombinedMedium",
                "uniqCombinedState(toUInt32(x * 100000 + arrayJoin(range(1000))))");
        STATES.put(
                "uniqCombinedLarge",
                "uniqCombinedState(toUInt32(x * 100000 + arrayJoin(range(5000))))");
        STATES.put(
                "uniqCombinedStringLarge",
                "uniqCombinedState(toString(x * 100000 + arrayJoin(range(5000))))");
    }

    @Test
    void statesOf1816Equal26() throws Exception {
        List<String> differ = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, String> e : STATES.entrySet()) {
            // 18.16 has no hex() of states and its client output is text: compare RowBinary files
            String q =
                    "SELECT "
                            + e.getValue()
                            + " FROM (SELECT arrayJoin([3, 1, 2]) AS x"
                            + (e.getKey().endsWith("Empty") ? " WHERE x > 5" : "")
                            + ")";
            Path a = tmp.resolve("old" + i + ".bin");
            Path b = tmp.resolve("new" + i + ".bin");
            i++;
            old.query(q + " INTO OUTFILE '" + a + "' FORMAT RowBinary");
            chdb.execute(q + " INTO OUTFILE '" + b + "' FORMAT RowBinary");
            String x = HexFormat.of().formatHex(Files.readAllBytes(a));
            String y = HexFormat.of().formatHex(Files.readAllBytes(b));
            if (e.getKey().startsWith("uniq")) {
                // a hash set: 18.16 writes the same keys in another order, and reads either
                // (over Nullable, 26.x writes the Null combinator's flag first)
                String flag = e.getKey().endsWith("Nullable") ? "01" : "";
                assertThat(sortedBytes(flag + x)).as(e.getKey()).isEqualTo(sortedBytes(y));
                x = y.substring(flag.length());
            }
            if (!x.equals(y)) {
                differ.add(e.getKey());
                // 26.x's state is 18.16's after the Null combinator's flag byte
                assertThat(y).as(e.getKey()).isEqualTo("01" + x);
            }
            DataType type =
                    DataTypeParser.parse(
                            chdb.query(
                                            "SELECT toTypeName("
                                                    + e.getValue()
                                                    + ") FROM (SELECT arrayJoin([3, 1, 2]) AS x)")
                                    .trim());
            assertThat(StateFunctions.startsWithNullFlag((AggregateFunctionType) type))
                    .as("%s: %s", e.getKey(), type)
                    .isEqualTo(!x.equals(y));
        }
        assertThat(differ)
                .containsExactly(
                        "sumNullable",
                        "anyNullable",
                        "minNullable",
                        "avgNullable",
                        "sumNull",
                        "uniqExactNullable",
                        "uniqNullable",
                        "uniqCombinedNullable");
    }

    private static String sortedBytes(String hex) {
        byte[] b = HexFormat.of().parseHex(hex);
        java.util.Arrays.sort(b);
        return HexFormat.of().formatHex(b);
    }
}
