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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code if} and {@code multiIf} against chDB: result types (the branches' common type: integers of
 * mixed signedness and width, floats, String with FixedString, Date with DateTime, Bool, Nullable)
 * and values over generated rows with NULL conditions and NULL branch values; the conditions
 * ClickHouse refuses are refused.
 */
class ConditionalFunctionsTest {
    @ChDbSession static ChDb db;
    static ExprOracle oracle;

    @BeforeAll
    static void start() {
        oracle = new ExprOracle(db);
    }

    @Test
    void valuesAndTypesMatchChDb() {
        int n = 120;
        long[] x = ComparisonAndLogicalFunctionsTest.fit(Inputs.values(DataTypes.INT32, n, 1), n);
        long[] y = ComparisonAndLogicalFunctionsTest.fit(Inputs.values(DataTypes.UINT8, n, 2), n);
        long[] d = ComparisonAndLogicalFunctionsTest.fit(Inputs.values(DataTypes.DATE, n, 3), n);
        DataType dt = DataTypeParser.parse("DateTime");
        long[] t = ComparisonAndLogicalFunctionsTest.fit(Inputs.values(dt, n, 4), n);
        long[] fl = ComparisonAndLogicalFunctionsTest.numbers(DataTypes.FLOAT32, n, 5);
        String[] sv = ComparisonAndLogicalFunctionsTest.stringValues();
        String[] s = new String[n];
        for (int i = 0; i < n; i++) {
            s[i] = sv[i % sv.length];
        }
        s[n - 1] = "end"; // chDB's text output drops a trailing empty line
        boolean[] nulls = new boolean[n];
        for (int i = 0; i < n; i += 3) {
            nulls[i] = true;
        }
        List<ExprOracle.Input> in =
                List.of(
                        new ExprOracle.Input("x", DataTypes.INT32, x),
                        new ExprOracle.Input("y", DataTypes.UINT8, y),
                        new ExprOracle.Input(
                                "nx", DataTypeParser.parse("Nullable(Int32)"), x, null, nulls),
                        new ExprOracle.Input(
                                "nc",
                                DataTypeParser.parse("Nullable(UInt8)"),
                                ComparisonAndLogicalFunctionsTest.fit(new long[] {0, 1, 1, 0}, n),
                                null,
                                nulls),
                        new ExprOracle.Input("d", DataTypes.DATE, d),
                        new ExprOracle.Input("t", dt, t),
                        new ExprOracle.Input("fl", DataTypes.FLOAT32, fl),
                        new ExprOracle.Input("s", DataTypes.STRING_TYPE, s),
                        new ExprOracle.Input("f", DataTypeParser.parse("FixedString(4)"), s));
        List<String> failures = new ArrayList<>();
        for (String e :
                List.of(
                        "if(x > 0, x, 0)",
                        "if(y > 100, y, x)",
                        "if(y > 100, y, -1)",
                        "if(x > 0, 'pos', 'neg')",
                        "if(s = '', 'empty', s)",
                        "if(y % 2 = 1, f, s)",
                        "multiIf(x < 0, 'neg', x = 0, 'zero', 'pos')",
                        "multiIf(y < 10, 1, y < 100, 2.5, 3)",
                        "multiIf(y < 10, y, y < 100, x, 7)",
                        "if(y % 2 = 1, d, d + 1)",
                        "if(y % 2 = 1, t, toDateTime(0))",
                        "if(nx IS NULL, 0, nx)",
                        "if(nc, 1, 2)",
                        "if(nc, nx, x)",
                        "multiIf(nc, 'a', nx > 0, 'b', 'c')",
                        "if(y > 5, fl, y)",
                        "if(y > 5, fl, x)",
                        "if(y > 5, true, y = 2)",
                        "if(y > 5, y = 2, true)")) {
            for (String m : oracle.compare(e, in, ZoneOffset.UTC).mismatches()) {
                failures.add(e + ": " + m);
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void refusesWhatClickHouseRefuses() {
        Map<String, DataType> cols = new LinkedHashMap<>();
        cols.put("x", DataTypes.INT32);
        cols.put("u", DataTypes.UINT64);
        cols.put("s", DataTypes.STRING_TYPE);
        assertThatThrownBy(() -> ExprParser.parse("if(x, 1, 2)", cols))
                .isInstanceOf(ExprException.class)
                .hasMessageContaining(
                        "Illegal type Int32 of first argument (condition) of function if. Must be"
                                + " UInt8");
        assertThatThrownBy(() -> ExprParser.parse("multiIf(x > 1, 2)", cols))
                .hasMessageContaining("Invalid number of arguments for function multiIf");
        // ClickHouse 26.x answers these with a Variant type: refused
        assertThatThrownBy(() -> ExprParser.parse("if(x > 1, u, x)", cols))
                .hasMessageContaining("no common type");
        assertThatThrownBy(() -> ExprParser.parse("if(x > 1, s, x)", cols))
                .hasMessageContaining("no common type");
        cols.put("d", DataTypes.DATE);
        assertThatThrownBy(() -> ExprParser.parse("if(x > 1, d, toDateTime(0))", cols))
                .hasMessageContaining("no common type");
        assertThat(db.query("SELECT toTypeName(if(1, toUInt64(1), toInt32(1)))"))
                .startsWith("Variant");
    }
}
