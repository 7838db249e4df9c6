package io.github.s3mergetree.source.s3.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.source.s3.format.ReadAsClickHouse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.Float16Type;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Parquet fixed-length byte arrays that ClickHouse reads as something other than bytes, against
 * chDB: {@code FLOAT16} (every one of the 65,536 half floats, with NULLs: into Float32, Float64)
 * and the {@code INTERVAL} converted type (12 bytes, as DuckDB writes it: into FixedString(12) and
 * into String, where ClickHouse's FixedString cast drops trailing zero bytes), next to a plain
 * fixed-length binary with trailing and inner zero bytes. chDB writes FixedString columns; the
 * footer is then annotated as those writers annotate them (chDB does not write these types).
 */
class ParquetFixedLengthTypesTest {
    @ChDbSession static ChDb chdb;

    @TempDir static Path dir;

    static Path file;

    @BeforeAll
    static void write() throws Exception {
        Path raw = dir.resolve("fixed.parquet");
        chdb.execute(
                "INSERT INTO FUNCTION file('"
                        + raw
                        + "', Parquet, 'h Nullable(FixedString(2)), iv FixedString(12),"
                        + " fb FixedString(6)') SELECT"
                        // every half float bit pattern, little-endian, a NULL now and then
                        + " if(number % 1000 = 999, NULL, reinterpretAsFixedString(toUInt16(number))),"
                        // months, days, milliseconds: little-endian UInt32s, often ending in zeros
                        + " toFixedString(concat(reinterpretAsFixedString(toUInt32(number % 13)),"
                        + " reinterpretAsFixedString(toUInt32(number % 40)),"
                        + " reinterpretAsFixedString(toUInt32(number * 1000 % 86400000))), 12),"
                        + " toFixedString(if(number % 3 = 0, concat('x', char(0), 'y'),"
                        + " toString(number % 1000)), 6)"
                        + " FROM numbers(65536) SETTINGS engine_file_truncate_on_insert = 1,"
                        + " output_format_parquet_row_group_size = 20000");
        file = dir.resolve("annotated.parquet");
        Files.write(
                file,
                ParquetRewriting.editFooter(
                        Files.readAllBytes(raw),
                        meta -> {
                            for (SchemaElement e : meta.getSchema()) {
                                if (e.getName().equals("h")) {
                                    e.setLogicalType(LogicalType.FLOAT16(new Float16Type()));
                                    e.unsetConverted_type();
                                } else if (e.getName().equals("iv")) {
                                    e.unsetLogicalType();
                                    e.setConverted_type(ConvertedType.INTERVAL);
                                }
                            }
                        }));
        // the annotations as parquet-mr reads them
        {
            var schema = ParquetRewriting.schema(file);
            assertThat(schema.getType("h").getLogicalTypeAnnotation())
                    .isInstanceOf(
                            org.apache.parquet.schema.LogicalTypeAnnotation
                                    .Float16LogicalTypeAnnotation.class);
            assertThat(schema.getType("iv").getLogicalTypeAnnotation())
                    .isInstanceOf(
                            org.apache.parquet.schema.LogicalTypeAnnotation
                                    .IntervalLogicalTypeAnnotation.class);
            assertThat(schema.getType("fb").getLogicalTypeAnnotation()).isNull();
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "h Nullable(Float32), iv FixedString(12), fb String",
                "h Float64, iv String, fb FixedString(6)",
                "h Nullable(Float64), iv Nullable(String), fb Nullable(String)"
            })
    void readAsClickHouseReadsThem(String structure) throws Exception {
        assertThat(ReadAsClickHouse.assertSame(chdb, file, "Parquet", structure)).isEqualTo(65536);
    }
}
