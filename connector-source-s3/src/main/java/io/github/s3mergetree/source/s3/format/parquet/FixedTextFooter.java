package io.github.s3mergetree.source.s3.format.parquet;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Type;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * A Parquet footer whose {@code FIXED_LEN_BYTE_ARRAY} columns are annotated as text ({@code UTF8}
 * converted type, {@code STRING}, {@code ENUM} or {@code JSON} logical type), as fastparquet writes
 * fixed-length text columns: parquet-mr refuses such a footer ("STRING can only annotate BINARY")
 * while ClickHouse reads the columns as their bytes. The annotation is dropped, so the column reads
 * as a plain fixed-length binary (into String without trailing zero bytes, as ClickHouse's
 * FixedString cast).
 */
final class FixedTextFooter {
    private FixedTextFooter() {}

    /**
     * The footer of {@code footer[off, off + len)} without text annotations on fixed-length
     * binaries, or null when it has none (the footer's refusal is then something else).
     */
    static ParquetMetadata read(byte[] footer, int off, int len) throws IOException {
        FileMetaData meta = Util.readFileMetaData(new ByteArrayInputStream(footer, off, len));
        boolean changed = false;
        for (SchemaElement e : meta.getSchema()) {
            if (e.isSetType()
                    && e.getType() == Type.FIXED_LEN_BYTE_ARRAY
                    && (isText(e) || (e.isSetConverted_type() && isTextConverted(e)))) {
                e.unsetConverted_type();
                e.unsetLogicalType();
                changed = true;
            }
        }
        return changed ? new ParquetMetadataConverter().fromParquetMetadata(meta) : null;
    }

    private static boolean isText(SchemaElement e) {
        return e.isSetLogicalType()
                && (e.getLogicalType().isSetSTRING()
                        || e.getLogicalType().isSetENUM()
                        || e.getLogicalType().isSetJSON());
    }

    private static boolean isTextConverted(SchemaElement e) {
        ConvertedType t = e.getConverted_type();
        return t == ConvertedType.UTF8 || t == ConvertedType.ENUM || t == ConvertedType.JSON;
    }
}
