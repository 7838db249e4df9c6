package io.github.s3mergetree.delivery.restore;

import io.github.s3mergetree.engine.hash.Hash128;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A ClickHouse backup's metadata file {@code .backup}, written by hand so that a stock server's
 * {@code RESTORE ... FROM S3(...)} takes parts this project wrote, without copying them.
 *
 * <p>The format is the one {@code BackupImpl::writeBackupMetadata} writes and {@code
 * BackupImpl::readBackupMetadata} reads (ClickHouse {@code src/Backups/BackupImpl.cpp}, backup
 * version 1): {@code <config>} with {@code <version>1</version>}, {@code <timestamp>}, {@code
 * <uuid>} and {@code <contents>}, one {@code <file>} per file of the backup with
 *
 * <ul>
 *   <li>{@code <name>}: the file's path inside the backup, {@code data/<db>/<table>/<part>/<file>}
 *       or {@code metadata/<db>/<table>.sql};
 *   <li>{@code <size>}, and for a non-empty file {@code <checksum>}: the 128-bit CityHash of the
 *       content in 2048-byte chunks (the hash {@code checksums.txt} records), as 32 hex digits,
 *       high 64 bits first ({@code getHexUIntLowercase} of the UInt128);
 *   <li>{@code <data_file>}: where the bytes are, relative to the backup's root. It may name any
 *       object under the root, which is how a manifest at the table's root references the committed
 *       part files in place.
 * </ul>
 *
 * <p>The server keys files by (size, checksum), so two entries with equal size and checksum must
 * have equal bytes, which the hash guarantees. Elements the server does not know are ignored by it;
 * {@link #marker} adds one naming the delivery, so a deliverer can tell whose manifest it finds at
 * the root.
 */
public final class BackupManifest {
    /** One file of the backup. */
    public record Entry(String name, long size, Hash128 checksum, String dataFile) {
        public Entry {
            Objects.requireNonNull(name, "name");
            if (size < 0) {
                throw new IllegalArgumentException("negative size of " + name);
            }
            if (size > 0) {
                Objects.requireNonNull(checksum, "checksum of " + name);
                Objects.requireNonNull(dataFile, "data file of " + name);
            }
        }
    }

    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final UUID uuid;
    private final LocalDateTime timestamp;
    private final String marker;
    private final List<Entry> entries = new ArrayList<>();

    /**
     * @param uuid the backup's UUID
     * @param timestamp shown by the server as the backup's time
     * @param marker text of an {@code <s3mergetree_delivery>} element (null: none)
     */
    public BackupManifest(UUID uuid, LocalDateTime timestamp, String marker) {
        this.uuid = Objects.requireNonNull(uuid, "uuid");
        this.timestamp = Objects.requireNonNull(timestamp, "timestamp");
        this.marker = marker;
    }

    /** Adds a file whose bytes are at {@code dataFile} (relative to the backup's root). */
    public BackupManifest add(String name, long size, Hash128 checksum, String dataFile) {
        entries.add(new Entry(name, size, checksum, dataFile));
        return this;
    }

    public List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** The {@code .backup} file's bytes. */
    public byte[] toXml() {
        if (entries.isEmpty()) {
            throw new IllegalStateException("a backup must not be empty (BACKUP_IS_EMPTY)");
        }
        StringBuilder out = new StringBuilder(256 + entries.size() * 200);
        out.append("<config><version>1</version><deduplicate_files>1</deduplicate_files>");
        out.append("<timestamp>").append(TIMESTAMP.format(timestamp)).append("</timestamp>");
        out.append("<uuid>").append(uuid).append("</uuid>");
        if (marker != null) {
            out.append("<s3mergetree_delivery>")
                    .append(escape(marker))
                    .append("</s3mergetree_delivery>");
        }
        out.append("<contents>");
        for (Entry e : entries) {
            out.append("<file><name>").append(escape(e.name())).append("</name>");
            out.append("<size>").append(e.size()).append("</size>");
            if (e.size() > 0) {
                out.append("<checksum>").append(e.checksum().toHex()).append("</checksum>");
                if (!e.dataFile().equals(e.name())) {
                    out.append("<data_file>").append(escape(e.dataFile())).append("</data_file>");
                }
            }
            out.append("</file>");
        }
        out.append("</contents></config>");
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The marker text of a {@code .backup} file, or null if it has none (not ours). */
    public static String markerOf(byte[] xml) {
        String s = new String(xml, StandardCharsets.UTF_8);
        int a = s.indexOf("<s3mergetree_delivery>");
        int b = s.indexOf("</s3mergetree_delivery>");
        if (a < 0 || b < a) {
            return null;
        }
        return unescape(s.substring(a + "<s3mergetree_delivery>".length(), b));
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    private static String unescape(String s) {
        return s.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&");
    }
}
