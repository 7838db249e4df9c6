package io.github.s3mergetree.examples.ingest;

import io.github.s3mergetree.engine.table.TableDirectory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an ingest has committed so far, read from the table directory without taking its lock: the
 * part log ({@code part_log.jsonl}, ClickHouse's {@code system.part_log}) from a given line on, and
 * the active parts. Safe to call while the job writes: it only reads.
 *
 * <p>The part log only grows, so each snapshot reads just the bytes appended since the previous one
 * and adds them to running totals: a continuous ingest polls its progress every few seconds for
 * days, and re-reading the whole log each time would cost more as it grows. A line counts once it
 * is complete (its newline written: {@code PartLog} appends each line with a single write).
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

    private final Path table;
    private final Path log;

    // the running totals of lines [fromLine, lineCount) of the log's first offset bytes
    private long fromLine = -1;
    private long offset;
    private long lineCount;
    private long rows;
    private long bytes;
    private long parts;
    private long merges;
    private Instant last;
    private Instant lastNewPart;

    public TableProgress(Path table) {
        this.table = table;
        this.log = table.resolve(TableDirectory.METADATA_DIR).resolve("part_log.jsonl");
    }

    /** The number of complete lines in the part log now. */
    public synchronized long partLogLines() throws IOException {
        catchUp(fromLine < 0 ? Long.MAX_VALUE : fromLine);
        return lineCount;
    }

    /** Totals of the part log from line {@code fromLine} (0-based) on. */
    public synchronized Snapshot snapshot(long fromLine) throws IOException {
        catchUp(fromLine);
        int active = 0;
        if (Files.isRegularFile(
                table.resolve(TableDirectory.METADATA_DIR).resolve(TableDirectory.DDL_FILE))) {
            active = TableDirectory.open(table).activeParts().size();
        }
        return new Snapshot(rows, bytes, parts, merges, active, last, lastNewPart);
    }

    /**
     * Adds the complete lines appended since the last call; from the start for a new start line.
     */
    private void catchUp(long from) throws IOException {
        if (from != fromLine) {
            fromLine = from;
            offset = 0;
            lineCount = 0;
            rows = 0;
            bytes = 0;
            parts = 0;
            merges = 0;
            last = null;
            lastNewPart = null;
        }
        byte[] appended;
        int length;
        try (SeekableByteChannel ch = Files.newByteChannel(log, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < offset) {
                throw new IOException(
                        log + " shrank from " + offset + " to " + size + " bytes while read");
            }
            if (size == offset) {
                return;
            }
            if (size - offset > Integer.MAX_VALUE - 16) {
                throw new IOException(log + " grew by more than 2 GiB between two reads");
            }
            ch.position(offset);
            ByteBuffer buf = ByteBuffer.allocate((int) (size - offset));
            while (buf.hasRemaining() && ch.read(buf) >= 0) {
                // read up to the size seen above; a line appended since waits for the next call
            }
            appended = buf.array();
            length = buf.position();
        } catch (NoSuchFileException e) {
            return;
        }
        int lineStart = 0;
        for (int i = 0; i < length; i++) {
            if (appended[i] != '\n') {
                continue;
            }
            if (lineCount >= fromLine) {
                add(new String(appended, lineStart, i - lineStart, StandardCharsets.UTF_8));
            }
            lineCount++;
            lineStart = i + 1;
        }
        // an incomplete last line is read again, whole, next time
        offset += lineStart;
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
