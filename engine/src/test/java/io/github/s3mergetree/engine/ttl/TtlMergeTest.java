package io.github.s3mergetree.engine.ttl;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TTL over a table's life with an injected clock: rows expire only once the clock passes their TTL;
 * a merge that removes every row leaves an empty part (as ClickHouse's does), which later merges
 * with new parts; chDB attaches the results.
 */
class TtlMergeTest {
    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    static final String DDL =
            "CREATE TABLE life (ts DateTime, v UInt32) ENGINE = MergeTree ORDER BY v"
                    + " TTL ts + INTERVAL 1 DAY";

    @Test
    void rowsExpireWhenTheClockPassesAndEmptyPartsMergeOn() throws Exception {
        TableLayout layout = TableLayouts.fromDdl(DDL);
        long[] now = {Instant.parse("2026-01-01T00:00:00Z").getEpochSecond()};
        Clock clock =
                new Clock() {
                    @Override
                    public ZoneOffset getZone() {
                        return ZoneOffset.UTC;
                    }

                    @Override
                    public Clock withZone(java.time.ZoneId zone) {
                        return this;
                    }

                    @Override
                    public Instant instant() {
                        return Instant.ofEpochSecond(now[0]);
                    }
                };
        MergeTreeTable table =
                MergeTreeTable.open(LocalParts.store(tmp.resolve("life")), layout, clock);
        // 2026-01-01 12:00 and 2026-01-03 00:00: TTL 2026-01-02 12:00 and 2026-01-04 00:00
        table.insert(rows(layout, "2026-01-01 12:00:00", 1));
        table.insert(rows(layout, "2026-01-03 00:00:00", 2));
        table.optimizeFinal(true);
        assertThat(table.totalRows()).as("nothing expired yet").isEqualTo(2);
        now[0] = Instant.parse("2026-01-02T12:00:00Z").getEpochSecond();
        table.optimizeFinal(true);
        assertThat(table.totalRows()).as("the first row's TTL is now").isEqualTo(1);
        now[0] = Instant.parse("2026-01-05T00:00:00Z").getEpochSecond();
        table.optimizeFinal(true);
        assertThat(table.activeParts()).hasSize(1);
        assertThat(table.activeParts().get(0).rows()).as("an empty part").isZero();
        table.insert(rows(layout, "2026-02-01 00:00:00", 3));
        table.optimizeFinal(true);
        List<ActivePart> parts = table.activeParts();
        assertThat(parts).hasSize(1);
        assertThat(parts.get(0).rows()).isEqualTo(1);
        ch.execute(DDL);
        ch.execute("SYSTEM STOP MERGES life");
        ch.attachPart("life", LocalParts.root(table).resolve(parts.get(0).name().toString()));
        ch.assertCheckTablePasses("life");
        assertThat(ch.queryLong("SELECT sum(v) FROM life")).isEqualTo(3);
    }

    /**
     * The TTL merge selection: the part whose TTL expired is merged alone as soon as it did, no
     * other TTL merge of the partition for {@code merge_with_ttl_timeout} seconds, none for parts
     * whose TTL lies ahead; with {@code ttl_only_drop_parts} only parts whose rows all expired.
     */
    @Test
    void ttlMergesAreChosenAsClickHousesSelectorChoosesThem() throws Exception {
        long[] now = {Instant.parse("2026-01-01T00:00:00Z").getEpochSecond()};
        Clock clock = clock(now);
        TableLayout layout =
                TableLayouts.fromDdl(
                        DDL.replace("life", "sel") + " SETTINGS merge_with_ttl_timeout = 600");
        MergeTreeTable table =
                MergeTreeTable.open(LocalParts.store(tmp.resolve("sel")), layout, clock);
        // TTL 2026-01-02 00:00; TTL 2026-01-11 00:00 (and 2026-01-01 00:00 expired already)
        table.insert(rows(layout, "2026-01-01 00:00:00", 1));
        table.insert(rows(layout, "2026-01-10 00:00:00", 2));
        table.insert(rows(layout, "2025-12-31 00:00:00", 3));
        List<ActivePart> parts = table.activeParts();
        assertThat(table.ttlMerge(java.util.Set.of()))
                .as("only the third part's TTL has passed")
                .containsExactly(parts.get(2).name());
        table.merge(
                List.of(parts.get(2).name()),
                new io.github.s3mergetree.engine.merge.PartMerger.Progress());
        assertThat(table.totalRows()).isEqualTo(2);
        now[0] = Instant.parse("2026-01-02T00:00:00Z").getEpochSecond() - 1;
        assertThat(table.ttlMerge(java.util.Set.of())).as("nothing else expired").isEmpty();
        now[0] += 1;
        assertThat(table.ttlMerge(java.util.Set.of(parts.get(0).name())))
                .as("a busy part is not chosen")
                .isEmpty();
        assertThat(table.ttlMerge(java.util.Set.of()))
                .as("the first part's TTL has passed; its neighbour's has not")
                .containsExactly(parts.get(0).name());
        now[0] += 599;
        assertThat(table.ttlMerge(java.util.Set.of()))
                .as("merge_with_ttl_timeout = 600: not again within 600 s")
                .isEmpty();
        now[0] += 1;
        assertThat(table.ttlMerge(java.util.Set.of())).containsExactly(parts.get(0).name());
    }

    @Test
    void ttlOnlyDropPartsChoosesPartsWhoseRowsAllExpired() throws Exception {
        long[] now = {Instant.parse("2026-01-05T00:00:00Z").getEpochSecond()};
        TableLayout layout =
                TableLayouts.fromDdl(
                        DDL.replace("life", "drop") + " SETTINGS ttl_only_drop_parts = 1");
        MergeTreeTable table =
                MergeTreeTable.open(LocalParts.store(tmp.resolve("drop")), layout, clock(now));
        RowBlockBuilder b =
                new RowBlockBuilder(
                        "drop", layout.columnNames(), layout.columnTypes(), ZoneOffset.UTC);
        b.addRow(Instant.parse("2026-01-01T00:00:00Z").getEpochSecond(), 1L);
        b.addRow(Instant.parse("2026-01-10T00:00:00Z").getEpochSecond(), 2L);
        table.insert(b.build());
        table.insert(rows(layout, "2026-01-02 00:00:00", 3));
        List<ActivePart> parts = table.activeParts();
        assertThat(table.ttlMerge(java.util.Set.of()))
                .as("the first part still has a row ahead of its TTL")
                .containsExactly(parts.get(1).name());
        table.merge(
                List.of(parts.get(1).name()),
                new io.github.s3mergetree.engine.merge.PartMerger.Progress());
        assertThat(table.totalRows()).isEqualTo(2);
    }

    private static Clock clock(long[] now) {
        return new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return Instant.ofEpochSecond(now[0]);
            }
        };
    }

    private static Block rows(TableLayout layout, String ts, int v) {
        RowBlockBuilder b =
                new RowBlockBuilder(
                        "life", layout.columnNames(), layout.columnTypes(), ZoneOffset.UTC);
        b.addRow(Instant.parse(ts.replace(' ', 'T') + "Z").getEpochSecond(), (long) v);
        return b.build();
    }
}
