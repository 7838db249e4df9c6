package io.github.s3mergetree.source.s3;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.source.s3.format.S3ObjectFormat;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.arrow.ArrowBlockFormat;
import io.github.s3mergetree.source.s3.format.nativeformat.NativeBlockFormat;
import io.github.s3mergetree.source.s3.format.parquet.ParquetBlockFormat;
import io.github.s3mergetree.source.s3.format.text.TextBlockFormat;
import java.util.Locale;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The object formats by their ClickHouse names ({@code Parquet}, {@code CSVWithNames}, {@code TSV},
 * {@code JSONEachRow}, {@code Native}, {@code Arrow}, {@code ArrowStream}), all decoding into
 * engine {@link Block}s of a {@link TargetSchema}.
 */
@PublicEvolving
public final class S3ObjectFormats {
    /** The names {@link #forName} accepts (ClickHouse spelling; aliases are accepted too). */
    public static final String NAMES =
            "Parquet, CSV, CSVWithNames, TabSeparated (TSV), TabSeparatedWithNames (TSVWithNames),"
                    + " JSONEachRow, Native, Arrow, ArrowStream";

    private S3ObjectFormats() {}

    /**
     * The format named {@code name}, case-insensitively.
     *
     * @param compressionMethod {@code auto} (by file extension) or a method name; text formats only
     * @throws IllegalArgumentException naming the unknown format and the known ones
     */
    public static S3ObjectFormat<Block> forName(
            String name, TargetSchema schema, String compressionMethod) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "parquet" -> new ParquetBlockFormat(schema);
            case "native" -> new NativeBlockFormat(schema);
            case "arrow", "arrowstream" ->
                    new ArrowBlockFormat(ArrowBlockFormat.Kind.of(name), schema);
            case "csv",
                    "csvwithnames",
                    "tabseparated",
                    "tsv",
                    "tabseparatedwithnames",
                    "tsvwithnames",
                    "jsoneachrow",
                    "ndjson",
                    "jsonlines" ->
                    new TextBlockFormat(TextBlockFormat.Kind.of(name), schema, compressionMethod);
            default ->
                    throw new IllegalArgumentException(
                            "unknown format '" + name + "' (known: " + NAMES + ")");
        };
    }
}
