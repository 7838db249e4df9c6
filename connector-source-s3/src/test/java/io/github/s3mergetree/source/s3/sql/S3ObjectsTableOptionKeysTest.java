package io.github.s3mergetree.source.s3.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.S3Source;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * The option vocabulary of {@code 's3-objects'}: the S3 connection under the keys the sink takes
 * too ({@code s3.endpoint}, ...) and under the former keys ({@code endpoint}, ...), continuous
 * discovery as Flink's FileSource names it ({@code source.monitor-interval}, formerly {@code
 * discovery-interval}), and messages for bad values that name the SQL option.
 */
class S3ObjectsTableOptionKeysTest {
    private static final ResolvedSchema SCHEMA =
            ResolvedSchema.of(Column.physical("id", DataTypes.BIGINT()));

    private static S3Source<RowData> source(Map<String, String> extra) {
        Map<String, String> options = new HashMap<>();
        options.put("connector", "s3-objects");
        options.put("path", "s3://bucket/in/*.csv");
        options.put("format", "CSV");
        options.put("validate-on-build", "false");
        options.putAll(extra);
        CatalogTable table =
                CatalogTable.newBuilder()
                        .schema(Schema.newBuilder().fromResolvedSchema(SCHEMA).build())
                        .options(options)
                        .build();
        S3ObjectsDynamicTableSource s =
                (S3ObjectsDynamicTableSource)
                        new S3ObjectsDynamicTableSourceFactory()
                                .createDynamicTableSource(
                                        new FactoryUtil.DefaultDynamicTableContext(
                                                ObjectIdentifier.of("c", "d", "t"),
                                                new ResolvedCatalogTable(table, SCHEMA),
                                                Map.of(),
                                                new Configuration(),
                                                S3ObjectsTableOptionKeysTest.class.getClassLoader(),
                                                false));
        return s.source(
                InternalTypeInfo.of((RowType) SCHEMA.toPhysicalRowDataType().getLogicalType()));
    }

    @Test
    void theS3ConnectionTakesTheSharedKeysAndTheFormerOnes() {
        for (Map<String, String> keys :
                java.util.List.of(
                        Map.of(
                                "s3.endpoint", "http://127.0.0.1:9000",
                                "s3.region", "eu-west-1",
                                "s3.path-style-access", "1",
                                "s3.access-key", "ak",
                                "s3.secret-key", "sk"),
                        Map.of(
                                "endpoint", "http://127.0.0.1:9000",
                                "region", "eu-west-1",
                                "path-style-access", "1",
                                "access-key", "ak",
                                "secret-key", "sk"))) {
            ObjectStoreConfig store = source(keys).storeConfig();
            assertThat(store.endpoint()).as("%s", keys).isEqualTo("http://127.0.0.1:9000");
            assertThat(store.region()).as("%s", keys).isEqualTo("eu-west-1");
            assertThat(store.pathStyle()).as("%s", keys).isTrue();
            assertThat(store.accessKeyId()).as("%s", keys).isEqualTo("ak");
        }
    }

    @Test
    void theSecretIsNotKeptInTheSourceOptions() {
        Configuration options =
                source(Map.of("s3.access-key", "ak", "s3.secret-key", "very-secret")).options();
        assertThat(options.toMap().values()).doesNotContain("very-secret");
    }

    @Test
    void continuousDiscoveryIsNamedAsFileSourceNamesIt() {
        S3Source<RowData> now = source(Map.of("source.monitor-interval", "30 s"));
        assertThat(now.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        assertThat(now.options().get(S3SourceOptions.DISCOVERY_INTERVAL))
                .isEqualTo(Duration.ofSeconds(30));
        S3Source<RowData> before = source(Map.of("discovery-interval", "30 s"));
        assertThat(before.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        assertThat(before.options().get(S3SourceOptions.DISCOVERY_INTERVAL))
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(source(Map.of()).getBoundedness()).isEqualTo(Boundedness.BOUNDED);
    }

    @Test
    void clickHouseSettingsAreKeyedUnderSettingsAndTheBareNamesStillWork() {
        S3Source<RowData> prefixed =
                source(
                        Map.of(
                                "settings.max_download_threads", "3",
                                "settings.use_hive_partitioning", "0",
                                "settings.s3queue_mode", "ORDERED"));
        assertThat(prefixed.options().get(S3SourceOptions.MAX_DOWNLOAD_THREADS)).isEqualTo(3);
        assertThat(prefixed.options().get(S3SourceOptions.USE_HIVE_PARTITIONING)).isFalse();
        assertThat(prefixed.options().get(S3SourceOptions.S3QUEUE_MODE))
                .isEqualTo(S3SourceOptions.DiscoveryMode.ORDERED);
        S3Source<RowData> bare =
                source(Map.of("max_download_threads", "3", "use_hive_partitioning", "0"));
        assertThat(bare.options().get(S3SourceOptions.MAX_DOWNLOAD_THREADS)).isEqualTo(3);
        assertThat(bare.options().get(S3SourceOptions.USE_HIVE_PARTITIONING)).isFalse();
        assertThatThrownBy(
                        () ->
                                source(
                                        Map.of(
                                                "settings.max_download_threads", "3",
                                                "max_download_threads", "4")))
                .hasMessageContaining("name the same setting ('settings.max_download_threads')");
        assertThatThrownBy(() -> source(Map.of("settings.max_download_thread", "3")))
                .hasStackTraceContaining("settings.max_download_thread");
    }

    @Test
    void aBadValueIsReportedUnderItsSqlOptionKey() {
        assertThatThrownBy(() -> source(Map.of("s3.endpoint", "127.0.0.1:9000")))
                .hasMessageContaining("'s3.endpoint'")
                .hasMessageContaining("'127.0.0.1:9000'");
        assertThatThrownBy(() -> source(Map.of("source.monitor-interval", "0 s")))
                .hasMessageContaining("source.monitor-interval must be positive");
        assertThatThrownBy(() -> source(Map.of("max_download_threads", "0")))
                .hasMessageContaining("max_download_threads must be >= 1, got 0");
        assertThatThrownBy(() -> source(Map.of("session_timezone", "Mars/Base")))
                .hasMessageContaining("session_timezone 'Mars/Base'");
        assertThatThrownBy(() -> source(Map.of("compression_method", "rar")))
                .hasMessageContaining("compression_method")
                .hasMessageContaining("'rar'");
        assertThatThrownBy(() -> source(Map.of("path", "ftp://host/x")))
                .hasMessageContaining("path")
                .hasMessageContaining("'ftp://host/x'");
        assertThatThrownBy(() -> source(Map.of("format", "Excel")))
                .hasMessageContaining("format")
                .hasMessageContaining("'Excel'");
        assertThatThrownBy(() -> source(Map.of("s3.access-key", "ak")))
                .hasMessageContaining("'s3.access-key' and 's3.secret-key'");
    }
}
