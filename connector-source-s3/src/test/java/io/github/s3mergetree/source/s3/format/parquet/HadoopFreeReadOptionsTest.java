package io.github.s3mergetree.source.s3.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.objectstore.LocalFileObjectStoreClient;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import io.github.s3mergetree.source.s3.testutils.ParquetFiles;
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.parquet.HadoopFreeReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link HadoopFreeReadOptions} builds what Parquet's own builder builds (this test has Hadoop on
 * its class path, the builder needs it): every option, so that a Parquet upgrade that changes a
 * default fails here instead of changing how objects are read.
 */
class HadoopFreeReadOptionsTest {

    @ParameterizedTest
    @CsvSource({"true, true", "false, false", "true, false"})
    void everyOptionIsTheBuildersDefaultOrTheChosenOne(boolean vectoredIo, boolean checksums) {
        ParquetReadOptions builders =
                new ParquetReadOptions.Builder(new PlainParquetConfiguration())
                        .withCodecFactory(DecompressOnlyCodecFactory.INSTANCE)
                        .withUseHadoopVectoredIo(vectoredIo)
                        .usePageChecksumVerification(checksums)
                        .build();
        ParquetReadOptions ours =
                HadoopFreeReadOptions.create(
                        DecompressOnlyCodecFactory.INSTANCE, vectoredIo, checksums);

        assertThat(ours.useSignedStringMinMax()).isEqualTo(builders.useSignedStringMinMax());
        assertThat(ours.useStatsFilter()).isEqualTo(builders.useStatsFilter());
        assertThat(ours.useDictionaryFilter()).isEqualTo(builders.useDictionaryFilter());
        assertThat(ours.useRecordFilter()).isEqualTo(builders.useRecordFilter());
        assertThat(ours.useColumnIndexFilter()).isEqualTo(builders.useColumnIndexFilter());
        assertThat(ours.usePageChecksumVerification()).isEqualTo(checksums);
        assertThat(ours.usePageChecksumVerification())
                .isEqualTo(builders.usePageChecksumVerification());
        assertThat(ours.useBloomFilter()).isEqualTo(builders.useBloomFilter());
        assertThat(ours.useOffHeapDecryptBuffer()).isEqualTo(builders.useOffHeapDecryptBuffer());
        assertThat(ours.useHadoopVectoredIo()).isEqualTo(vectoredIo);
        assertThat(ours.useHadoopVectoredIo()).isEqualTo(builders.useHadoopVectoredIo());
        assertThat(ours.getRecordFilter()).isEqualTo(builders.getRecordFilter());
        assertThat(ours.getMetadataFilter()).isEqualTo(builders.getMetadataFilter());
        assertThat(ours.getCodecFactory()).isSameAs(builders.getCodecFactory());
        assertThat(ours.getAllocator()).hasSameClassAs(builders.getAllocator());
        assertThat(ours.getMaxAllocationSize()).isEqualTo(builders.getMaxAllocationSize());
        assertThat(ours.getPropertyNames()).isEqualTo(builders.getPropertyNames());
        assertThat(ours.getDecryptionProperties()).isEqualTo(builders.getDecryptionProperties());
        assertThat(ours.getMetricsCallback()).isEqualTo(builders.getMetricsCallback());
        assertThat(ours.getConfiguration()).hasSameClassAs(builders.getConfiguration());
    }

    @Test
    void parquetObjectsAreReadWithNoHadoopClassOnTheClassPath(@TempDir Path dir) throws Exception {
        Files.write(
                dir.resolve("ids.parquet"),
                ParquetFiles.idsAndNames(0, 50_000, CompressionCodecName.ZSTD));
        List<URL> withoutHadoop = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.contains("hadoop-client")) {
                withoutHadoop.add(Path.of(entry).toUri().toURL());
            }
        }
        try (URLClassLoader loader =
                new URLClassLoader(
                        withoutHadoop.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> loader.loadClass("org.apache.hadoop.conf.Configuration"))
                    .isInstanceOf(ClassNotFoundException.class);
            Object rows =
                    loader.loadClass(ReadWithoutHadoop.class.getName())
                            .getMethod("rows", String.class, String.class)
                            .invoke(null, dir.toString(), "ids.parquet");
            assertThat(rows).isEqualTo(50_000L);
        }
    }

    /** Runs in a class loader without Hadoop: reads a Parquet object as the source does. */
    public static final class ReadWithoutHadoop {
        public static long rows(String dir, String key) throws Exception {
            try (FormatTesting t =
                    new FormatTesting(LocalFileObjectStoreClient.of(dir), new Configuration())) {
                try {
                    return FormatTesting.rows(
                            t.readAll(
                                    new ParquetBlockFormat(
                                            TargetSchema.parse("id Int64, name String")),
                                    t.wholeSplit(key)));
                } finally {
                    t.executor.shutdown();
                }
            }
        }
    }
}
