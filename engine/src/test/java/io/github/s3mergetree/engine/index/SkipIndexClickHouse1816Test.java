package io.github.s3mergetree.engine.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ClickHouse1816;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Skip indexes and ClickHouse 18.16: it has no INDEX clause at all (its parser refuses it; data
 * skipping indexes came with 19.x), so a table with indexes cannot be declared there. A portable
 * part ({@code index_granularity_bytes = 0}) of a table with indexes still attaches to the same
 * table declared without them: the {@code skp_idx_*} files are listed in {@code checksums.txt} and
 * ignored, every row reads back, and 18.16 merges the part.
 */
class SkipIndexClickHouse1816Test {
    @TempDir static Path tmp;

    @Test
    void portablePartWithIndexesAttachesToThe1816TableWithoutThem() throws Exception {
        String columns = "id UInt32, s String";
        String indexes =
                ", INDEX mm s TYPE minmax GRANULARITY 1, INDEX st id TYPE set(10) GRANULARITY 2";
        String tail = " ENGINE = MergeTree ORDER BY id SETTINGS index_granularity = 100";
        TableLayout layout =
                TableLayouts.fromDdl(
                        "CREATE TABLE t ("
                                + columns
                                + indexes
                                + ")"
                                + tail
                                + ", index_granularity_bytes = 0");
        MergeTreeTable table =
                MergeTreeTable.open(LocalParts.store(tmp.resolve("t")), layout, Clock.systemUTC());
        Block rows =
                RowBinary.read(rowBinary(1000), layout.columnNames(), layout.columnTypes(), "rows");
        table.insert(rows);
        Path part = LocalParts.root(table).resolve(table.activeParts().get(0).name().toString());
        assertThat(part.resolve("skp_idx_mm.idx2")).exists();
        assertThat(part.resolve("skp_idx_mm.mrk")).exists();
        assertThat(part.resolve("skp_idx_st.idx")).exists();

        try (ClickHouse1816 ch = ClickHouse1816.start(tmp.resolve("ch1816"))) {
            assertThatThrownBy(
                            () -> ch.execute("CREATE TABLE ref (" + columns + indexes + ")" + tail))
                    .hasMessageContaining("Syntax error");
            ch.execute("CREATE TABLE plain (" + columns + ")" + tail);
            ch.attachPart("plain", part);
            assertThat(ch.query("SELECT count(), sum(id), uniqExact(s) FROM plain"))
                    .isEqualTo("1000\t499500\t13");
            assertThat(ch.query("SELECT s FROM plain WHERE id = 777")).isEqualTo("v10");
            ch.attachPart("plain", part);
            ch.execute("OPTIMIZE TABLE plain FINAL");
            assertThat(ch.query("SELECT count(), sum(id) FROM plain")).isEqualTo("2000\t999000");
        }
    }

    /** ids 0..n-1 and s = 'v' + id % 13, as RowBinary. */
    private static byte[] rowBinary(int n) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < n; i++) {
            out.write(i & 0xFF);
            out.write((i >>> 8) & 0xFF);
            out.write(0);
            out.write(0);
            byte[] s = ("v" + (i % 13)).getBytes(StandardCharsets.US_ASCII);
            out.write(s.length);
            out.write(s, 0, s.length);
        }
        return out.toByteArray();
    }
}
