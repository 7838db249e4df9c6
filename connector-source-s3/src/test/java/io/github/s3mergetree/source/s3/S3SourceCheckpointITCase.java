package io.github.s3mergetree.source.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.parquet.ParquetBlockFormat;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.ParquetFiles;
import io.github.s3mergetree.source.s3.testutils.S3TestServer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A job fails in the middle of large objects after a checkpoint and restarts from it: split
 * positions (row group + rows emitted) restore exactly, so the exactly-once collect sink sees every
 * row once.
 */
class S3SourceCheckpointITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    static final String BUCKET = "checkpoints";
    static final int OBJECTS = 3;
    static final long ROWS = 200_000;
    static S3TestServer s3;

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3TestServer();
        s3.createBucket(BUCKET);
        for (int o = 0; o < OBJECTS; o++) {
            long first = o * ROWS;
            s3.put(
                    BUCKET,
                    "cp/obj-" + o + ".parquet",
                    ParquetFiles.write(
                            "message m { required int64 id; optional binary name (STRING); }",
                            ROWS,
                            CompressionCodecName.SNAPPY,
                            256 * 1024,
                            (g, i) -> {
                                g.add("id", first + i);
                                g.add("name", "value " + (first + i));
                            }));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
    }

    static final AtomicBoolean CHECKPOINTED = new AtomicBoolean();
    static final AtomicBoolean FAILED = new AtomicBoolean();
    static final AtomicInteger BLOCKS_AFTER_CHECKPOINT = new AtomicInteger();

    /** Slows the stream down and fails once, some blocks after the first completed checkpoint. */
    static final class FailOnceAfterCheckpoint
            implements MapFunction<Block, Tuple3<Long, Long, Long>>, CheckpointListener {
        @Override
        public Tuple3<Long, Long, Long> map(Block b) throws Exception {
            Thread.sleep(5);
            if (CHECKPOINTED.get()
                    && !FAILED.get()
                    && BLOCKS_AFTER_CHECKPOINT.incrementAndGet() > 20) {
                FAILED.set(true);
                throw new RuntimeException("injected failure after a checkpoint");
            }
            return S3SourceITCase.blockChecksum(b);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            CHECKPOINTED.set(true);
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(300)
    void restoresMidObjectWithoutDuplicatesOrLoss() throws Exception {
        S3Source<Block> source =
                S3Source.builder(
                                new ParquetBlockFormat(TargetSchema.parse("id Int64, name String")))
                        .setLocation("s3://" + BUCKET + "/cp/*.parquet")
                        .setEndpoint(s3.endpoint())
                        .setPathStyleAccess(true)
                        .setCredentials(S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY)
                        .setOption(S3SourceOptions.MAX_BLOCK_SIZE, 2000)
                        .setOption(S3SourceOptions.SPLIT_SIZE, 1024L * 1024)
                        .build();
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(
                RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                java.time.Duration.ofMillis(100));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(150);
        long rows = 0;
        long sum = 0;
        long squares = 0;
        try (CloseableIterator<Tuple3<Long, Long, Long>> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "s3")
                        .map(new FailOnceAfterCheckpoint())
                        .returns(Types.TUPLE(Types.LONG, Types.LONG, Types.LONG))
                        .executeAndCollect()) {
            while (it.hasNext()) {
                Tuple3<Long, Long, Long> t = it.next();
                rows += t.f0;
                sum += t.f1;
                squares += t.f2;
            }
        }
        assertThat(FAILED.get()).as("the job failed and restarted").isTrue();
        assertThat(Tuple3.of(rows, sum, squares))
                .isEqualTo(S3SourceITCase.expected(0, OBJECTS * ROWS));
    }
}
