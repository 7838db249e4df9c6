package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.store.PartFiles;
import io.github.s3mergetree.engine.store.PartStorage;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A part with projections loads: its {@code checksums.txt} lists {@code p.proj} as one entry (the
 * sub-part), which is not a file. {@code detachBrokenParts} (the sink's merge coordinator calls it)
 * detached every such part as "p.proj is missing" before; a part whose projection directory really
 * is gone is still detached.
 */
class ProjectionPartsLoadTest {
    @TempDir Path tmp;

    private static final String DDL =
            "CREATE TABLE t (id UInt64, s String,"
                    + " PROJECTION by_s (SELECT * ORDER BY s),"
                    + " PROJECTION agg (SELECT s, count(), sum(id) GROUP BY s))"
                    + " ENGINE = MergeTree ORDER BY id";

    @Test
    void partsWithProjectionsAreNotTakenForBroken() throws Exception {
        TableLayout layout = TableLayouts.fromDdl(DDL);
        MergeTreeTable table =
                MergeTreeTable.open(LocalParts.store(tmp.resolve("t")), layout, Clock.systemUTC());
        RowBlockBuilder b =
                new RowBlockBuilder(
                        "t", layout.columnNames(), layout.columnTypes(), ZoneOffset.UTC);
        for (long i = 0; i < 100; i++) {
            b.addRow(i, "s" + (i % 7));
        }
        List<PartName> parts = table.insert(b.build());
        assertThat(parts).hasSize(1);
        String part = parts.get(0).toString();
        assertThat(tmp.resolve("t").resolve(part).resolve("by_s.proj").resolve(PartFiles.CHECKSUMS))
                .exists();

        assertThat(table.detachBrokenParts()).isEmpty();

        // the projection sub-part really gone: ClickHouse would not load the part either
        Path proj = tmp.resolve("t").resolve(part).resolve("agg.proj");
        try (var files = Files.list(proj)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(proj);
        assertThat(table.detachBrokenParts()).containsExactly(parts.get(0));
        assertThat(PartStorage.fileKey(part, PartFiles.CHECKSUMS)).endsWith("/checksums.txt");
    }
}
