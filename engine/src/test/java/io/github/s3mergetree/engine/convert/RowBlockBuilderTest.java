package io.github.s3mergetree.engine.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.DateTime64Type;
import io.github.s3mergetree.engine.types.DateTimeType;
import io.github.s3mergetree.engine.types.DecimalType;
import io.github.s3mergetree.engine.types.EnumType;
import io.github.s3mergetree.engine.types.FixedStringType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RowBlockBuilderTest {
    private final List<String> names = List.of("u8", "d", "dt", "dt64", "dec", "fs", "e", "n");
    private final List<DataType> types =
            List.of(
                    DataTypes.UINT8,
                    DataTypes.DATE,
                    new DateTimeType("Asia/Kolkata"),
                    new DateTime64Type(3, "UTC"),
                    new DecimalType(9, 2),
                    new FixedStringType(3),
                    new EnumType(TypeKind.ENUM8, Map.of("a", 1, "b", 2)),
                    new NullableType(DataTypes.INT32));

    private RowBlockBuilder builder() {
        return new RowBlockBuilder("db.t", names, types, ZoneOffset.UTC);
    }

    @Test
    void convertsValuesByClickHouseRules() {
        RowBlockBuilder b = builder();
        b.addRow(
                255,
                "2024-02-29",
                "2024-01-01 05:30:00",
                "2024-01-01 00:00:01.234",
                "12.349",
                "ab",
                "b",
                null);
        b.addRow(0L, LocalDate.of(1970, 1, 2), 0, 5L, new BigDecimal("-1"), "abc", 1, 42);
        Block block = b.build();
        assertThat(block.rows()).isEqualTo(2);
        assertThat(((ShortColumn) block.column(1)).get(0))
                .isEqualTo((short) LocalDate.of(2024, 2, 29).toEpochDay());
        // 05:30 in Asia/Kolkata is midnight UTC
        assertThat(((IntColumn) block.column(2)).get(0)).isEqualTo(1704067200);
        assertThat(((LongColumn) block.column(3)).get(0)).isEqualTo(1704067201234L);
        assertThat(((IntColumn) block.column(4)).get(0)).isEqualTo(1234); // truncated to scale 2
        assertThat(((IntColumn) block.column(4)).get(1)).isEqualTo(-100);
        FixedBytesColumn fs = (FixedBytesColumn) block.column(5);
        assertThat(new byte[] {fs.data()[0], fs.data()[1], fs.data()[2]})
                .isEqualTo(new byte[] {'a', 'b', 0});
        assertThat(((NullableColumn) block.column(7)).isNull(0)).isTrue();
        assertThat(((NullableColumn) block.column(7)).isNull(1)).isFalse();
    }

    @Test
    void badValuesNameTableColumnAndRowAndLeaveTheBlockConsistent() {
        RowBlockBuilder b = builder();
        b.addRow(1, "2024-01-01", 0, 0, 0, "a", "a", 1);
        assertThatThrownBy(() -> b.addRow(256, "2024-01-01", 0, 0, 0, "a", "a", 1))
                .isInstanceOf(ConversionException.class)
                .hasMessageContaining("db.t")
                .hasMessageContaining("column u8")
                .hasMessageContaining("row 1")
                .hasMessageContaining("256");
        assertThatThrownBy(() -> b.addRow(1, "2024-01-01", 0, 0, 0, "abcd", "a", 1))
                .hasMessageContaining("column fs")
                .hasMessageContaining("row 2")
                .hasMessageContaining("too large value for FixedString(3)");
        assertThatThrownBy(() -> b.addRow(1, "2024-01-01", 0, 0, "12345678.9", "a", "a", 1))
                .hasMessageContaining("column dec")
                .hasMessageContaining("Decimal overflow");
        assertThatThrownBy(() -> b.addRow(1, "2024-01-01", 0, 0, 0, "a", "zzz", 1))
                .hasMessageContaining("column e")
                .hasMessageContaining("unknown element 'zzz'");
        assertThatThrownBy(() -> b.addRow(1, "2200-01-01", 0, 0, 0, "a", "a", 1))
                .hasMessageContaining("column d");
        assertThatThrownBy(() -> b.addRow(1, "2024-01-01", 0, 0, 0, "a", "a", "x"))
                .hasMessageContaining("column n")
                .hasMessageContaining("row 6");
        Block block = b.build();
        assertThat(block.rows()).isEqualTo(1);
        for (int c = 0; c < block.columnCount(); c++) {
            assertThat(block.column(c).size()).as(names.get(c)).isEqualTo(1);
        }
        assertThat(((StringColumn) new StringColumn(1)).size()).isZero();
    }
}
