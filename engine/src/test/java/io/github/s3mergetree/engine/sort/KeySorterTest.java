package io.github.s3mergetree.engine.sort;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.IntFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The radix key sorter orders rows exactly like the stable comparator sort, ties included. */
class KeySorterTest {
    @ParameterizedTest
    @ValueSource(
            strings = {
                "UInt8|Int64",
                "Int8|Date|DateTime64(3)",
                "UInt64",
                "Float64|Int32",
                "String|UInt16",
                "UInt16|String",
                "FixedString(3)|Int8",
                "UUID",
                "Nullable(Int32)|UInt8",
                "Int32|Float32|String",
                "Decimal(18, 4)|Date32|DateTime",
                "Int128|UInt8"
            })
    void equalsTheComparatorSort(String spec) {
        String[] typeNames = spec.split("\\|");
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        for (int i = 0; i < typeNames.length; i++) {
            names.add("c" + i);
            types.add(DataTypeParser.parse(typeNames[i]));
        }
        Random r = new Random(spec.hashCode());
        RowBlockBuilder b = new RowBlockBuilder("t", names, types, ZoneOffset.UTC);
        int n = 5000;
        for (int row = 0; row < n; row++) {
            Object[] values = new Object[types.size()];
            for (int c = 0; c < types.size(); c++) {
                values[c] = value(typeNames[c], r).apply(row);
            }
            b.addRow(values);
        }
        Block block = b.build();
        List<Column> cols = block.columns();
        int[] rows = new int[n];
        for (int i = 0; i < n; i++) {
            rows[i] = i;
        }
        List<RowComparator> parts = new ArrayList<>();
        for (int c = 0; c < types.size(); c++) {
            parts.add(RowComparators.forColumn(types.get(c), cols.get(c)));
        }
        int[] expected = StableSort.sortedPermutation(n, RowComparators.lexicographic(parts));
        assertThat(KeySorter.sort(types, cols, rows)).isEqualTo(expected);
        // a subset of rows, as for one partition
        int[] odd = new int[n / 2];
        for (int i = 0; i < odd.length; i++) {
            odd[i] = 2 * i + 1;
        }
        int[] sortedOdd = KeySorter.sort(types, cols, odd);
        RowComparator cmp = RowComparators.lexicographic(parts);
        for (int i = 1; i < sortedOdd.length; i++) {
            int c = cmp.compare(sortedOdd[i - 1], sortedOdd[i]);
            assertThat(c < 0 || (c == 0 && sortedOdd[i - 1] < sortedOdd[i])).isTrue();
        }
    }

    private static IntFunction<Object> value(String type, Random r) {
        return row -> {
            switch (type) {
                case "UInt8":
                    return r.nextInt(4) * 60;
                case "Int8":
                    return r.nextInt(256) - 128;
                case "UInt16":
                    return r.nextInt(3);
                case "Int32":
                    return r.nextInt(20) - 10;
                case "Int64":
                    return r.nextLong();
                case "UInt64":
                    return new java.math.BigInteger(64, r);
                case "Float64":
                case "Float32":
                    double[] special = {
                        Double.NaN, -0.0, 0.0, -1.5, Double.NEGATIVE_INFINITY, 3e10
                    };
                    return r.nextInt(3) == 0
                            ? special[r.nextInt(special.length)]
                            : r.nextGaussian();
                case "Date":
                    return java.time.LocalDate.of(2024, 1, 1).plusDays(r.nextInt(30));
                case "Date32":
                    return java.time.LocalDate.of(1950, 1, 1).plusDays(r.nextInt(40000));
                case "DateTime":
                    return (long) r.nextInt(1 << 30);
                case "DateTime64(3)":
                    return r.nextLong() >> 20;
                case "String":
                    String[] p = {
                        "", "a", "ab", "abcdefgh", "abcdefghi", "abcdefghij", "b", "\u00ff"
                    };
                    return p[r.nextInt(p.length)]
                            + (r.nextBoolean() ? "" : Integer.toString(r.nextInt(3)));
                case "FixedString(3)":
                    return new String(
                            new char[] {(char) ('a' + r.nextInt(3)), (char) ('a' + r.nextInt(2))});
                case "UUID":
                    return new UUID(r.nextInt(3), r.nextLong());
                case "Nullable(Int32)":
                    return r.nextInt(4) == 0 ? null : r.nextInt(5);
                case "Decimal(18, 4)":
                    return java.math.BigDecimal.valueOf(r.nextInt(2000) - 1000, 2);
                case "Int128":
                    return java.math.BigInteger.valueOf(r.nextLong()).shiftLeft(r.nextInt(40));
                default:
                    throw new IllegalArgumentException(type);
            }
        };
    }
}
