package io.github.s3mergetree.source.s3.format.parquet;

import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import io.github.s3mergetree.source.s3.testutils.ParquetFiles;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.util.FileUtils;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The Parquet decode path alone, on the objects of the small-objects benchmark ({@code id Int64,
 * name Nullable(String)}, Snappy, 10,000 rows each) read from a local directory: CPU time of the
 * reading thread (robust to other processes on the machine, unlike wall time) with bulk page
 * decoding and value by value, alternating. Not part of the default test run: {@code mvn -pl
 * connector-source-s3 test -Dtest=ParquetDecodeBenchmark -Ds3source.benchmark=true}.
 */
@EnabledIfSystemProperty(named = "s3source.benchmark", matches = "true")
class ParquetDecodeBenchmark {
    static final int OBJECTS = Integer.getInteger("s3source.benchmark.objects", 200);
    static final int ROWS = 10_000;
    static final int ROUNDS = 7;

    @Test
    void bulkVersusValueByValue() throws Exception {
        Path dir = Files.createTempDirectory("s3decode");
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        try {
            for (int i = 0; i < OBJECTS; i++) {
                Files.write(
                        dir.resolve(String.format("part-%04d.parquet", i)),
                        ParquetFiles.idsAndNames(
                                (long) i * ROWS, ROWS, CompressionCodecName.SNAPPY));
            }
            ParquetBlockFormat format =
                    new ParquetBlockFormat(TargetSchema.parse("id Int64, name Nullable(String)"));
            double[][] ms = new double[2][ROUNDS];
            try (FormatTesting t =
                    new FormatTesting(
                            ObjectStoreConfig.localDirectory(dir.toString()).createClient(),
                            new Configuration().set(S3SourceOptions.MAX_BLOCK_SIZE, 65536))) {
                for (int round = 0; round < ROUNDS; round++) {
                    for (int mode = 0; mode < 2; mode++) {
                        ParquetColumnDecoder.bulkDecoding = mode == 0;
                        long rows = 0;
                        long c0 = cpu.getCurrentThreadCpuTime();
                        for (int i = 0; i < OBJECTS; i++) {
                            rows +=
                                    FormatTesting.rows(
                                            t.readAll(
                                                    format,
                                                    t.wholeSplit(
                                                            String.format(
                                                                    "part-%04d.parquet", i))));
                        }
                        ms[mode][round] = (cpu.getCurrentThreadCpuTime() - c0) / 1e6;
                        if (rows != (long) OBJECTS * ROWS) {
                            throw new AssertionError("read " + rows + " rows");
                        }
                        System.out.printf(
                                "round %d %s: %.0f ms CPU, %.1f M rows/s of CPU%n",
                                round,
                                mode == 0 ? "bulk" : "value by value",
                                ms[mode][round],
                                rows / 1e3 / ms[mode][round]);
                    }
                }
            } finally {
                ParquetColumnDecoder.bulkDecoding = true;
            }
            Arrays.sort(ms[0]);
            Arrays.sort(ms[1]);
            double rows = (double) OBJECTS * ROWS;
            System.out.printf(
                    "median of %d: bulk %.0f ms (%.1f M rows/s) | value by value %.0f ms (%.1f M"
                            + " rows/s) | speed-up %.2f%n",
                    ROUNDS,
                    ms[0][ROUNDS / 2],
                    rows / 1e3 / ms[0][ROUNDS / 2],
                    ms[1][ROUNDS / 2],
                    rows / 1e3 / ms[1][ROUNDS / 2],
                    ms[1][ROUNDS / 2] / ms[0][ROUNDS / 2]);
        } finally {
            FileUtils.deleteDirectory(dir.toFile());
        }
    }
}
