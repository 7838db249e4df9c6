package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.testutils.EventRows;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The builder checks everything in build(), so mistakes fail at submission. */
class MergeTreeSinkBuilderTest {
    @TempDir Path tmp;

    @Test
    void buildsFromDdlOrDdlFile() throws Exception {
        MergeTreeSink<?> a =
                MergeTreeSink.forRowData()
                        .setRowType(EventRows.ROW_TYPE)
                        .setTablePath(tmp.resolve("a").toString())
                        .setDdl(EventRows.ddl("a"))
                        .setSetting("min_insert_block_size_bytes", "auto")
                        .build();
        assertThat(a.options().get(MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_BYTES))
                .isEqualTo("auto");
        Path file = tmp.resolve("t.sql");
        Files.writeString(file, EventRows.ddl("b"));
        assertThat(
                        MergeTreeSink.forRowData()
                                .setRowType(EventRows.ROW_TYPE)
                                .setTablePath(tmp.resolve("b").toString())
                                .setDdlFile(file)
                                .build())
                .isNotNull();
    }

    /**
     * setSetting/setSettings refuse a name no option has (naming the nearest one) and take a
     * boolean as ClickHouse does (0, 1, true, false in any case), refusing the rest.
     */
    @Test
    void settingsByNameRefuseTyposAndTakeClickHouseBooleans() {
        assertThatThrownBy(() -> MergeTreeSink.forRowData().setSetting("insert_deduplicat", "1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "unknown setting 'insert_deduplicat' (did you mean 'insert_deduplicate'?)");
        assertThatThrownBy(
                        () ->
                                MergeTreeSink.forRowData()
                                        .setSettings(
                                                java.util.Map.of(
                                                        "min_insert_block_size_row", "1000")))
                .hasMessage(
                        "unknown setting 'min_insert_block_size_row' (did you mean"
                                + " 'min_insert_block_size_rows'?)");
        MergeTreeSink<?> sink =
                MergeTreeSink.forRowData()
                        .setRowType(EventRows.ROW_TYPE)
                        .setTablePath(tmp.resolve("bools").toString())
                        .setDdl(EventRows.ddl("bools"))
                        .setSetting("optimize_final", "1")
                        .setSetting("insert_deduplicate", "FALSE")
                        .setSettings(java.util.Map.of("optimize_on_insert", "0"))
                        .build();
        assertThat(sink.options().get(MergeTreeSinkOptions.OPTIMIZE_FINAL)).isTrue();
        assertThat(sink.options().get(MergeTreeSinkOptions.INSERT_DEDUPLICATE)).isFalse();
        assertThat(sink.options().get(MergeTreeSinkOptions.OPTIMIZE_ON_INSERT)).isFalse();
        assertThatThrownBy(() -> MergeTreeSink.forRowData().setSetting("merges", "yes"))
                .hasMessage(
                        "Cannot parse bool from string 'yes' for setting 'merges': expected 0, 1,"
                                + " true or false");
    }

    @Test
    void refusesMistakes() {
        assertThatThrownBy(
                        () ->
                                MergeTreeSink.forRowData()
                                        .setRowType(EventRows.ROW_TYPE)
                                        .setDdl(EventRows.ddl("x"))
                                        .build())
                .hasMessageContaining("table path");
        assertThatThrownBy(() -> MergeTreeSink.builder().setTablePath("/x").build())
                .hasMessageContaining("input");
        assertThatThrownBy(
                        () ->
                                MergeTreeSink.forRowData()
                                        .setRowType(EventRows.ROW_TYPE)
                                        .setTablePath(tmp.toString())
                                        .setDdl(
                                                "CREATE TABLE x (a UInt64) ENGINE = MergeTree ORDER BY nosuch")
                                        .build())
                .hasMessageContaining("invalid table DDL");
        assertThatThrownBy(
                        () ->
                                MergeTreeSink.forRowData()
                                        .setRowType(EventRows.ROW_TYPE)
                                        .setTablePath(tmp.toString())
                                        .setDdl(EventRows.ddl("x"))
                                        .setSetting("min_insert_block_size_bytes", "lots")
                                        .build())
                .hasMessageContaining("min_insert_block_size_bytes");
        assertThatThrownBy(
                        () ->
                                MergeTreeSink.forRowData()
                                        .setRowType(EventRows.ROW_TYPE)
                                        .setTablePath(tmp.toString())
                                        .setDdl(EventRows.ddl("x"))
                                        .setOption(MergeTreeSinkOptions.PARTS_TO_DELAY_INSERT, 50)
                                        .setOption(MergeTreeSinkOptions.PARTS_TO_THROW_INSERT, 10)
                                        .build())
                .hasMessageContaining("parts_to_delay_insert");
        RowType wrong =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("id", DataTypes.BIGINT()),
                                        DataTypes.FIELD(
                                                "loc",
                                                DataTypes.ROW(
                                                        DataTypes.FIELD(
                                                                "lat", DataTypes.DOUBLE()))))
                                .getLogicalType();
        assertThatThrownBy(
                        () ->
                                MergeTreeSink.forRowData()
                                        .setRowType(wrong)
                                        .setTablePath(tmp.toString())
                                        .setDdl(EventRows.ddl("x"))
                                        .build())
                .hasMessageContaining("Input field loc")
                .hasMessageContaining(
                        "cannot be stored in column loc Tuple(lat Float64, lon Float64)");
    }

    @Test
    void aTableCreatedWithAnotherDdlFailsTheBuildAndBuildingCreatesNothing() throws Exception {
        Path table = tmp.resolve("events");
        MergeTreeSink.forRowData()
                .setRowType(EventRows.ROW_TYPE)
                .setTablePath(table.toString())
                .setDdl(EventRows.ddl("events"))
                .build();
        assertThat(table).doesNotExist();
        java.nio.file.Files.createDirectories(table);
        try (io.github.s3mergetree.engine.store.TableStore store =
                io.github.s3mergetree.engine.store.TableStore.local(table.toString())) {
            io.github.s3mergetree.engine.table.MergeTreeTable.createIfAbsent(
                    store, EventRows.ddl("events").replace("ORDER BY (user, id)", "ORDER BY id"));
        }
        assertThatThrownBy(
                        () ->
                                MergeTreeSink.forRowData()
                                        .setRowType(EventRows.ROW_TYPE)
                                        .setTablePath(table.toString())
                                        .setDdl(EventRows.ddl("events"))
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was created with a different DDL")
                .hasMessageContaining(table.toString());
    }

    @Test
    void hostileDdlFailsTheBuildInOneLineAndCreatesNothing() throws Exception {
        Path table = tmp.resolve("hostile");
        Path big = tmp.resolve("big.sql");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(200L * 1024 * 1024); // sparse: refused from its size, never read
        }
        assertThatThrownBy(
                        () ->
                                MergeTreeSink.forRowData()
                                        .setRowType(EventRows.ROW_TYPE)
                                        .setTablePath(table.toString())
                                        .setDdlFile(big)
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "invalid table DDL: DDL file "
                                + big
                                + ": Max query size exceeded: the DDL is 209715200 bytes,"
                                + " max_query_size is 262144 bytes");
        String deep =
                "CREATE TABLE t (a "
                        + "Array(".repeat(30_000)
                        + "UInt64"
                        + ")".repeat(30_000)
                        + ") ENGINE = MergeTree ORDER BY tuple()";
        assertThatThrownBy(
                        () ->
                                MergeTreeSink.forRowData()
                                        .setRowType(EventRows.ROW_TYPE)
                                        .setTablePath(table.toString())
                                        .setDdl(deep)
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "invalid table DDL: AST is too deep. Maximum: 1000 (max_ast_depth)");
        assertThat(table).doesNotExist();
    }
}
