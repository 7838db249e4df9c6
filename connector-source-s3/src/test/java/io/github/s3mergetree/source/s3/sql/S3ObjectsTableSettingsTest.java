package io.github.s3mergetree.source.s3.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.source.s3.options.S3SourceOptions;
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
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * SQL table options of {@code 's3-objects'}: a boolean setting takes what ClickHouse takes ({@code
 * '1'}, {@code 'TRUE'}; Flink's own parser takes only true/false) and refuses the rest naming the
 * setting; a typo is refused.
 */
class S3ObjectsTableSettingsTest {
    private static final ResolvedSchema SCHEMA =
            ResolvedSchema.of(Column.physical("id", DataTypes.BIGINT()));

    private static S3ObjectsDynamicTableSource create(Map<String, String> extra) {
        Map<String, String> options = new HashMap<>();
        options.put("connector", "s3-objects");
        options.put("path", "file:///tmp/no-such-dir/*.csv");
        options.put("format", "CSV");
        options.put("validate-on-build", "false");
        options.putAll(extra);
        CatalogTable table =
                CatalogTable.newBuilder()
                        .schema(Schema.newBuilder().fromResolvedSchema(SCHEMA).build())
                        .options(options)
                        .build();
        return (S3ObjectsDynamicTableSource)
                new S3ObjectsDynamicTableSourceFactory()
                        .createDynamicTableSource(
                                new FactoryUtil.DefaultDynamicTableContext(
                                        ObjectIdentifier.of("c", "d", "t"),
                                        new ResolvedCatalogTable(table, SCHEMA),
                                        Map.of(),
                                        new Configuration(),
                                        S3ObjectsTableSettingsTest.class.getClassLoader(),
                                        false));
    }

    private static Configuration options(S3ObjectsDynamicTableSource s) {
        return s.source(
                        InternalTypeInfo.of(
                                (RowType) SCHEMA.toPhysicalRowDataType().getLogicalType()))
                .options();
    }

    @Test
    void booleanSettingsTakeClickHouseValues() {
        S3ObjectsDynamicTableSource s =
                create(
                        Map.of(
                                "format_csv_allow_single_quotes", "1",
                                "input_format_csv_detect_header", "FALSE",
                                "path-style-access", "0"));
        assertThat(options(s).get(S3SourceOptions.FORMAT_CSV_ALLOW_SINGLE_QUOTES)).isTrue();
        assertThat(options(s).get(S3SourceOptions.INPUT_FORMAT_CSV_DETECT_HEADER)).isFalse();
        assertThatThrownBy(() -> create(Map.of("format_csv_allow_single_quotes", "yes")))
                .hasMessageContaining(
                        "Cannot parse bool from string 'yes' for setting"
                                + " 'format_csv_allow_single_quotes': expected 0, 1, true or"
                                + " false");
        assertThatThrownBy(() -> create(Map.of("path-style-access", "on")))
                .hasMessageContaining(
                        "Cannot parse bool from string 'on' for setting 'path-style-access'");
    }

    @Test
    void aMistypedSettingIsRefused() {
        assertThatThrownBy(() -> create(Map.of("input_format_csv_detect_heade", "1")))
                .hasMessageContaining("input_format_csv_detect_heade");
    }
}
