package io.github.s3mergetree.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.engine.types.DataTypes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Parsing, printing, naming and typing of expressions and keys (no chDB needed). */
class ExprParserTest {

    static Map<String, DataType> columns() {
        Map<String, DataType> m = new LinkedHashMap<>();
        m.put("a", DataTypes.UINT32);
        m.put("b", DataTypes.INT64);
        m.put("s", DataTypes.STRING_TYPE);
        m.put("d", DataTypes.DATE);
        m.put("t", DataTypeParser.parse("DateTime('Asia/Kolkata')"));
        m.put("my col", DataTypes.UINT8);
        m.put("n", DataTypeParser.parse("Nullable(UInt16)"));
        return m;
    }

    @Test
    void printsAndNamesLikeClickHouse() {
        String[][] cases = {
            // input, toSql, columnName, type
            {"a % 2", "a % 2", "modulo(a, 2)", "UInt8"},
            {"modulo(a, 2)", "modulo(a, 2)", "modulo(a, 2)", "UInt8"},
            {"MOD(a, 2)", "modulo(a, 2)", "modulo(a, 2)", "UInt8"},
            {"-a", "-a", "negate(a)", "Int64"},
            {"-(1)", "-(1)", "negate(1)", "Int16"},
            {"a - -1", "a - -1", "minus(a, -1)", "Int64"},
            {"(a+1)*2", "(a + 1) * 2", "multiply(plus(a, 1), 2)", "UInt64"},
            {"a+1*2", "a + (1 * 2)", "plus(a, multiply(1, 2))", "UInt64"},
            {"intDiv( a , 10 )", "intDiv(a, 10)", "intDiv(a, 10)", "UInt32"},
            {"toDate(t)", "toDate(t)", "toDate(t)", "Date"},
            {"YEAR(d)", "toYear(d)", "toYear(d)", "UInt16"},
            {"`my col`", "`my col`", "my col", "UInt8"},
            {"\"a\"", "a", "a", "UInt32"},
            {"(a, s)", "(a, s)", "(a, s)", "Tuple(UInt32, String)"},
            {"tuple(a, s)", "(a, s)", "(a, s)", "Tuple(UInt32, String)"},
            {"tuple(a)", "tuple(a)", "tuple(a)", "Tuple(UInt32)"},
            {"'it''s'", "'it\\'s'", "'it\\'s'", "String"},
            {"1.5", "1.5", "1.5", "Float64"},
            {"toStartOfWeek(d, 1)", "toStartOfWeek(d, 1)", "toStartOfWeek(d, 1)", "Date"},
            {"cityHash64(s, 1)", "cityHash64(s, 1)", "cityHash64(s, 1)", "UInt64"},
            {"n % 3", "n % 3", "modulo(n, 3)", "Nullable(UInt8)"},
            {"CAST(a AS String)", "CAST(a, 'String')", "CAST(a, 'String')", "String"},
            {"a::Int64", "CAST(a, 'Int64')", "CAST(a, 'Int64')", "Int64"},
            {"lower(s) -- comment", "lower(s)", "lower(s)", "String"},
        };
        for (String[] c : cases) {
            Expr e = ExprParser.parse(c[0], columns());
            assertThat(e.toSql()).as(c[0]).isEqualTo(c[1]);
            assertThat(e.columnName()).as(c[0]).isEqualTo(c[2]);
            assertThat(e.resultType().name()).as(c[0]).isEqualTo(c[3]);
            assertThat(ExprParser.parse(e.toSql(), columns())).as(c[0]).isEqualTo(e);
        }
    }

    @Test
    void requiredColumnsInOrderOfFirstAppearance() {
        Expr e = ExprParser.parse("cityHash64(s, toYear(d), a, s, b)", columns());
        assertThat(e.requiredColumns()).containsExactly("s", "d", "a", "b");
        assertThat(ExprParser.parse("1 + 2", columns()).isConstant()).isTrue();
    }

    @Test
    void keysAreFlattened() {
        KeyExpression k = ExprParser.parseKey("(a, toDate(t), t)", columns(), false);
        assertThat(k.columnNames()).containsExactly("a", "toDate(t)", "t");
        assertThat(k.types())
                .extracting(DataType::name)
                .containsExactly("UInt32", "Date", "DateTime('Asia/Kolkata')");
        assertThat(k.toSql()).isEqualTo("(a, toDate(t), t)");
        assertThat(ExprParser.parseKey("tuple()", columns(), false).isEmpty()).isTrue();
        assertThat(ExprParser.parseKey("()", columns(), false).isEmpty()).isTrue();
        assertThat(ExprParser.parseKey("a", columns(), false).size()).isEqualTo(1);
        assertThat(ExprParser.parseKey("(a)", columns(), false).size()).isEqualTo(1);
        assertThat(ExprParser.parseKey("tuple(a, b)", columns(), false).size()).isEqualTo(2);
        KeyExpression nested = ExprParser.parseKey("((a, b), s)", columns(), false);
        assertThat(nested.size()).isEqualTo(2);
        assertThat(nested.types().get(0).name()).isEqualTo("Tuple(UInt32, Int64)");
        assertThat(ExprParser.parseKey(nested.toSql(), columns(), false)).isEqualTo(nested);
        KeyExpression single = ExprParser.parseKey("tuple((a, b))", columns(), false);
        assertThat(single.size()).isEqualTo(1);
        assertThat(ExprParser.parseKey(single.toSql(), columns(), false)).isEqualTo(single);
        // partition keys compute % as moduloLegacy
        KeyExpression p = ExprParser.parseKey("b % 3", columns(), true);
        assertThat(p.types()).containsExactly(DataTypes.INT8);
        assertThat(p.toSql()).isEqualTo("b % 3");
        assertThat(ExprParser.parseKey("b % 3", columns(), false).types())
                .containsExactly(DataTypes.INT16);
        assertThat(k.isPrefixOf(ExprParser.parseKey("(a, toDate(t), t, s)", columns(), false)))
                .isTrue();
    }

    @Test
    void errorsNameTheConstructAndPosition() {
        assertThatThrownBy(() -> ExprParser.parse("toYear(zz)", columns()))
                .isInstanceOf(ExprException.class)
                .hasMessageContaining("Unknown column 'zz'")
                .satisfies(e -> assertThat(((ExprException) e).position()).isEqualTo(7));
        assertThatThrownBy(() -> ExprParser.parse("a + nosuch(a)", columns()))
                .satisfies(
                        e -> {
                            ExprException x = (ExprException) e;
                            assertThat(x.kind()).isEqualTo(ExprException.Kind.UNSUPPORTED);
                            assertThat(x.position()).isEqualTo(4);
                            assertThat(x.getMessage()).contains("nosuch");
                        });
        assertThatThrownBy(() -> ExprParser.parse("toHour(d)", columns()))
                .hasMessageContaining("Illegal type Date of argument 1 of function toHour");
        assertThatThrownBy(() -> ExprParser.parse("s || s", columns()))
                .hasMessageContaining("Operator '||'")
                .satisfies(e -> assertThat(((ExprException) e).position()).isEqualTo(2));
        assertThatThrownBy(() -> ExprParser.parse("(a, b", columns()))
                .satisfies(
                        e ->
                                assertThat(((ExprException) e).kind())
                                        .isEqualTo(ExprException.Kind.SYNTAX));
        assertThatThrownBy(() -> ExprParser.parse("s LIKE 'x'", columns()))
                .hasMessageContaining("LIKE");
        assertThatThrownBy(() -> ExprParser.parse("a AND s", columns()))
                .hasMessageContaining("Illegal type (String) of 2 argument of function and");
        assertThatThrownBy(() -> ExprParser.parse("toYYYYMM(t, 'No/Zone')", columns()))
                .hasMessageContaining("No/Zone");
        assertThatThrownBy(() -> ExprParser.parse("intDiv(a)", columns()))
                .hasMessageContaining("intDiv");
    }

    @Test
    void evaluatesToYyyymmOverAMillionDateTimesQuickly() {
        int n = 1_000_000;
        DataType dt = DataTypeParser.parse("DateTime('America/New_York')");
        IntColumn c = new IntColumn(n);
        int[] data = c.reserve(n);
        for (int i = 0; i < n; i++) {
            data[i] = (int) (1_600_000_000L + i * 997L);
        }
        c.setSize(n);
        Block block = new Block(List.of("t"), List.of(dt), List.of(c));
        Expr e = ExprParser.parse("toYYYYMM(t)", Map.of("t", dt));
        e.evaluate(block, EvaluationContext.utc()); // warm up (builds the zone table)
        long best = Long.MAX_VALUE;
        Column out = null;
        for (int r = 0; r < 5; r++) {
            long t0 = System.nanoTime();
            out = e.evaluate(block, EvaluationContext.utc());
            best = Math.min(best, System.nanoTime() - t0);
        }
        System.out.println("toYYYYMM over 1M DateTime: " + best / 1_000_000 + " ms");
        int[] r = ((IntColumn) out).data();
        assertThat(r[0]).isEqualTo(202009); // 2020-09-13 08:26:40 in New York
        assertThat(best).isLessThan(2_000_000_000L);
    }
}
