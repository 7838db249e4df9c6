package io.github.s3mergetree.engine.part;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.DateTimeType;
import io.github.s3mergetree.engine.types.DecimalType;
import io.github.s3mergetree.engine.types.EnumType;
import io.github.s3mergetree.engine.types.FixedStringType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Partition ids against the vectors chDB produced (mergetree-format.md §8.1). */
class PartitionIdsTest {

    private static String id(List<DataType> types, List<Column> cols) {
        return PartitionIds.compute(types, cols, 0);
    }

    @Test
    void integerKeysAreDecimalJoinedByDashAndDatesAsYyyymmdd() {
        ShortColumn u16 = new ShortColumn(1);
        u16.add((short) 7);
        ByteColumn i8 = new ByteColumn(1);
        i8.add((byte) -3);
        ShortColumn date = new ShortColumn(1);
        date.add((short) LocalDate.of(2024, 2, 29).toEpochDay());
        assertThat(
                        id(
                                List.of(DataTypes.UINT16, DataTypes.INT8, DataTypes.DATE),
                                List.of(u16, i8, date)))
                .isEqualTo("7--3-20240229");

        EnumType e = new EnumType(TypeKind.ENUM8, Map.of("b", -2, "a", 1));
        ByteColumn en = new ByteColumn(1);
        en.add((byte) -2);
        IntColumn dt = new IntColumn(1);
        dt.add(1704164645);
        ByteColumn bool = new ByteColumn(1);
        bool.add((byte) 1);
        assertThat(id(List.of(e, new DateTimeType(null), DataTypes.BOOL), List.of(en, dt, bool)))
                .isEqualTo("-2-1704164645-1");

        IntColumn yyyymm = new IntColumn(1);
        yyyymm.add(202401);
        assertThat(id(List.of(DataTypes.UINT32), List.of(yyyymm))).isEqualTo("202401");
    }

    @Test
    void otherKeysAreSipHashedWithFieldTags() {
        StringColumn s = new StringColumn(1);
        s.add("abc");
        assertThat(id(List.of(DataTypes.STRING_TYPE), List.of(s)))
                .isEqualTo("f815b3f19bae3563399d3c6214a8ed43");
        StringColumn empty = new StringColumn(1);
        empty.add("");
        assertThat(id(List.of(DataTypes.STRING_TYPE), List.of(empty)))
                .isEqualTo("f64abffc6c96f8ef72c783f1b9426e19");

        ByteColumn one = new ByteColumn(1);
        one.add((byte) 1);
        StringColumn hey = new StringColumn(1);
        hey.add("hey");
        assertThat(id(List.of(DataTypes.UINT8, DataTypes.STRING_TYPE), List.of(one, hey)))
                .isEqualTo("cb0e1e53458f4d1ef439e4044069f562");

        FixedBytesColumn i128 = new FixedBytesColumn(16, 1);
        byte[] minus5 = new byte[16];
        java.util.Arrays.fill(minus5, (byte) 0xFF);
        minus5[0] = (byte) 0xFB;
        i128.add(minus5, 0);
        assertThat(id(List.of(DataTypes.INT128), List.of(i128)))
                .isEqualTo("1d894163b5898d55565fce607a003475");

        NullableType nu8 = new NullableType(DataTypes.UINT8);
        NullableColumn nul = (NullableColumn) Columns.create(nu8, 1);
        nul.addNull();
        assertThat(id(List.of(nu8), List.of(nul))).isEqualTo("2b16b490a87466b6a6d34fd9027f3c3d");

        // UUID 01234567-89ab-cdef-1122-334455667788: LE(high64) LE(low64)
        FixedBytesColumn uuid = new FixedBytesColumn(16, 1);
        byte[] u = new byte[16];
        long hi = 0x0123456789abcdefL;
        long lo = 0x1122334455667788L;
        for (int i = 0; i < 8; i++) {
            u[i] = (byte) (hi >>> (8 * i));
            u[8 + i] = (byte) (lo >>> (8 * i));
        }
        uuid.add(u, 0);
        assertThat(id(List.of(DataTypes.UUID), List.of(uuid)))
                .isEqualTo("fc654a131666bf01c2027e1b4664717a");

        IntColumn dec = new IntColumn(1);
        dec.add(125);
        FixedBytesColumn fs = new FixedBytesColumn(2, 1);
        fs.add(new byte[] {'a', 'b'}, 0);
        assertThat(id(List.of(new DecimalType(9, 2), new FixedStringType(2)), List.of(dec, fs)))
                .isEqualTo("17ab00e7072933b36af4b8a2478e00cc");
    }

    @Test
    void nullableIntegerThatIsNotNullStaysDecimal() {
        NullableType nu8 = new NullableType(DataTypes.UINT8);
        NullableColumn c = (NullableColumn) Columns.create(nu8, 1);
        ((ByteColumn) c.nested()).add((byte) 4);
        c.addNotNull();
        assertThat(id(List.of(nu8), List.of(c))).isEqualTo("4");
    }
}
