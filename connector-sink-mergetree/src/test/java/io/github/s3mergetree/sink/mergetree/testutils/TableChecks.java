package io.github.s3mergetree.sink.mergetree.testutils;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;

/** Checks of a table directory written by the sink. */
public final class TableChecks {
    private TableChecks() {}

    /** Opens the table stored in {@code dir} with its own DDL. */
    public static MergeTreeTable open(Path dir) throws IOException {
        TableStore store = TableStore.local(dir.toAbsolutePath().toString());
        String ddl =
                MergeTreeTable.storedDdl(store)
                        .orElseThrow(() -> new IOException("no table in " + dir));
        return MergeTreeTable.open(store, TableLayouts.fromDdl(ddl), Clock.systemUTC());
    }

    /**
     * Verifies every active part and attaches it to {@code chTable} (created from the same DDL).
     */
    public static List<ActivePart> attachAll(ChDb ch, String chTable, Path dir) throws IOException {
        MergeTreeTable t = open(dir);
        List<ActivePart> parts = t.activeParts();
        for (ActivePart p : parts) {
            Path partDir = dir.resolve(p.name().toString());
            PartReader.open(t.store(), p.name().toString()).verify();
            ch.attachPart(chTable, partDir);
        }
        return parts;
    }

    /** The names of the {@code tmp_*} directories left in the table directory. */
    public static List<String> temporaryDirectories(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("tmp_"))
                    .sorted()
                    .toList();
        }
    }

    /** Asserts that two chDB tables hold the same rows (count, per-column and whole-row hashes). */
    public static void assertSameRows(ChDb ch, String ours, String ref, List<String> columns) {
        long n = ch.queryLong("SELECT count() FROM " + ref);
        assertThat(ch.queryLong("SELECT count() FROM " + ours)).as("count").isEqualTo(n);
        for (String c : columns) {
            String q = "SELECT " + RowsHash.of(c) + " FROM ";
            assertThat(ch.query(q + ours)).as("hash of column " + c).isEqualTo(ch.query(q + ref));
        }
        assertThat(ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM " + ours))
                .as("hash of all rows")
                .isEqualTo(ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM " + ref));
        assertThat(ch.query("SELECT count(), uniqExact(id) FROM " + ours))
                .as("no duplicates")
                .isEqualTo(n + "\t" + n);
    }
}
