package io.github.s3mergetree.engine.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Plain values into {@code AggregateFunction(f, T…)} columns: the state ValueConverter builds from
 * a row's argument value(s) is byte for byte the state ClickHouse builds from the same value with
 * {@code aggregate_function_input_format = 'value'} (chDB parses the value's text).
 */
class AggregateFunctionInputChDbTest {
    @ChDbSession static ChDb ch;

    /**
     * Type, Java value, the same value as ClickHouse's TSV text of the argument (tuple). Arrays
     * have one element: chDB 26.7 fails to parse a multi-element array in this input mode
     * ("expected ']' at end of stream").
     */
    private record Case(String type, Object value, String text) {}

    private static final List<Case> CASES =
            List.of(
                    new Case("AggregateFunction(sum, UInt64)", 5L, "5"),
                    new Case("AggregateFunction(sum, Nullable(Int32))", -7, "-7"),
                    new Case("AggregateFunction(sum, Nullable(Int32))", null, "\\N"),
                    new Case("AggregateFunction(sum, Decimal(18, 3))", "12.345", "12.345"),
                    new Case("AggregateFunction(sum, Int128)", -1, "-1"),
                    new Case("AggregateFunction(sum, Float32)", 1.5f, "1.5"),
                    new Case("AggregateFunction(count)", "anything", "()"),
                    new Case("AggregateFunction(count, Nullable(String))", null, "\\N"),
                    new Case("AggregateFunction(count, Nullable(String))", "x", "x"),
                    new Case("AggregateFunction(avg, Int16)", (short) -3, "-3"),
                    new Case("AggregateFunction(avg, Nullable(Decimal(9, 2)))", 1.25, "1.25"),
                    new Case("AggregateFunction(any, String)", "ü€𝄞", "ü€𝄞"),
                    new Case("AggregateFunction(any, String)", "", ""),
                    new Case("AggregateFunction(anyLast, Nullable(String))", null, "\\N"),
                    new Case("AggregateFunction(anyLast, Array(String))", List.of("ü"), "['ü']"),
                    new Case("AggregateFunction(min, Float64)", Double.NaN, "nan"),
                    new Case(
                            "AggregateFunction(max, UUID)",
                            java.util.UUID.fromString("01234567-89ab-cdef-0123-456789abcdef"),
                            "01234567-89ab-cdef-0123-456789abcdef"),
                    new Case(
                            "AggregateFunction(min, DateTime64(3, 'UTC'))",
                            Instant.ofEpochMilli(1700000000123L),
                            "2023-11-14 22:13:20.123"),
                    new Case(
                            "AggregateFunction(argMax, String, DateTime('UTC'))",
                            List.of("x", Instant.ofEpochSecond(1577836800)),
                            "('x','2020-01-01 00:00:00')"),
                    new Case(
                            "AggregateFunction(argMin, Array(UInt8), Int64)",
                            new Object[] {List.of(7), -5L},
                            "([7],-5)"),
                    new Case("AggregateFunction(uniqExact, String)", "ü", "ü"),
                    new Case("AggregateFunction(uniqExact, Nullable(UInt8))", 3, "3"),
                    new Case("AggregateFunction(uniqExact, Nullable(UInt8))", null, "\\N"),
                    new Case("AggregateFunction(uniq, UInt32)", 1, "1"),
                    new Case("AggregateFunction(uniq, UInt64)", 0L, "0"),
                    new Case("AggregateFunction(uniq, Int8)", (byte) -1, "-1"),
                    new Case(
                            "AggregateFunction(uniq, Int64)",
                            Long.MIN_VALUE,
                            "-9223372036854775808"),
                    new Case("AggregateFunction(uniq, String)", "abc", "abc"),
                    new Case("AggregateFunction(uniq, String)", "", ""),
                    new Case("AggregateFunction(uniq, FixedString(3))", "ab", "ab"),
                    new Case("AggregateFunction(uniq, Float32)", 1.5f, "1.5"),
                    new Case("AggregateFunction(uniq, Float64)", -0.0, "-0"),
                    new Case("AggregateFunction(uniq, Float64)", Double.NaN, "nan"),
                    new Case(
                            "AggregateFunction(uniq, Date32)",
                            java.time.LocalDate.of(1900, 1, 2),
                            "1900-01-02"),
                    new Case(
                            "AggregateFunction(uniq, DateTime64(3, 'UTC'))",
                            Instant.ofEpochMilli(1700000000123L),
                            "2023-11-14 22:13:20.123"),
                    new Case("AggregateFunction(uniq, IPv6)", "::1", "::1"),
                    new Case("AggregateFunction(uniq, IPv4)", "1.2.3.4", "1.2.3.4"),
                    new Case("AggregateFunction(uniq, Int128)", -5, "-5"),
                    new Case(
                            "AggregateFunction(uniq, UInt256)",
                            new java.math.BigInteger("123456789012345678901234567890123456789"),
                            "123456789012345678901234567890123456789"),
                    new Case(
                            "AggregateFunction(uniq, UUID)",
                            java.util.UUID.fromString("01234567-89ab-cdef-1123-456789abcdef"),
                            "01234567-89ab-cdef-1123-456789abcdef"),
                    new Case("AggregateFunction(uniq, Decimal(9, 2))", "1.5", "1.5"),
                    new Case("AggregateFunction(uniq, Decimal(38, 4))", "-12.5", "-12.5"),
                    new Case("AggregateFunction(uniq, Enum8('a' = 1, 'b' = -2))", "b", "b"),
                    new Case("AggregateFunction(uniq, Enum16('a' = 1000, 'b' = -2))", "a", "a"),
                    new Case("AggregateFunction(uniq, Bool)", true, "true"),
                    new Case("AggregateFunction(uniq, Nullable(UInt8))", 3, "3"),
                    new Case("AggregateFunction(uniq, Nullable(UInt8))", null, "\\N"),
                    new Case("AggregateFunction(uniqCombined, UInt32)", 1, "1"),
                    new Case("AggregateFunction(uniqCombined, Int8)", (byte) -1, "-1"),
                    new Case("AggregateFunction(uniqCombined, String)", "abc", "abc"),
                    new Case("AggregateFunction(uniqCombined, Float64)", -0.0, "-0"),
                    new Case("AggregateFunction(uniqCombined, Float32)", 1.5f, "1.5"),
                    new Case("AggregateFunction(uniqCombined, Int128)", -5, "-5"),
                    new Case("AggregateFunction(uniqCombined, Decimal(9, 2))", "1.5", "1.5"),
                    new Case("AggregateFunction(uniqCombined, IPv6)", "::1", "::1"),
                    new Case(
                            "AggregateFunction(uniqCombined, Date)",
                            java.time.LocalDate.of(2020, 1, 2),
                            "2020-01-02"),
                    new Case(
                            "AggregateFunction(uniqCombined, Enum16('a' = 1000, 'b' = -2))",
                            "b",
                            "b"),
                    new Case("AggregateFunction(uniqCombined, Nullable(UInt8))", null, "\\N"),
                    new Case("AggregateFunction(uniqCombined64, UInt32)", 1, "1"),
                    new Case(
                            "AggregateFunction(uniqCombined64, DateTime64(3, 'UTC'))",
                            Instant.ofEpochMilli(1700000000123L),
                            "2023-11-14 22:13:20.123"),
                    new Case("AggregateFunction(uniqCombined64, FixedString(2))", "ab", "ab"),
                    new Case("AggregateFunction(uniqCombined64, Nullable(Int64))", -3L, "-3"),
                    new Case(
                            "AggregateFunction(groupArrayArray, Array(String))",
                            List.of("é"),
                            "['é']"),
                    new Case("AggregateFunction(groupArrayArray, Array(UInt8))", List.of(), "[]"),
                    new Case(
                            "AggregateFunction(groupArrayArray(2), Array(Nullable(Int32)))",
                            java.util.Arrays.asList((Object) null),
                            "[NULL]"),
                    new Case("AggregateFunction(groupArray, String)", "é", "é"),
                    new Case("AggregateFunction(groupArray(3), Nullable(UInt32))", null, "\\N"),
                    new Case("AggregateFunction(groupArray(3), Nullable(UInt32))", 7, "7"));

    @Test
    void statesOfPlainValuesEqualClickHousesValueInputFormat() {
        ValueConverter converter = new ValueConverter("t", ZoneOffset.UTC);
        List<String> structure = new ArrayList<>();
        List<String> text = new ArrayList<>();
        List<String> ours = new ArrayList<>();
        for (int i = 0; i < CASES.size(); i++) {
            Case c = CASES.get(i);
            DataType type = DataTypeParser.parse(c.type());
            Column column = Columns.create(type, 1);
            converter.append(type, column, c.value(), "c" + i, 0);
            StringColumn s = (StringColumn) column;
            ours.add(
                    HexFormat.of()
                            .withUpperCase()
                            .formatHex(Arrays.copyOfRange(s.bytes(), s.start(0), s.end(0))));
            structure.add("c" + i + " " + c.type());
            text.add(c.text());
        }
        String hexes =
                String.join(
                        ", ",
                        structure.stream()
                                .map(c -> "hex(" + c.substring(0, c.indexOf(' ')) + ")")
                                .toList());
        String clickHouse =
                ch.query(
                        "SELECT "
                                + hexes
                                + " FROM format(TSV, '"
                                + String.join(", ", structure).replace("'", "\\'")
                                + "', $$"
                                + String.join("\t", text)
                                + "\n$$) SETTINGS aggregate_function_input_format = 'value'");
        assertThat(ours).isEqualTo(List.of(clickHouse.trim().split("\t", -1)));
    }

    @Test
    void aTupleOfTheWrongArityIsRefusedNamingColumnAndRow() {
        ValueConverter converter = new ValueConverter("t", ZoneOffset.UTC);
        DataType type = DataTypeParser.parse("AggregateFunction(argMax, String, UInt8)");
        assertThatThrownBy(
                        () -> converter.append(type, Columns.create(type, 1), List.of("a"), "m", 4))
                .isInstanceOf(ConversionException.class)
                .hasMessageContaining("m")
                .hasMessageContaining(
                        "expected a tuple of the 2 arguments of argMax, got 1 values");
    }
}
