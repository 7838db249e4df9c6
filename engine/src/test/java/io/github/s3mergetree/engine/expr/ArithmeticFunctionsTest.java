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
 * Arithmetic against chDB: result types for every pair of integer types, values for boundary and
 * random inputs (column and constant operands), literal typing, and division errors.
 */
class ArithmeticFunctionsTest {
    @ChDbSession static ChDb db;
    static ExprOracle oracle;

    static final List<String> INTS =
            List.of("UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16", "Int32", "Int64");

    @BeforeAll
    static void start() {
        oracle = new ExprOracle(db);
    }

    @Test
    void binaryOperatorsMatchChDb() {
        List<String> failures = new ArrayList<>();
        int compared = 0;
        for (String ta : INTS) {
            for (String tb : INTS) {
                DataType a = DataTypeParser.parse(ta);
                DataType b = DataTypeParser.parse(tb);
                long[] va = Inputs.values(a, 60, ta.hashCode());
                long[] vb = Inputs.values(b, 60, tb.hashCode() * 31L);
                long[] nonZero = vb.clone();
                for (int i = 0; i < nonZero.length; i++) {
                    if (nonZero[i] == 0) {
                        nonZero[i] = 7;
                    }
                    // avoid the minimal-signed-number-by-minus-one error (tested separately)
                    if (Vectors.wrap(nonZero[i], b) == -1 || nonZero[i] == -1) {
                        nonZero[i] = -3;
                    }
                }
                List<ExprOracle.Input> in =
                        List.of(new ExprOracle.Input("a", a, va), new ExprOracle.Input("b", b, vb));
                List<ExprOracle.Input> div =
                        List.of(
                                new ExprOracle.Input("a", a, va),
                                new ExprOracle.Input("b", b, nonZero));
                for (String f : List.of("a + b", "a - b", "a * b", "plus(b, a)")) {
                    compared += check(f, in, ta + "," + tb, failures);
                }
                for (String f : List.of("intDiv(a, b)", "a % b", "moduloLegacy(a, b)")) {
                    compared += check(f, div, ta + "," + tb, failures);
                }
            }
        }
        System.out.println("ArithmeticFunctionsTest compared " + compared + " values");
        assertThat(failures).isEmpty();
    }

    @Test
    void constantOperandsMatchChDb() {
        List<String> failures = new ArrayList<>();
        List<String> constants =
                List.of(
                        "1",
                        "2",
                        "3",
                        "7",
                        "10",
                        "16",
                        "100",
                        "255",
                        "256",
                        "1000",
                        "65536",
                        "4294967296",
                        "-1",
                        "-3",
                        "-128",
                        "-129",
                        "18446744073709551615",
                        "9223372036854775807",
                        "-9223372036854775808",
                        "1.5",
                        "-2.5");
        for (String ta : INTS) {
            DataType a = DataTypeParser.parse(ta);
            long[] va = Inputs.values(a, 80, ta.hashCode() + 5);
            List<ExprOracle.Input> in = List.of(new ExprOracle.Input("a", a, va));
            for (String c : constants) {
                for (String f :
                        List.of(
                                "a + C",
                                "a - C",
                                "a * C",
                                "C - a",
                                "a % C",
                                "intDiv(a, C)",
                                "moduloLegacy(a, C)",
                                "modulo(a, C)")) {
                    if ((f.contains("%") || f.contains("intDiv") || f.contains("odulo"))
                            && c.contains(".")) {
                        continue;
                    }
                    String expr = f.replace("C", c);
                    try {
                        ExprOracle.Outcome o = oracle.compare(expr, in, ZoneOffset.UTC);
                        for (String m :
                                o.mismatches().subList(0, Math.min(4, o.mismatches().size()))) {
                            failures.add(expr + " over " + ta + ": " + m);
                        }
                    } catch (ExprException ours) {
                        // we reject it: so must ClickHouse
                        if (oracle.chDbError(expr, in) == null) {
                            failures.add(
                                    expr
                                            + " over "
                                            + ta
                                            + ": we fail ("
                                            + ours.getMessage()
                                            + ") but chDB does not");
                        }
                    } catch (io.github.s3mergetree.engine.testing.ChDbException theirs) {
                        failures.add(
                                expr
                                        + " over "
                                        + ta
                                        + ": chDB fails but we do not: "
                                        + theirs.clickHouseMessage()
                                                .substring(
                                                        0,
                                                        Math.min(
                                                                150,
                                                                theirs.clickHouseMessage()
                                                                        .length())));
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void negateAndFloatsMatchChDb() {
        List<String> failures = new ArrayList<>();
        for (String ta : INTS) {
            DataType a = DataTypeParser.parse(ta);
            long[] va = Inputs.values(a, 100, ta.hashCode() + 11);
            List<ExprOracle.Input> in = List.of(new ExprOracle.Input("a", a, va));
            check("-a", in, ta, failures);
            check("negate(a)", in, ta, failures);
            check("-(a + 1)", in, ta, failures);
            check("a / 3", in, ta, failures);
            check("a * 1.5", in, ta, failures);
            check("(a + 2) * 3 % 5", in, ta, failures);
        }
        double[] ds = {
            0, -0.0, 1.5, -1.5, 1e300, -1e-300, Double.NaN, Double.POSITIVE_INFINITY, 3.0, 7.25
        };
        long[] raw = new long[ds.length];
        for (int i = 0; i < ds.length; i++) {
            raw[i] = Double.doubleToRawLongBits(ds[i]);
        }
        List<ExprOracle.Input> fin = List.of(new ExprOracle.Input("f", DataTypes.FLOAT64, raw));
        for (String f : List.of("f + 1", "f - 2.5", "f * f", "f % 2", "-f", "f / 2", "f + f")) {
            check(f, fin, "Float64", failures);
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void literalTypesMatchChDb() {
        List<String> literals =
                List.of(
                        "0",
                        "1",
                        "255",
                        "256",
                        "65535",
                        "65536",
                        "4294967295",
                        "4294967296",
                        "18446744073709551615",
                        "18446744073709551616",
                        "-1",
                        "-128",
                        "-129",
                        "-32768",
                        "-32769",
                        "-2147483648",
                        "-2147483649",
                        "-9223372036854775808",
                        "-9223372036854775809",
                        "1.5",
                        "1e3",
                        "0x10",
                        "0xFFFF",
                        "0b101",
                        "'abc'",
                        "true",
                        "false",
                        "- 1",
                        "-(1)",
                        "1 + 1",
                        "-0",
                        ".5",
                        "1.",
                        "inf",
                        "-inf",
                        "nan");
        List<String> failures = new ArrayList<>();
        for (String l : literals) {
            Expr e = ExprParser.parse(l, Map.of());
            String ch = ExprOracle.unescape(db.query("SELECT toTypeName(" + l + ")"));
            if (!ch.equals(e.resultType().name())) {
                failures.add(l + ": ours " + e.resultType().name() + ", chDB " + ch);
            }
            // printed SQL parses back to the same expression
            Expr back = ExprParser.parse(e.toSql(), Map.of());
            if (!back.equals(e)) {
                failures.add(l + ": toSql " + e.toSql() + " parses back to " + back.toSql());
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void divisionErrorsMatchChDb() {
        DataType i32 = DataTypes.INT32;
        List<ExprOracle.Input> in =
                List.of(
                        new ExprOracle.Input("a", i32, new long[] {Integer.MIN_VALUE, 5}),
                        new ExprOracle.Input("b", i32, new long[] {-1, 0}));
        for (String f : List.of("intDiv(a, b)", "a % b")) {
            assertThat(oracle.chDbError(f, in)).isNotNull();
            assertThatThrownBy(() -> oracle.compare(f, in, ZoneOffset.UTC))
                    .isInstanceOf(ExprException.class)
                    .hasMessageContaining("Division");
        }
        List<ExprOracle.Input> zero =
                List.of(
                        new ExprOracle.Input("a", i32, new long[] {5}),
                        new ExprOracle.Input("b", i32, new long[] {0}));
        for (String f : List.of("intDiv(a, b)", "a % b", "intDiv(a, 0)", "a % 0")) {
            assertThat(oracle.chDbError(f, zero)).contains("Division by zero");
            assertThatThrownBy(() -> oracle.compare(f, zero, ZoneOffset.UTC))
                    .isInstanceOf(ExprException.class)
                    .hasMessageContaining("Division by zero");
        }
    }

    static int check(String f, List<ExprOracle.Input> in, String types, List<String> failures) {
        try {
            ExprOracle.Outcome o = oracle.compare(f, in, ZoneOffset.UTC);
            for (String m : o.mismatches().subList(0, Math.min(4, o.mismatches().size()))) {
                failures.add(f + " over " + types + ": " + m);
            }
            return o.ours().size();
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
            return 0;
        }
    }
}
