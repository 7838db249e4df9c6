package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.PartLog;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an ingest has committed so far, read from the table without writing to it: the part log
 * (ClickHouse's {@code system.part_log}, one object per batch of events) from a given line on, and
 * the active parts from the commit log. Safe to call while the job writes: it only reads.
 *
 * <p>The part log only grows, so each snapshot reads just the objects added since the previous one
 * and adds them to running totals: a continuous ingest polls its progress every few seconds for
 * days, and re-reading the whole log each time would cost more as it grows.
 */
public final class TableProgress {
    private static final Pattern TYPE = Pattern.compile("\"event_type\":\"(\\w+)\"");
    private static final Pattern TIME = Pattern.compile("\"event_time\":\"([^\"]+)\"");
    private static final Pattern ROWS = Pattern.compile("\"rows\":(\\d+)");
    private static final Pattern BYTES = Pattern.compile("\"bytes_uncompressed\":(\\d+)");

    /**
     * Totals since the start line. {@code lastEvent} is the time of the last inserted or merged
     * part, {@code lastNewPart} that of the last inserted one (when the ingested rows were all
     * committed, merges aside: what ClickHouse's INSERT waits for); null before the first.
     */
    public record Snapshot(
            long rows,
            long bytesUncompressed,
            long partsWritten,
            long merges,
            int activeParts,
            Instant lastEvent,
            Instant lastNewPart) {}

    private final TableStore store;
    private final PartLog log;
    private final Set<String> read = new HashSet<>();

    // the running totals of lines [fromLine, lineCount) of the log objects read so far
    private long fromLine = -1;
    private long lineCount;
    private long rows;
    private long bytes;
    private long parts;
    private long merges;
    private Instant last;
    private Instant lastNewPart;

    /** The progress of the table in directory {@code table}. */
    public TableProgress(Path table) {
        this(TableStore.local(table.toAbsolutePath().toString()));
    }

    /** The progress of the table in {@code store} (the caller closes the store). */
    public TableProgress(TableStore store) {
        this.store = store;
        this.log = PartLog.of(store);
    }

    /** The number of complete lines in the part log now. */
    public synchronized long partLogLines() throws IOException {
        catchUp(fromLine < 0 ? Long.MAX_VALUE : fromLine);
        return lineCount;
    }

    /** Totals of the part log from line {@code fromLine} (0-based) on. */
    public synchronized Snapshot snapshot(long fromLine) throws IOException {
        catchUp(fromLine);
        int active = MergeTreeTable.readActiveParts(store).size();
        return new Snapshot(rows, bytes, parts, merges, active, last, lastNewPart);
    }

    /**
     * Adds the complete lines appended since the last call; from the start for a new start line.
     */
    private void catchUp(long from) throws IOException {
        if (from != fromLine) {
            fromLine = from;
            read.clear();
            lineCount = 0;
            rows = 0;
            bytes = 0;
            parts = 0;
            merges = 0;
            last = null;
            lastNewPart = null;
        }
        for (String object : log.objects()) {
            if (!read.add(object)) {
                continue;
            }
            List<String> lines = log.lines(object);
            for (String line : lines) {
                if (lineCount >= fromLine) {
                    add(line);
                }
                lineCount++;
            }
        }
    }

    private void add(String line) {
        String type = group(TYPE, line);
        if ("NewPart".equals(type)) {
            parts++;
            rows += Long.parseLong(group(ROWS, line, "0"));
            bytes += Long.parseLong(group(BYTES, line, "0"));
        } else if ("MergeParts".equals(type)) {
            merges++;
        } else {
            return;
        }
        try {
            Instant t = Instant.parse(group(TIME, line, ""));
            last = later(last, t);
            if ("NewPart".equals(type)) {
                lastNewPart = later(lastNewPart, t);
            }
        } catch (DateTimeParseException e) {
            // not an event time ClickHouse would write: the event counts, its time does not
        }
    }

    private static Instant later(Instant a, Instant b) {
        return a == null || b.isAfter(a) ? b : a;
    }

    private static String group(Pattern p, String line) {
        return group(p, line, null);
    }

    private static String group(Pattern p, String line, String otherwise) {
        Matcher m = p.matcher(line);
        return m.find() ? m.group(1) : otherwise;
    }
}
