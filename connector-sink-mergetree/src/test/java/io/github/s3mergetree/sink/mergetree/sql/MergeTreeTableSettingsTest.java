package io.github.s3mergetree.sink.mergetree.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.factories.FactoryUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQL table options of {@code 'mergetree'}: a boolean setting takes what ClickHouse takes ({@code
 * '1'}, {@code 'FALSE'}; Flink's own parser takes only true/false) and refuses the rest naming the
 * setting, when the statement is planned; a typo is refused.
 */
class MergeTreeTableSettingsTest {
    @TempDir Path tmp;

    private static final ResolvedSchema SCHEMA =
            ResolvedSchema.of(Column.physical("id", DataTypes.BIGINT().notNull()));

    private DynamicTableSink create(Map<String, String> extra) {
        Map<String, String> options = new HashMap<>();
        options.put("connector", "mergetree");
        options.put("path", tmp.resolve("t").toString());
        options.put("ddl", "CREATE TABLE t (id Int64) ENGINE = MergeTree ORDER BY id");
        options.putAll(extra);
        CatalogTable table =
                CatalogTable.newBuilder()
                        .schema(Schema.newBuilder().fromResolvedSchema(SCHEMA).build())
                        .options(options)
                        .build();
        return new MergeTreeDynamicTableSinkFactory()
                .createDynamicTableSink(
                        new FactoryUtil.DefaultDynamicTableContext(
                                ObjectIdentifier.of("c", "d", "t"),
                                new ResolvedCatalogTable(table, SCHEMA),
                                Map.of(),
                                new Configuration(),
                                MergeTreeTableSettingsTest.class.getClassLoader(),
                                false));
    }

    @Test
    void booleanSettingsTakeClickHouseValues() {
        DynamicTableSink sink =
                create(Map.of("optimize_final", "1", "insert_deduplicate", "FALSE"));
        MergeTreeSink<?> built =
                (MergeTreeSink<?>)
                        ((SinkV2Provider) sink.getSinkRuntimeProvider(null)).createSink();
        assertThat(built.options().get(MergeTreeSinkOptions.OPTIMIZE_FINAL)).isTrue();
        assertThat(built.options().get(MergeTreeSinkOptions.INSERT_DEDUPLICATE)).isFalse();
        assertThatThrownBy(() -> create(Map.of("merges", "yes")))
                .hasMessage(
                        "Cannot parse bool from string 'yes' for setting 'merges': expected 0, 1,"
                                + " true or false");
    }

    @Test
    void aMistypedSettingIsRefused() {
        assertThatThrownBy(() -> create(Map.of("optimize_fina", "1")))
                .hasMessageContaining("optimize_fina");
    }
}
