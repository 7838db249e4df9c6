package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.compress.CompressionCodec;
import io.github.s3mergetree.engine.compress.CompressionCodecs;
import io.github.s3mergetree.engine.index.SkipIndex;
import java.util.List;

/**
 * How parts are laid out on disk, by ClickHouse's MergeTree setting names.
 *
 * @param indexGranularity {@code index_granularity}: max rows per granule (8192)
 * @param indexGranularityBytes {@code index_granularity_bytes}: target bytes per granule (10 MiB);
 *     0 selects the most portable format — non-adaptive {@code .mrk} marks with granules of exactly
 *     {@code index_granularity} rows, readable by ClickHouse 18.16 and every later version
 * @param minCompressBlockSize {@code min_compress_block_size} (65536)
 * @param maxCompressBlockSize {@code max_compress_block_size} (1048576)
 * @param defaultCodec the codec of columns without {@code CODEC(...)} (LZ4)
 * @param fsync whether files and directories are fsynced before a part becomes visible ({@code
 *     fsync_after_insert} / {@code fsync_part_directory})
 * @param shareNestedOffsets {@code share_nested_offsets} (true): Array and Map columns with dotted
 *     names ({@code n.a}, {@code n.b}) share one stream of outer sizes per prefix ({@code
 *     n.size0}), as ClickHouse's Nested columns do; false gives each its own ({@code n%2Ea.size0})
 * @param skipIndexes the table's data-skipping indexes, written into every part ({@code
 *     skp_idx_<name>.idx}/{@code .idx2} and marks)
 * @param projections the table's projections, written into every part as {@code <name>.proj}
 *     sub-parts (see {@link ProjectionPartWriter})
 */
public record PartWriterOptions(
        int indexGranularity,
        long indexGranularityBytes,
        int minCompressBlockSize,
        int maxCompressBlockSize,
        CompressionCodec defaultCodec,
        boolean fsync,
        boolean shareNestedOffsets,
        List<SkipIndex> skipIndexes,
        List<PartProjection> projections) {

    /** Options without projections. */
    public PartWriterOptions(
            int indexGranularity,
            long indexGranularityBytes,
            int minCompressBlockSize,
            int maxCompressBlockSize,
            CompressionCodec defaultCodec,
            boolean fsync,
            boolean shareNestedOffsets,
            List<SkipIndex> skipIndexes) {
        this(
                indexGranularity,
                indexGranularityBytes,
                minCompressBlockSize,
                maxCompressBlockSize,
                defaultCodec,
                fsync,
                shareNestedOffsets,
                skipIndexes,
                List.of());
    }

    /** Options without skip indexes. */
    public PartWriterOptions(
            int indexGranularity,
            long indexGranularityBytes,
            int minCompressBlockSize,
            int maxCompressBlockSize,
            CompressionCodec defaultCodec,
            boolean fsync,
            boolean shareNestedOffsets) {
        this(
                indexGranularity,
                indexGranularityBytes,
                minCompressBlockSize,
                maxCompressBlockSize,
                defaultCodec,
                fsync,
                shareNestedOffsets,
                List.of());
    }

    /** Options with {@code share_nested_offsets = 1}, ClickHouse's default. */
    public PartWriterOptions(
            int indexGranularity,
            long indexGranularityBytes,
            int minCompressBlockSize,
            int maxCompressBlockSize,
            CompressionCodec defaultCodec,
            boolean fsync) {
        this(
                indexGranularity,
                indexGranularityBytes,
                minCompressBlockSize,
                maxCompressBlockSize,
                defaultCodec,
                fsync,
                true);
    }

    public PartWriterOptions {
        skipIndexes = List.copyOf(skipIndexes);
        projections = List.copyOf(projections);
        if (indexGranularity <= 0) {
            throw new IllegalArgumentException(
                    "index_granularity must be positive, got " + indexGranularity);
        }
        if (indexGranularityBytes < 0) {
            throw new IllegalArgumentException(
                    "index_granularity_bytes must be >= 0, got " + indexGranularityBytes);
        }
        if (minCompressBlockSize <= 0 || maxCompressBlockSize <= 0) {
            throw new IllegalArgumentException(
                    "compress block sizes must be positive, got min="
                            + minCompressBlockSize
                            + " max="
                            + maxCompressBlockSize);
        }
    }

    /** ClickHouse's defaults: adaptive granularity, LZ4, no fsync. */
    public static PartWriterOptions defaults() {
        return new PartWriterOptions(
                8192, 10L << 20, 65536, 1 << 20, CompressionCodecs.lz4(), false);
    }

    /** Whether parts use adaptive granularity ({@code .mrk2} marks with a final mark). */
    public boolean adaptive() {
        return indexGranularityBytes > 0;
    }

    public PartWriterOptions withIndexGranularity(int rows, long bytes) {
        return new PartWriterOptions(
                rows,
                bytes,
                minCompressBlockSize,
                maxCompressBlockSize,
                defaultCodec,
                fsync,
                shareNestedOffsets,
                skipIndexes,
                projections);
    }

    public PartWriterOptions withFsync(boolean value) {
        return new PartWriterOptions(
                indexGranularity,
                indexGranularityBytes,
                minCompressBlockSize,
                maxCompressBlockSize,
                defaultCodec,
                value,
                shareNestedOffsets,
                skipIndexes,
                projections);
    }

    /** These options with {@code share_nested_offsets} = {@code value}. */
    public PartWriterOptions withShareNestedOffsets(boolean value) {
        return new PartWriterOptions(
                indexGranularity,
                indexGranularityBytes,
                minCompressBlockSize,
                maxCompressBlockSize,
                defaultCodec,
                fsync,
                value,
                skipIndexes,
                projections);
    }

    /** These options with the table's data-skipping indexes. */
    public PartWriterOptions withSkipIndexes(List<SkipIndex> value) {
        return new PartWriterOptions(
                indexGranularity,
                indexGranularityBytes,
                minCompressBlockSize,
                maxCompressBlockSize,
                defaultCodec,
                fsync,
                shareNestedOffsets,
                value,
                projections);
    }

    /** These options with the table's projections. */
    public PartWriterOptions withProjections(List<PartProjection> value) {
        return new PartWriterOptions(
                indexGranularity,
                indexGranularityBytes,
                minCompressBlockSize,
                maxCompressBlockSize,
                defaultCodec,
                fsync,
                shareNestedOffsets,
                skipIndexes,
                value);
    }
}
