package org.apache.parquet;

import java.util.HashMap;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.format.converter.ParquetMetadataConverter;

/**
 * {@link ParquetReadOptions} built without Hadoop: what {@code new ParquetReadOptions.Builder(new
 * PlainParquetConfiguration())} builds, with the caller's codec factory, but without the Hadoop
 * codec factory (and Hadoop {@code Configuration}) the builder's constructor creates before it can
 * be replaced. With it the S3 source reads Parquet with no Hadoop class on the class path, so
 * neither its users nor the SQL connector jar carry Hadoop (~150 MB of classes).
 *
 * <p>Why in Parquet's package: {@link ParquetReadOptions}'s constructor is package-private and its
 * only public way in, the builder, creates Hadoop objects (parquet-java 1.18.1). The defaults are
 * the builder's, checked field by field against it by {@code HadoopFreeReadOptionsTest} (which has
 * Hadoop on its class path), so a Parquet upgrade that changes them fails the build.
 */
public final class HadoopFreeReadOptions {
    private HadoopFreeReadOptions() {}

    /** The builder's default maximum allocation ({@code parquet.read.allocation.size}). */
    static final int MAX_ALLOCATION_SIZE = 8 * 1024 * 1024;

    /**
     * The options of {@code new ParquetReadOptions.Builder(new PlainParquetConfiguration())}, with
     * {@code codecs} as the codec factory and the two settings the source chooses.
     *
     * @param codecs the decompressors of pages
     * @param vectoredIo whether row groups are read as views of the prefetched column chunks
     * @param pageChecksums whether pages that carry a CRC are checked
     */
    public static ParquetReadOptions create(
            CompressionCodecFactory codecs, boolean vectoredIo, boolean pageChecksums) {
        return new ParquetReadOptions(
                false, // useSignedStringMinMax
                true, // useStatsFilter
                true, // useDictionaryFilter
                true, // useRecordFilter
                true, // useColumnIndexFilter
                pageChecksums,
                true, // useBloomFilter
                false, // useOffHeapDecryptBuffer
                vectoredIo,
                FilterCompat.NOOP,
                ParquetMetadataConverter.NO_FILTER,
                codecs,
                new HeapByteBufferAllocator(),
                MAX_ALLOCATION_SIZE,
                new HashMap<>(),
                null, // no decryption
                null, // no metrics callback
                new PlainParquetConfiguration());
    }
}
