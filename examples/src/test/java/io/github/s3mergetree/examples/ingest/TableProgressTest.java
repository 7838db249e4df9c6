package io.github.s3mergetree.examples.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.table.TableDirectory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Progress totals follow a growing part log: lines appended between snapshots are added, a line
 * still being written counts only once complete, and a different start line starts over.
 */
class TableProgressTest {
    @TempDir Path table;

    @Test
    void snapshotsAddWhatWasAppendedSinceTheLastOne() throws Exception {
        Path log = table.resolve(TableDirectory.METADATA_DIR).resolve("part_log.jsonl");
        Files.createDirectories(log.getParent());
        TableProgress progress = new TableProgress(table);
        assertThat(progress.partLogLines()).isZero();
        assertThat(progress.snapshot(0).partsWritten()).isZero();

        String third = newPart("2026-11-30T10:00:03Z", 5, 50);
        append(
                log,
                newPart("2026-11-30T10:00:01Z", 100, 1000)
                        + newPart("2026-11-30T10:00:02Z", 20, 200)
                        + third.substring(0, 40));
        TableProgress.Snapshot s = progress.snapshot(0);
        assertThat(s.partsWritten()).isEqualTo(2);
        assertThat(s.rows()).isEqualTo(120);
        assertThat(s.bytesUncompressed()).isEqualTo(1200);
        assertThat(s.lastEvent()).isEqualTo(Instant.parse("2026-11-30T10:00:02Z"));
        assertThat(s.lastNewPart()).isEqualTo(Instant.parse("2026-11-30T10:00:02Z"));
        assertThat(s.activeParts()).isZero();

        append(
                log,
                third.substring(40)
                        + "{\"event_type\":\"MergeParts\",\"event_time\":\"2026-11-30T10:00:04Z\","
                        + "\"rows\":125}\n");
        s = progress.snapshot(0);
        assertThat(s.partsWritten()).isEqualTo(3);
        assertThat(s.rows()).isEqualTo(125);
        assertThat(s.merges()).isEqualTo(1);
        assertThat(s.lastEvent()).isEqualTo(Instant.parse("2026-11-30T10:00:04Z"));
        // a merge is not an insert: the rows were all committed with the last new part
        assertThat(s.lastNewPart()).isEqualTo(Instant.parse("2026-11-30T10:00:03Z"));
        assertThat(progress.partLogLines()).isEqualTo(4);

        // from another line on: the first part is not counted
        s = progress.snapshot(1);
        assertThat(s.partsWritten()).isEqualTo(2);
        assertThat(s.rows()).isEqualTo(25);
        assertThat(s.merges()).isEqualTo(1);
        // and a fresh reader of the same log agrees
        assertThat(new TableProgress(table).snapshot(1)).isEqualTo(s);
    }

    private static String newPart(String time, long rows, long bytes) {
        return "{\"event_type\":\"NewPart\",\"event_time\":\""
                + time
                + "\",\"rows\":"
                + rows
                + ",\"bytes_uncompressed\":"
                + bytes
                + "}\n";
    }

    private static void append(Path log, String text) throws Exception {
        Files.writeString(
                log,
                text,
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
