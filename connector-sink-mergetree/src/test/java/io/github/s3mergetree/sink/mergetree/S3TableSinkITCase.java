package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.AttachStatements;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import io.github.s3mergetree.sink.mergetree.storage.S3TableStorage;
import io.github.s3mergetree.sink.mergetree.testutils.EventRows;
import io.github.s3mergetree.sink.mergetree.testutils.TableChecks;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The sink writing a table on S3 (S3Proxy 2.9.0 on loopback, {@code s3://bkt/tables/<name>}):
 * writers, committers and the merge coordinator share nothing but the bucket. With crashes injected
 * in writers and committers, every row is in the table exactly once, and ClickHouse (chDB) reads
 * the table in place from the bucket — {@code ATTACH TABLE … disk(type = s3_plain)} — with CHECK
 * TABLE passing and every row equal to ClickHouse's own INSERT of the same rows.
 */
class S3TableSinkITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(2)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @ChDbSession static ChDb ch;
    private static S3ProxyServer s3;

    @BeforeAll
    static void startS3() throws Exception {
        // in memory: like S3, the store has objects and no directories. (jclouds' filesystem store
        // keeps the directory an interrupted PUT created and lists it as an object "tmp_…/":
        // CI failed on such an empty directory of an aborted attempt's part, twice)
        s3 = new S3ProxyServer();
        s3.createBucket("bkt");
    }

    @AfterAll
    static void stopS3() throws Exception {
        s3.close();
    }

    private static MergeTreeSinkBuilder<org.apache.flink.table.data.RowData> sink(String name) {
        return MergeTreeSink.forRowData()
                .setRowType(EventRows.ROW_TYPE)
                .setTablePath("s3://bkt/tables/" + name)
                .setTableS3(s3.endpoint().toString(), "us-east-1", true)
                .setTableCredentials(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)
                .setDdl(EventRows.ddl(name));
    }

    @ParameterizedTest
    @EnumSource(
            value = RuntimeExecutionMode.class,
            names = {"STREAMING", "BATCH"})
    void everyRowExactlyOnceInAnS3TableClickHouseReadsInPlace(RuntimeExecutionMode mode)
            throws Exception {
        boolean streaming = mode == RuntimeExecutionMode.STREAMING;
        long n = 30_000;
        String name = "s3_" + mode.name().toLowerCase();
        ExactlyOnceITCase.RandomFailures.reset(streaming ? 11 : 5, 5, 2);

        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 100);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(20));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(mode);
        env.setParallelism(2);
        if (streaming) {
            env.enableCheckpointing(300);
        }
        MergeTreeSink<org.apache.flink.table.data.RowData> built =
                sink(name)
                        .setSetting("min_insert_block_size_rows", "2500")
                        .setSetting("optimize_final", "true")
                        .setFailureInjector(new ExactlyOnceITCase.RandomFailures())
                        .build();
        assertThat(built.storage()).isInstanceOf(S3TableStorage.class);
        env.fromSequence(0, n - 1)
                .map(
                        i -> {
                            if (streaming && i % 50 == 0) {
                                Thread.sleep(1);
                            }
                            return EventRows.row(i);
                        })
                .returns(InternalTypeInfo.of(EventRows.ROW_TYPE))
                .sinkTo(built);
        env.execute(name);

        S3TableStorage storage = (S3TableStorage) built.storage();
        try (TableStore store = storage.openStore()) {
            // No temporary part's object is left, and so no tmp_ prefix either.
            List<String> dirs = store.listDirectories("");
            assertThat(store.list("tmp_"))
                    .as("objects of temporary parts left in the table (directories: %s)", dirs)
                    .isEmpty();
            assertThat(dirs).noneMatch(d -> d.startsWith("tmp_"));
            List<PartName> active =
                    MergeTreeTable.readActiveParts(store).stream().map(p -> p.name()).toList();
            assertThat(active).isNotEmpty();
            String ddl = MergeTreeTable.storedDdl(store).orElseThrow();
            String attach =
                    AttachStatements.s3Plain(
                                    ddl,
                                    s3.endpoint() + "/bkt/tables/" + name + "/",
                                    S3ProxyServer.ACCESS_KEY,
                                    S3ProxyServer.SECRET_KEY,
                                    UUID.randomUUID())
                            .replaceFirst(
                                    "ATTACH TABLE `?" + name + "`?", "ATTACH TABLE ours_" + name);
            ch.execute(attach);
        }
        ch.execute(EventRows.ddl("ref_" + name));
        ch.execute(
                "INSERT INTO ref_"
                        + name
                        + " "
                        + EventRows.INPUT_COLUMNS
                        + " "
                        + EventRows.chdbSelect(0, n));
        ch.assertCheckTablePasses("ours_" + name);
        TableChecks.assertSameRows(
                ch, "ours_" + name, "ref_" + name, List.of("id", "u", "note", "id2"));
        assertThat(ExactlyOnceITCase.RandomFailures.injected())
                .as("failures injected")
                .isGreaterThanOrEqualTo(2);
    }

    @Test
    void tablePathsOtherThanS3FileAndAbsoluteAreRefusedInBuild() {
        for (String bad : List.of("relative/dir", "ftp://host/x", "hdfs://nn/t", "s3://X/y")) {
            assertThatThrownBy(
                            () ->
                                    MergeTreeSink.forRowData()
                                            .setRowType(EventRows.ROW_TYPE)
                                            .setTablePath(bad)
                                            .setDdl(EventRows.ddl("t"))
                                            .build())
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(bad.startsWith("s3") ? "bucket" : bad);
        }
        assertThat(
                        MergeTreeSink.forRowData()
                                .setRowType(EventRows.ROW_TYPE)
                                .setTablePath("file:///data/t")
                                .setDdl(EventRows.ddl("t"))
                                .build()
                                .storage()
                                .describe())
                .isEqualTo("/data/t");
        assertThatThrownBy(
                        () -> sink("t").setSetting("table.s3.endpoint", "127.0.0.1:9000").build())
                .hasMessageContaining("table.s3.endpoint")
                .hasMessageContaining("127.0.0.1:9000");
    }
}
