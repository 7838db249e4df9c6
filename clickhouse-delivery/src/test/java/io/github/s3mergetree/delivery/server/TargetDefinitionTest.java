package io.github.s3mergetree.delivery.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.ddl.TableSchema;
import org.junit.jupiter.api.Test;

class TargetDefinitionTest {
    private static final TableSchema WRITTEN =
            TableSchema.parse(
                    "CREATE TABLE t (id UInt64, p UInt8, s String) ENGINE = MergeTree PARTITION BY p ORDER BY id");
    private static final TableName T = TableName.parse("db.live");

    @Test
    void theServersOwnPrintingFits() {
        String ddl =
                "CREATE TABLE db.live\n(\n    `id` UInt64,\n    `p` UInt8,\n    `s` String\n)\nENGINE = MergeTree\nPARTITION BY p\nORDER BY id\nSETTINGS index_granularity = 8192, storage_policy = 'tiered'";
        assertThat(TargetDefinition.parse(T, ddl).differencesFrom(WRITTEN)).isEmpty();
    }

    @Test
    void replicationCompares() {
        String ddl =
                "CREATE TABLE db.live (`id` UInt64, `p` UInt8, `s` String) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/live', '{replica}') PARTITION BY p ORDER BY id SETTINGS index_granularity = 8192";
        assertThat(TargetDefinition.parse(T, ddl).differencesFrom(WRITTEN)).isEmpty();
        String replacing =
                "CREATE TABLE db.live (`id` UInt64, `p` UInt8, `s` String) ENGINE = ReplicatedReplacingMergeTree('/t', 'r1', id) PARTITION BY p ORDER BY id";
        assertThat(TargetDefinition.parse(T, replacing).differencesFrom(WRITTEN))
                .singleElement()
                .asString()
                .contains("engine");
    }

    @Test
    void aReplicatedWrittenTableFitsAPlainOrReplicatedTarget() {
        TableSchema written =
                TableSchema.parse(
                        "CREATE TABLE t (id UInt64, ver UInt32, s String) ENGINE ="
                                + " ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}',"
                                + " '{replica}', ver) ORDER BY id");
        String plain =
                "CREATE TABLE db.live (`id` UInt64, `ver` UInt32, `s` String) ENGINE ="
                        + " ReplacingMergeTree(ver) ORDER BY id SETTINGS index_granularity = 8192";
        assertThat(TargetDefinition.parse(T, plain).differencesFrom(written)).isEmpty();
        // 18.16 prints the path with its macros expanded, 26.x with {uuid}; neither matters
        String replicated =
                "CREATE TABLE db.live (`id` UInt64, `ver` UInt32, `s` String) ENGINE ="
                        + " ReplicatedReplacingMergeTree('/clickhouse/tables/01/db/live', 'r2', ver)"
                        + " ORDER BY id SETTINGS index_granularity = 8192";
        assertThat(TargetDefinition.parse(T, replicated).differencesFrom(written)).isEmpty();
        String otherVersion =
                "CREATE TABLE db.live (`id` UInt64, `ver` UInt32, `s` String) ENGINE ="
                        + " ReplicatedReplacingMergeTree('/t', 'r2') ORDER BY id";
        assertThat(TargetDefinition.parse(T, otherVersion).differencesFrom(written))
                .containsExactly(
                        "the engine is ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}',"
                                + " '{replica}', `ver`) in the written table but"
                                + " ReplicatedReplacingMergeTree('/t', 'r2') on the server");
    }

    @Test
    void aSharedTargetComparesAsItsPlainEngine() {
        String ddl =
                "CREATE TABLE db.live (`id` UInt64, `p` UInt8, `s` String) ENGINE ="
                        + " SharedMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}')"
                        + " PARTITION BY p ORDER BY id SETTINGS index_granularity = 8192";
        assertThat(TargetDefinition.parse(T, ddl).differencesFrom(WRITTEN)).isEmpty();
    }

    @Test
    void everyDifferenceIsNamed() {
        String ddl =
                "CREATE TABLE db.live (`id` UInt32, `p` UInt8, `x` String, `y` Int8) ENGINE = MergeTree PARTITION BY tuple() ORDER BY (id, p)";
        assertThat(TargetDefinition.parse(T, ddl).differencesFrom(WRITTEN))
                .containsExactly(
                        "column id is UInt64 in the written table but UInt32 on the server",
                        "column 3 is s in the written table but x on the server",
                        "the server's table has an extra column y Int8 (position 4)",
                        "PARTITION BY is p in the written table but (none) on the server",
                        "ORDER BY is id in the written table but (id, p) on the server",
                        "PRIMARY KEY is id in the written table but (id, p) on the server");
    }

    @Test
    void settingsInsideStringsAndCommentsStay() {
        assertThat(
                        TargetDefinition.withoutSettings(
                                "CREATE TABLE t (a String DEFAULT 'SETTINGS x') ENGINE = MergeTree ORDER BY a SETTINGS index_granularity = 8192 COMMENT 'c'"))
                .isEqualTo(
                        "CREATE TABLE t (a String DEFAULT 'SETTINGS x') ENGINE = MergeTree ORDER BY a COMMENT 'c'");
    }

    @Test
    void anUnreadableDefinitionNamesTheTable() {
        assertThatThrownBy(
                        () ->
                                TargetDefinition.parse(
                                        T, "CREATE TABLE db.live (a UInt8) ENGINE = Log"))
                .hasMessageContaining("db.live")
                .hasMessageContaining("DDL parser");
    }

    @Test
    void tableNamesParse() {
        assertThat(TableName.parse("db.t")).isEqualTo(new TableName("db", "t"));
        assertThat(TableName.parse("t")).isEqualTo(new TableName("default", "t"));
        assertThat(TableName.parse("`my.db`.`t-1`")).isEqualTo(new TableName("my.db", "t-1"));
        assertThatThrownBy(() -> TableName.parse("a.")).hasMessageContaining("database.table");
    }
}
