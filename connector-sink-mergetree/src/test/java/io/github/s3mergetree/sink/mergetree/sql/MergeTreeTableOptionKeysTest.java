package io.github.s3mergetree.sink.mergetree.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.S3TableStorage;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.factories.FactoryUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The option vocabulary of {@code 'mergetree'}: an {@code s3://} table reached with the S3
 * connection keys the source takes too ({@code s3.endpoint}, ...) or the former {@code table.s3.*}
 * keys; the delivery guarantee as Flink's Kafka sink names it ({@code sink.delivery-guarantee});
 * messages for bad values that name the SQL option.
 */
class MergeTreeTableOptionKeysTest {
    @TempDir Path tmp;

    private static final ResolvedSchema SCHEMA =
            ResolvedSchema.of(Column.physical("id", DataTypes.BIGINT().notNull()));

    private MergeTreeSink<?> sink(Map<String, String> extra) {
        Map<String, String> options = new HashMap<>();
        options.put("connector", "mergetree");
        options.put("path", tmp.resolve("t").toString());
        options.put("ddl", "CREATE TABLE t (id Int64) ENGINE = MergeTree ORDER BY id");
        options.put("validate-on-build", "false");
        options.putAll(extra);
        CatalogTable table =
                CatalogTable.newBuilder()
                        .schema(Schema.newBuilder().fromResolvedSchema(SCHEMA).build())
                        .options(options)
                        .build();
        return (MergeTreeSink<?>)
                ((SinkV2Provider)
                                new MergeTreeDynamicTableSinkFactory()
                                        .createDynamicTableSink(
                                                new FactoryUtil.DefaultDynamicTableContext(
                                                        ObjectIdentifier.of("c", "d", "t"),
                                                        new ResolvedCatalogTable(table, SCHEMA),
                                                        Map.of(),
                                                        new Configuration(),
                                                        MergeTreeTableOptionKeysTest.class
                                                                .getClassLoader(),
                                                        false))
                                        .getSinkRuntimeProvider(null))
                        .createSink();
    }

    @Test
    void anS3TableTakesTheSharedConnectionKeysAndTheFormerOnes() {
        for (Map<String, String> keys :
                List.of(
                        Map.of(
                                "path", "s3://bucket/tables/t",
                                "s3.endpoint", "http://127.0.0.1:9000",
                                "s3.region", "eu-west-1",
                                "s3.path-style-access", "1",
                                "s3.access-key", "ak",
                                "s3.secret-key", "sk"),
                        Map.of(
                                "path", "s3://bucket/tables/t",
                                "table.s3.endpoint", "http://127.0.0.1:9000",
                                "table.s3.region", "eu-west-1",
                                "table.s3.path-style-access", "true",
                                "table.s3.access-key", "ak",
                                "table.s3.secret-key", "sk"))) {
            S3TableStorage storage = (S3TableStorage) sink(keys).storage();
            assertThat(storage.config().endpoint())
                    .as("%s", keys)
                    .isEqualTo("http://127.0.0.1:9000");
            assertThat(storage.config().region()).as("%s", keys).isEqualTo("eu-west-1");
            assertThat(storage.config().pathStyle()).as("%s", keys).isTrue();
            assertThat(storage.config().accessKeyId()).as("%s", keys).isEqualTo("ak");
        }
    }

    @Test
    void theDeliveryGuaranteeIsInsertDeduplication() {
        assertThat(sink(Map.of()).options().get(MergeTreeSinkOptions.INSERT_DEDUPLICATE)).isTrue();
        assertThat(
                        sink(Map.of("sink.delivery-guarantee", "exactly-once"))
                                .options()
                                .get(MergeTreeSinkOptions.INSERT_DEDUPLICATE))
                .isTrue();
        assertThat(
                        sink(Map.of("sink.delivery-guarantee", "at-least-once"))
                                .options()
                                .get(MergeTreeSinkOptions.INSERT_DEDUPLICATE))
                .isFalse();
        assertThat(
                        sink(Map.of(
                                        "sink.delivery-guarantee",
                                        "at-least-once",
                                        "insert_deduplicate",
                                        "0"))
                                .options()
                                .get(MergeTreeSinkOptions.INSERT_DEDUPLICATE))
                .isFalse();
        assertThatThrownBy(() -> sink(Map.of("sink.delivery-guarantee", "none")))
                .hasMessageContaining("option 'sink.delivery-guarantee' = 'none' is not supported");
        assertThatThrownBy(
                        () ->
                                sink(
                                        Map.of(
                                                "sink.delivery-guarantee",
                                                "exactly-once",
                                                "insert_deduplicate",
                                                "0")))
                .hasMessageContaining(
                        "option 'sink.delivery-guarantee' = 'exactly-once' contradicts"
                                + " 'settings.insert_deduplicate' = 0");
        assertThatThrownBy(() -> sink(Map.of("sink.delivery-guarantee", "twice")))
                .hasStackTraceContaining("sink.delivery-guarantee");
    }

    @Test
    void clickHouseSettingsAreKeyedUnderSettingsAndTheBareNamesStillWork() {
        MergeTreeSink<?> prefixed =
                sink(
                        Map.of(
                                "settings.max_insert_threads", "3",
                                "settings.optimize_on_insert", "0",
                                "settings.min_insert_block_size_rows", "1000",
                                "sink.parallelism", "2"));
        assertThat(prefixed.options().get(MergeTreeSinkOptions.MAX_INSERT_THREADS)).isEqualTo(3);
        assertThat(prefixed.options().get(MergeTreeSinkOptions.OPTIMIZE_ON_INSERT)).isFalse();
        assertThat(prefixed.options().get(MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_ROWS))
                .isEqualTo(1000L);
        MergeTreeSink<?> bare = sink(Map.of("max_insert_threads", "3", "optimize_on_insert", "0"));
        assertThat(bare.options().get(MergeTreeSinkOptions.MAX_INSERT_THREADS)).isEqualTo(3);
        assertThat(bare.options().get(MergeTreeSinkOptions.OPTIMIZE_ON_INSERT)).isFalse();
        // the settings-prefixed insert_deduplicate is what sink.delivery-guarantee checks
        assertThatThrownBy(
                        () ->
                                sink(
                                        Map.of(
                                                "sink.delivery-guarantee",
                                                "exactly-once",
                                                "settings.insert_deduplicate",
                                                "0")))
                .hasMessageContaining("contradicts 'settings.insert_deduplicate' = 0");
        assertThatThrownBy(() -> sink(Map.of("settings.max_insert_thread", "3")))
                .hasStackTraceContaining("settings.max_insert_thread");
    }

    @Test
    void deliveryMistakesNameTheSqlOptionsNotTheCommandsFlags() {
        assertThatThrownBy(
                        () ->
                                sink(
                                        Map.of(
                                                "clickhouse.url", "ftp://127.0.0.1:8123",
                                                "clickhouse.table", "default.t")))
                .hasMessageContaining("clickhouse.url must be http://host:port")
                .hasMessageContaining("ftp://127.0.0.1:8123")
                .hasMessageNotContaining("--");
        assertThatThrownBy(
                        () ->
                                sink(
                                        Map.of(
                                                "clickhouse.url", "http://u:secret@127.0.0.1:8123",
                                                "clickhouse.table", "default.t")))
                .hasMessageContaining(
                        "clickhouse.url must not contain credentials (use clickhouse.user and"
                                + " clickhouse.password)")
                .hasMessageNotContaining("secret")
                .hasMessageNotContaining("--");
        assertThatThrownBy(
                        () ->
                                sink(
                                        Map.of(
                                                "clickhouse.url", "http://127.0.0.1:8123",
                                                "clickhouse.table", "`default.t")))
                .hasMessageContaining("clickhouse.table must be database.table")
                .hasMessageContaining("`default.t")
                .hasMessageNotContaining("--");
    }

    @Test
    void aBadValueIsReportedUnderItsSqlOptionKey() {
        assertThatThrownBy(
                        () ->
                                sink(
                                        Map.of(
                                                "path",
                                                "s3://bucket/t",
                                                "s3.endpoint",
                                                "127.0.0.1:9000")))
                .hasMessageContaining("'s3.endpoint'")
                .hasMessageContaining("'127.0.0.1:9000'");
        assertThatThrownBy(() -> sink(Map.of("path", "ftp://host/x")))
                .hasMessageContaining("path")
                .hasMessageContaining("'ftp://host/x'");
        assertThatThrownBy(() -> sink(Map.of("timezone", "Mars/Base")))
                .hasMessageContaining("timezone")
                .hasMessageContaining("'Mars/Base'");
        assertThatThrownBy(() -> sink(Map.of("max_insert_threads", "0")))
                .hasMessageContaining("max_insert_threads must be positive, got 0");
        assertThatThrownBy(() -> sink(Map.of("background_pool_size", "0")))
                .hasMessageContaining("background_pool_size must be positive, got 0");
        assertThatThrownBy(() -> sink(Map.of("ddl", "CREATE TABLE t (id Int64) ENGINE = Nope")))
                .hasMessageContaining("ddl");
        assertThatThrownBy(() -> sink(Map.of("path", "s3://bucket/t", "table.s3.secret-key", "sk")))
                .hasMessageContaining("'s3.access-key' and 's3.secret-key'");
    }
}
