package io.github.s3mergetree.source.s3.format.typeinfo;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class BlockSerializerTest {
    static final TargetSchema SCHEMA =
            TargetSchema.parse(
                    "a UInt8, b Int16, c Int32, d Int64, e Float32, f Float64, g String,"
                            + " h Nullable(String), i Array(Nullable(Int32)), j Array(Array(String)),"
                            + " k Decimal(38, 3), l UUID, m DateTime64(3, 'UTC'), n Date,"
                            + " o LowCardinality(String), p Tuple(x Int8, y String),"
                            + " q Map(String, UInt64), r FixedString(3), s Enum8('x' = 1, 'y' = 2)");

    static Block sample(int rows) {
        RowBlockBuilder b =
                new RowBlockBuilder("t", SCHEMA.names(), SCHEMA.types(), ZoneOffset.UTC);
        for (int i = 0; i < rows; i++) {
            b.addRow(
                    i % 256,
                    i - 100,
                    i * 1000,
                    (long) i << 33,
                    i / 3f,
                    i / 7.0,
                    "s" + i,
                    i % 3 == 0 ? null : "h" + i,
                    i % 4 == 0 ? List.of() : Arrays.asList(i, null, -i),
                    List.of(List.of("a", "b" + i), List.of()),
                    new BigDecimal(i + ".125"),
                    new UUID(i, -i),
                    Instant.ofEpochMilli(1_700_000_000_000L + i),
                    LocalDate.ofEpochDay(i % 20000),
                    "lc" + (i % 3),
                    List.of(i % 100, "t" + i),
                    Map.of("k" + i, (long) i),
                    "ab",
                    i % 2 == 0 ? "x" : "y");
        }
        return b.build();
    }

    /** Row-by-row RowBinary bytes: a type-aware equality of blocks. */
    static byte[] rowBinary(Block b) {
        ByteArraySink out = new ByteArraySink();
        for (int r = 0; r < b.rows(); r++) {
            for (int c = 0; c < b.columnCount(); c++) {
                ValueSerde.write(b.types().get(c), b.column(c), r, out);
            }
        }
        return out.toByteArray();
    }

    @Test
    void roundTripsEveryColumnShape() throws Exception {
        TypeSerializer<Block> s =
                new BlockTypeInfo(SCHEMA).createSerializer(new SerializerConfigImpl());
        for (int rows : new int[] {0, 1, 777}) {
            Block block = sample(rows);
            DataOutputSerializer out = new DataOutputSerializer(1024);
            s.serialize(block, out);
            Block back = s.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
            assertThat(back.rows()).isEqualTo(rows);
            assertThat(back.names()).isEqualTo(block.names());
            assertThat(back.types()).isEqualTo(block.types());
            assertThat(rowBinary(back)).isEqualTo(rowBinary(block));
            assertThat(rowBinary(s.copy(block))).isEqualTo(rowBinary(block));
        }
    }

    @Test
    void blocksOfAnotherSchemaCarryTheirSchemaInline() throws Exception {
        TypeSerializer<Block> s = new BlockSerializer(TargetSchema.parse("z String"));
        Block block = sample(5);
        DataOutputSerializer out = new DataOutputSerializer(1024);
        s.serialize(block, out);
        Block back = s.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(back.types()).isEqualTo(block.types());
        assertThat(rowBinary(back)).isEqualTo(rowBinary(block));
    }

    @Test
    void snapshotRestoresAnEqualSerializer() throws Exception {
        BlockSerializer s = new BlockSerializer(SCHEMA);
        TypeSerializerSnapshot<Block> snap = s.snapshotConfiguration();
        DataOutputSerializer out = new DataOutputSerializer(256);
        snap.writeSnapshot(out);
        BlockSerializer.BlockSerializerSnapshot read =
                new BlockSerializer.BlockSerializerSnapshot();
        read.readSnapshot(
                snap.getCurrentVersion(),
                new DataInputDeserializer(out.getCopyOfBuffer()),
                getClass().getClassLoader());
        assertThat(read.restoreSerializer()).isEqualTo(s);
        assertThat(read.resolveSchemaCompatibility(snap).isCompatibleAsIs()).isTrue();
    }
}
