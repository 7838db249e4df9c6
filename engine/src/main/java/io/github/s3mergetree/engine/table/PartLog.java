package io.github.s3mergetree.engine.table;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;

/**
 * An append-only JSON-lines log of part events in the table directory ({@code
 * s3mergetree_metadata/part_log.jsonl}), with the fields of ClickHouse's {@code system.part_log}:
 * what was inserted, merged and removed, when, how long it took, how big it was. Like ClickHouse's
 * introspection tables, it answers "where did the time go" after the fact.
 */
public final class PartLog {
    /** ClickHouse's {@code event_type} values. */
    public enum EventType {
        NewPart,
        MergeParts,
        RemovePart
    }

    /** One event. */
    public record Event(
            EventType type,
            Instant time,
            long durationMs,
            String table,
            String partName,
            String partitionId,
            long rows,
            long sizeInBytes,
            List<String> mergedFrom,
            long bytesUncompressed,
            long readRows,
            long readBytes,
            long peakMemoryUsage,
            int error,
            String exception) {}

    private final Path file;

    PartLog(Path file) {
        this.file = file;
    }

    /** Appends one event (thread-safe; each line is written with a single append). */
    public synchronized void append(Event e) {
        StringBuilder s = new StringBuilder(256);
        s.append("{\"event_type\":\"").append(e.type()).append('"');
        s.append(",\"event_time\":\"").append(e.time()).append('"');
        s.append(",\"duration_ms\":").append(e.durationMs());
        s.append(",\"table\":").append(quote(e.table()));
        s.append(",\"part_name\":").append(quote(e.partName()));
        s.append(",\"partition_id\":").append(quote(e.partitionId()));
        s.append(",\"rows\":").append(e.rows());
        s.append(",\"size_in_bytes\":").append(e.sizeInBytes());
        s.append(",\"merged_from\":[");
        for (int i = 0; i < e.mergedFrom().size(); i++) {
            s.append(i > 0 ? "," : "").append(quote(e.mergedFrom().get(i)));
        }
        s.append("],\"bytes_uncompressed\":").append(e.bytesUncompressed());
        s.append(",\"read_rows\":").append(e.readRows());
        s.append(",\"read_bytes\":").append(e.readBytes());
        s.append(",\"peak_memory_usage\":").append(e.peakMemoryUsage());
        s.append(",\"error\":").append(e.error());
        s.append(",\"exception\":").append(quote(e.exception() == null ? "" : e.exception()));
        s.append("}\n");
        try {
            Files.writeString(
                    file,
                    s,
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException ex) {
            // the log is introspection, never a reason to fail an insert or a merge
        }
    }

    /** The log's lines. */
    public List<String> lines() throws IOException {
        return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    }

    static String quote(String v) {
        StringBuilder s = new StringBuilder(v.length() + 2).append('"');
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                default -> {
                    if (c < 0x20) {
                        s.append(String.format("\\u%04x", (int) c));
                    } else {
                        s.append(c);
                    }
                }
            }
        }
        return s.append('"').toString();
    }
}
