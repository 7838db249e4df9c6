package io.github.s3mergetree.examples.ingest;

import io.github.s3mergetree.engine.table.TableDirectory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an ingest has committed so far, read from the table directory without taking its lock: the
 * part log ({@code part_log.jsonl}, ClickHouse's {@code system.part_log}) from a given line on, and
 * the active parts. Safe to call while the job writes: it only reads.
 */
public final class TableProgress {
    private static final Pattern TYPE = Pattern.compile("\"event_type\":\"(\\w+)\"");
    private static final Pattern TIME = Pattern.compile("\"event_time\":\"([^\"]+)\"");
    private static final Pattern ROWS = Pattern.compile("\"rows\":(\\d+)");
    private static final Pattern BYTES = Pattern.compile("\"bytes_uncompressed\":(\\d+)");

    /** Totals since the start line. */
    public record Snapshot(
            long rows,
            long bytesUncompressed,
            long partsWritten,
            long merges,
            int activeParts,
            Instant lastEvent) {}

    private final Path table;

    public TableProgress(Path table) {
        this.table = table;
    }

    /** The number of lines in the part log now. */
    public long partLogLines() throws IOException {
        return lines().size();
    }

    /** Totals of the part log from line {@code fromLine} (0-based) on. */
    public Snapshot snapshot(long fromLine) throws IOException {
        List<String> lines = lines();
        long rows = 0;
        long bytes = 0;
        long parts = 0;
        long merges = 0;
        Instant last = null;
        for (int i = (int) Math.min(fromLine, lines.size()); i < lines.size(); i++) {
            String l = lines.get(i);
            String type = group(TYPE, l);
            if ("NewPart".equals(type)) {
                parts++;
                rows += Long.parseLong(group(ROWS, l, "0"));
                bytes += Long.parseLong(group(BYTES, l, "0"));
            } else if ("MergeParts".equals(type)) {
                merges++;
            } else {
                continue;
            }
            try {
                Instant t = Instant.parse(group(TIME, l, ""));
                last = last == null || t.isAfter(last) ? t : last;
            } catch (DateTimeParseException e) {
                // a line being written; the next snapshot reads it whole
            }
        }
        int active = 0;
        if (Files.isRegularFile(
                table.resolve(TableDirectory.METADATA_DIR).resolve(TableDirectory.DDL_FILE))) {
            active = TableDirectory.open(table).activeParts().size();
        }
        return new Snapshot(rows, bytes, parts, merges, active, last);
    }

    private List<String> lines() throws IOException {
        Path log = table.resolve(TableDirectory.METADATA_DIR).resolve("part_log.jsonl");
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            // a line still being appended has no newline yet and no closing brace
            if (!all.isEmpty() && !all.get(all.size() - 1).endsWith("}")) {
                return all.subList(0, all.size() - 1);
            }
            return all;
        } catch (NoSuchFileException e) {
            return List.of();
        }
    }

    private static String group(Pattern p, String line) {
        return group(p, line, null);
    }

    private static String group(Pattern p, String line, String otherwise) {
        Matcher m = p.matcher(line);
        return m.find() ? m.group(1) : otherwise;
    }
}
