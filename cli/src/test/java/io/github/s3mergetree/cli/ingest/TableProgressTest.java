package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Progress totals follow a growing part log (one object per batch of events): objects added between
 * snapshots are added, and a different start line starts over.
 */
class TableProgressTest {
    @TempDir Path table;

    @Test
    void snapshotsAddWhatWasAppendedSinceTheLastOne() throws Exception {
        Path log = table.resolve("s3mergetree_metadata").resolve("part_log");
        Files.createDirectories(log);
        TableProgress progress = new TableProgress(table);
        assertThat(progress.partLogLines()).isZero();
        assertThat(progress.snapshot(0).partsWritten()).isZero();

        String third = newPart("2026-11-30T10:00:03Z", 5, 50);
        append(
                log,
                "000000000000001-a.jsonl",
                newPart("2026-11-30T10:00:01Z", 100, 1000)
                        + newPart("2026-11-30T10:00:02Z", 20, 200));
        TableProgress.Snapshot s = progress.snapshot(0);
        assertThat(s.partsWritten()).isEqualTo(2);
        assertThat(s.rows()).isEqualTo(120);
        assertThat(s.bytesUncompressed()).isEqualTo(1200);
        assertThat(s.lastEvent()).isEqualTo(Instant.parse("2026-11-30T10:00:02Z"));
        assertThat(s.lastNewPart()).isEqualTo(Instant.parse("2026-11-30T10:00:02Z"));
        assertThat(s.activeParts()).isZero();

        append(
                log,
                "000000000000003-b.jsonl",
                third
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

    private static void append(Path log, String object, String text) throws Exception {
        Files.writeString(log.resolve(object), text, StandardCharsets.UTF_8);
    }
}
