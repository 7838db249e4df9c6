package io.github.s3mergetree.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Judges a table directory written by the product against ClickHouse's own ingestion of the same S3
 * objects, in chDB (ClickHouse 26.7): table {@code expected} filled by {@code INSERT INTO … SELECT
 * * FROM s3(…)}, the table of the DDL ({@code posts} by default) made of our active parts (copied
 * into {@code detached/}, {@code ALTER TABLE … ATTACH PART}); {@code CHECK TABLE} of it must pass
 * and both must have the same {@code count()} and {@code RowsHash}.
 */
final class Judge {
    private Judge() {}

    /** The result of one comparison, for the report and further assertions. */
    record Verdict(
            long expectedRows,
            long actualRows,
            String expectedHash,
            String actualHash,
            int parts) {}

    /** Committed rows of a table directory being written (read-only: part names and count.txt). */
    static long committedRows(Path tableDir) {
        try {
            if (!Files.isDirectory(tableDir.resolve("s3mergetree_metadata"))) {
                return 0;
            }
            long rows = 0;
            for (ActivePart p : activeParts(tableDir)) {
                rows += p.rows();
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The active parts of the table in {@code tableDir}, from its commit log (read-only). */
    static List<ActivePart> activeParts(Path tableDir) throws IOException {
        return MergeTreeTable.readActiveParts(
                TableStore.local(tableDir.toAbsolutePath().toString()));
    }

    /**
     * Compares {@code tableDir} with chDB's ingestion of {@code s3Glob} (an {@code http://…/bucket/
     * glob} URL of the S3 server, read with its credentials) and asserts equality.
     */
    static Verdict assertEqualToClickHouse(Path tableDir, String s3Url, Path sessionDir) {
        return assertEqualToClickHouse(tableDir, s3Url, "1", sessionDir);
    }

    /**
     * As {@link #assertEqualToClickHouse(Path, String, Path)}, ClickHouse ingesting only the rows
     * for which {@code where} (a ClickHouse expression over the posts columns) holds.
     */
    static Verdict assertEqualToClickHouse(
            Path tableDir, String s3Url, String where, Path sessionDir) {
        return assertEqualToClickHouse(tableDir, Posts.ddl(), s3Url, "Parquet", where, sessionDir);
    }

    /**
     * Compares {@code tableDir} (a table {@code ddl} creates) with chDB's ingestion of the {@code
     * format} objects at {@code s3Url} (rows where {@code where} holds) and asserts equality.
     */
    static Verdict assertEqualToClickHouse(
            Path tableDir, String ddl, String s3Url, String format, String where, Path sessionDir) {
        Matcher m = CREATE_TABLE.matcher(ddl);
        if (!m.find()) {
            throw new IllegalArgumentException("no CREATE TABLE <name> in " + ddl);
        }
        String table = m.group(1);
        try (ChDb ch = ChDb.start(sessionDir)) {
            ch.execute(m.replaceFirst("CREATE TABLE expected"));
            ch.execute(
                    "INSERT INTO expected SELECT * FROM s3('"
                            + s3Url
                            + "', '"
                            + S3ServerProcess.ACCESS_KEY
                            + "', '"
                            + S3ServerProcess.SECRET_KEY
                            + "', '"
                            + format
                            + "') WHERE "
                            + where);
            ch.execute(ddl);
            List<io.github.s3mergetree.engine.part.PartName> parts;
            try {
                parts = activeParts(tableDir).stream().map(ActivePart::name).toList();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            assertThat(parts).as("active parts in %s", tableDir).isNotEmpty();
            for (var p : parts) {
                ch.attachPart(table, tableDir.resolve(p.toString()));
            }
            ch.assertCheckTablePasses(table);
            long expectedRows = ch.queryLong("SELECT count() FROM expected");
            long actualRows = ch.queryLong("SELECT count() FROM " + table);
            String expectedHash = ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM expected");
            String actualHash = ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM " + table);
            assertThat(expectedRows).as("rows ClickHouse ingested from %s", s3Url).isPositive();
            assertThat(actualRows).as("rows in our parts").isEqualTo(expectedRows);
            assertThat(actualHash)
                    .as(RowsHash.ALL_COLUMNS + " of our parts")
                    .isEqualTo(expectedHash);
            return new Verdict(expectedRows, actualRows, expectedHash, actualHash, parts.size());
        }
    }

    private static final Pattern CREATE_TABLE = Pattern.compile("CREATE TABLE (\\w+)");
}
