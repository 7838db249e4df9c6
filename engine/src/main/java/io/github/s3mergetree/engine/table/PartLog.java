package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.objectstore.ObjectSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A log of part events in the table's store, with the fields of ClickHouse's {@code
 * system.part_log}: what was inserted, merged and removed, when, how long it took, how big it was.
 * Like ClickHouse's introspection tables, it answers "where did the time go" after the fact. Object
 * stores cannot append, so each batch of events is one JSON-lines object {@code
 * s3mergetree_metadata/part_log/<millis>-<id>.jsonl}; {@link #lines()} reads them in time order,
 * and the table's cleanup keeps the newest {@value #KEEP_OBJECTS}.
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

    /** How many event objects the cleanup keeps. */
    static final int KEEP_OBJECTS = 2000;

    private final TableStore store;

    PartLog(TableStore store) {
        this.store = store;
    }

    /** Appends one event. */
    public void append(Event e) {
        append(List.of(e));
    }

    /**
     * Appends events as one object. Never fails: the log is introspection, never a reason to fail
     * an insert or a merge.
     */
    public void append(List<Event> events) {
        append(events, UUID.randomUUID().toString().substring(0, 8));
    }

    /**
     * Appends events as the object named by the first event's time and {@code id}: writing the same
     * events with the same id again replaces that object instead of adding one, so a writer that
     * may have been interrupted between an action and its events (a commit, then a crash) can write
     * them again when it finishes the action, without counting it twice. Never fails.
     */
    public void append(List<Event> events, String id) {
        if (events.isEmpty()) {
            return;
        }
        StringBuilder s = new StringBuilder(256 * events.size());
        for (Event e : events) {
            line(e, s);
        }
        String key =
                TableKeys.PART_LOG_DIR
                        + String.format("%015d", events.get(0).time().toEpochMilli())
                        + "-"
                        + id
                        + ".jsonl";
        try {
            store.write(key, s.toString().getBytes(StandardCharsets.UTF_8), false);
        } catch (IOException | RuntimeException ex) {
            // the log is introspection, never a reason to fail an insert or a merge
        }
    }

    private static void line(Event e, StringBuilder s) {
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
    }

    /** The part log of the table in {@code store}, for reading it without opening the table. */
    public static PartLog of(TableStore store) {
        return new PartLog(store);
    }

    /** The log's lines, oldest first. */
    public List<String> lines() throws IOException {
        List<String> out = new ArrayList<>();
        for (String key : objects()) {
            out.addAll(lines(key));
        }
        return out;
    }

    /** The keys of the log's objects, oldest first (each holds a batch of events). */
    public List<String> objects() throws IOException {
        List<String> out = new ArrayList<>();
        for (ObjectSummary o : store.list(TableKeys.PART_LOG_DIR)) {
            out.add(o.key());
        }
        return out;
    }

    /** The lines of one of the log's objects (empty if it was trimmed meanwhile). */
    public List<String> lines(String object) throws IOException {
        List<String> out = new ArrayList<>();
        byte[] bytes;
        try {
            bytes = store.read(object);
        } catch (java.io.FileNotFoundException e) {
            return out;
        }
        for (String l : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
            if (!l.isEmpty()) {
                out.add(l);
            }
        }
        return out;
    }

    /** Deletes all but the newest {@value #KEEP_OBJECTS} event objects. */
    int trim() throws IOException {
        List<ObjectSummary> all = store.list(TableKeys.PART_LOG_DIR);
        if (all.size() <= KEEP_OBJECTS) {
            return 0;
        }
        List<String> doomed = new ArrayList<>();
        for (ObjectSummary o : all.subList(0, all.size() - KEEP_OBJECTS)) {
            doomed.add(o.key());
        }
        store.deleteAll(doomed);
        return doomed.size();
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
