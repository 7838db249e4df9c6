package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * What an ingest prints: progress lines on stderr (rows read beside rows committed, with a bar when
 * the total is known) and, as the last stdout line, the JSON summary {@code
 * {"rows","bytes_uncompressed","seconds","rows_per_s","insert_seconds","parts_written",
 * "active_parts","merges","rows_skipped","failed_objects"}}.
 */
final class IngestReport {
    private final PrintStream out;
    private final PrintStream err;
    private final Function<String, String> describeObject;
    private OptionalLong totalRows = OptionalLong.empty();

    /**
     * Rows read and bytes downloaded by the running job, from its metrics: an embedded MiniCluster
     * reports them into this JVM, a cluster answers over REST. Null before a job.
     */
    private volatile ReadProgress read;

    /**
     * @param out where the summary goes
     * @param err where progress goes
     * @param describeObject an object's key as users know it ({@code s3://bucket/key})
     */
    IngestReport(PrintStream out, PrintStream err, Function<String, String> describeObject) {
        this.out = out;
        this.err = err;
        this.describeObject = describeObject;
    }

    /** The input's total rows, when known before the job (Parquet footers). */
    void setTotalRows(OptionalLong totalRows) {
        this.totalRows = totalRows;
    }

    OptionalLong totalRows() {
        return totalRows;
    }

    /** Where the read totals come from from now on (the running job's metrics). */
    void readFrom(ReadProgress read) {
        this.read = read;
    }

    /** The job's read totals so far; empty without a job or before it reported any. */
    Optional<ReadProgress.Totals> readTotals() {
        ReadProgress r = read;
        return r == null ? Optional.empty() : r.totals();
    }

    /**
     * One progress line: rows read and bytes downloaded (the job's metrics) beside the rows
     * committed (the part log), which only move at checkpoints. With a known total (Parquet
     * footers) a bar shows both: {@code #} committed, {@code =} read, not yet committed.
     */
    void progress(TableProgress.Snapshot s, Instant start, Instant now) {
        double secs = start == null ? 0 : Duration.between(start, now).toMillis() / 1e3;
        err.println(progressLine(s, readTotals(), totalRows, secs));
    }

    /**
     * The text of a progress line: {@code [bar] P% read, C% committed} when the total is known,
     * then rows read (and MB downloaded), rows committed (and MB), the read rate, parts and merges.
     * Without read metrics (none reported yet) the committed rows stand alone.
     */
    static String progressLine(
            TableProgress.Snapshot s,
            Optional<ReadProgress.Totals> read,
            OptionalLong totalRows,
            double secs) {
        StringBuilder b = new StringBuilder("progress: ");
        long rowsRead = read.map(ReadProgress.Totals::rowsRead).orElse(0L);
        if (totalRows.isPresent() && totalRows.getAsLong() > 0) {
            double total = totalRows.getAsLong();
            double committed = Math.min(1.0, s.rows() / total);
            double readFraction = Math.max(committed, Math.min(1.0, rowsRead / total));
            int hashes = (int) Math.round(committed * 30);
            int equals = Math.max(0, (int) Math.round(readFraction * 30) - hashes);
            b.append('[')
                    .append("#".repeat(hashes))
                    .append("=".repeat(equals))
                    .append(".".repeat(30 - hashes - equals))
                    .append(
                            String.format(
                                    Locale.ROOT,
                                    "] %3.0f%% read, %3.0f%% committed, ",
                                    readFraction * 100,
                                    committed * 100));
        }
        if (read.isPresent()) {
            b.append(
                    String.format(
                            Locale.ROOT,
                            "%,d rows read (%.1f MB downloaded), ",
                            rowsRead,
                            read.get().bytesDownloaded() / 1e6));
        }
        long rate = read.isPresent() ? rowsRead : s.rows();
        b.append(
                String.format(
                        Locale.ROOT,
                        "%,d rows committed (%.1f MB), %,.0f rows/s%s, %d parts written,"
                                + " %d active, %d merges, %.0f s",
                        s.rows(),
                        s.bytesUncompressed() / 1e6,
                        secs > 0 ? rate / secs : 0.0,
                        read.isPresent() ? " read" : " committed",
                        s.partsWritten(),
                        s.activeParts(),
                        s.merges(),
                        secs));
        return b.toString();
    }

    /** A failed object or byte range as users know it: its name and, for a range, the range. */
    String objectName(S3ObjectSplit f) {
        return describeObject.apply(f.key())
                + (f.isWholeObject()
                        ? ""
                        : String.format(
                                Locale.ROOT, " bytes [%d, %d)", f.rangeStart(), f.rangeEnd()));
    }

    /**
     * The JSON summary line on stdout.
     *
     * @param s the table's progress since this ingest's start
     * @param readingStart when the job started reading (null: no job ran)
     * @param failed the objects the job could not read
     * @param rowsSkipped the malformed rows skipped, as JSON ({@code null} when unknown)
     * @param now the time the summary is taken
     */
    void summary(
            TableProgress.Snapshot s,
            Instant readingStart,
            List<S3ObjectSplit> failed,
            String rowsSkipped,
            Instant now) {
        double seconds = secondsSince(readingStart, s.lastEvent(), now);
        double insertSeconds = secondsSince(readingStart, s.lastNewPart(), now);
        StringBuilder failedJson = new StringBuilder("[");
        for (S3ObjectSplit f : failed) {
            if (failedJson.length() > 1) {
                failedJson.append(',');
            }
            failedJson
                    .append("{\"object\":")
                    .append(jsonString(objectName(f)))
                    .append(",\"rows_committed\":")
                    .append(f.rowsRead())
                    .append(",\"error\":")
                    .append(jsonString(f.failure().orElse("")))
                    .append('}');
        }
        failedJson.append(']');
        out.printf(
                Locale.ROOT,
                "{\"rows\":%d,\"bytes_uncompressed\":%d,\"seconds\":%.3f,\"rows_per_s\":%.0f,"
                        + "\"insert_seconds\":%.3f,"
                        + "\"parts_written\":%d,\"active_parts\":%d,\"merges\":%d,"
                        + "\"rows_skipped\":%s,\"failed_objects\":%s}%n",
                s.rows(),
                s.bytesUncompressed(),
                seconds,
                seconds > 0 ? s.rows() / seconds : 0.0,
                insertSeconds,
                s.partsWritten(),
                s.activeParts(),
                s.merges(),
                rowsSkipped,
                failedJson);
        out.flush();
    }

    /** {@code v} as a JSON string literal. */
    static String jsonString(String v) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** Seconds from the job's reading start to {@code end} ({@code now} when there is none yet). */
    static double secondsSince(Instant readingStart, Instant end, Instant now) {
        if (readingStart == null) {
            return 0;
        }
        Instant until = end != null && end.isAfter(readingStart) ? end : now;
        return Duration.between(readingStart, until).toMillis() / 1e3;
    }
}
