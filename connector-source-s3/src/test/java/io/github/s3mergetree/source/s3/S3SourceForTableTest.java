package io.github.s3mergetree.source.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.ddl.DdlParser;
import io.github.s3mergetree.engine.table.TableDefinition;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link S3SourceBuilder#forTable(TableDefinition)} reads the columns {@code forTable(ddl)} reads
 * (all but MATERIALIZED and ALIAS, with the table's types) from a table parsed already, without
 * parsing its DDL again.
 */
class S3SourceForTableTest {
    @TempDir Path tmp;

    static final String DDL =
            "CREATE TABLE for_table (id UInt64, name LowCardinality(String),"
                    + " doubled UInt64 MATERIALIZED id * 2, shown String ALIAS name,"
                    + " at UInt32 DEFAULT 7)"
                    + " ENGINE = MergeTree ORDER BY id";

    @Test
    void aParsedTableGivesTheColumnsOfItsDdlWithoutAnotherParse() throws Exception {
        String location = "file://" + tmp + "/*.native";
        S3Source<RowData> fromText =
                S3Source.forRowData()
                        .forTable(DDL)
                        .setFormat("Native")
                        .setLocation(location)
                        .build();
        TableDefinition table = TableDefinition.parse(DDL);
        List<String> parses = new CopyOnWriteArrayList<>();
        S3Source<RowData> fromDefinition;
        try (AutoCloseable observed = DdlParser.observeParses(parses::add)) {
            fromDefinition =
                    S3Source.forRowData()
                            .forTable(table)
                            .setFormat("Native")
                            .setLocation(location)
                            .build();
        }
        assertThat(parses).isEmpty();
        assertThat(fromDefinition.getProducedType()).isEqualTo(fromText.getProducedType());
        assertThat(fromDefinition.getProducedType().toString())
                .contains("id")
                .contains("name")
                .contains("at")
                .doesNotContain("doubled")
                .doesNotContain("shown");
    }
}
