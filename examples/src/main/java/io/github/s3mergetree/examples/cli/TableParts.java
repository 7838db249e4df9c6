package io.github.s3mergetree.examples.cli;

import io.github.s3mergetree.engine.part.Checksums;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.table.TableDirectory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Read-only access to a table directory's active parts for {@code parts} and {@code check}.
 *
 * <p>Unlike {@code MergeTreeTable.open}, nothing here writes to the directory: no interrupted
 * commit is completed and no broken part is moved to {@code detached/}, so both commands can look
 * at a table a job is writing, and a damaged part stays where it is for the operator to see.
 */
final class TableParts {
    private TableParts() {}

    /** What {@code system.parts} shows of one part, read from its own files. */
    record PartInfo(
            PartName name,
            Path dir,
            long rows,
            long bytesOnDisk,
            long dataUncompressedBytes,
            long marks) {}

    /** Opens {@code dir} as a table directory; the message names the directory and the problem. */
    static TableDirectory open(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            throw new IllegalArgumentException("no such directory: " + dir);
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("not a directory: " + dir);
        }
        if (!Files.isRegularFile(
                dir.resolve(TableDirectory.METADATA_DIR).resolve(TableDirectory.DDL_FILE))) {
            throw new IllegalArgumentException(
                    dir
                            + " is not a table directory (it has no "
                            + TableDirectory.METADATA_DIR
                            + "/"
                            + TableDirectory.DDL_FILE
                            + "; give the directory a MergeTree sink or the demo wrote)");
        }
        return TableDirectory.open(dir);
    }

    /** The active parts (not covered by a bigger part), ordered by partition and block number. */
    static List<PartName> active(TableDirectory table) throws IOException {
        return table.activeParts();
    }

    /**
     * Reads one part's row count ({@code count.txt}) and sizes ({@code checksums.txt}): bytes on
     * disk are the listed files' sizes, uncompressed bytes the {@code .bin} files' uncompressed
     * sizes, marks the entries of the first column's mark file ({@code .mrk2}: 24 bytes each,
     * {@code .mrk}: 16), or -1 when there is none.
     */
    static PartInfo info(TableDirectory table, PartName name) throws IOException {
        Path dir = table.root().resolve(name.toString());
        Path checksumsFile = dir.resolve("checksums.txt");
        Checksums c = Checksums.parse(Files.readAllBytes(checksumsFile), checksumsFile.toString());
        String count =
                Files.readString(dir.resolve("count.txt"), StandardCharsets.US_ASCII).strip();
        long rows;
        try {
            rows = Long.parseLong(count);
        } catch (NumberFormatException e) {
            throw new IOException(
                    "part " + name + ": count.txt holds '" + count + "', not a row count");
        }
        long uncompressed = 0;
        long marks = -1;
        for (Map.Entry<String, Checksums.Entry> e : c.entries().entrySet()) {
            String file = e.getKey();
            if (file.endsWith(".bin")) {
                uncompressed += e.getValue().uncompressedSize();
            } else if (marks < 0 && file.endsWith(".mrk2")) {
                marks = e.getValue().fileSize() / 24;
            } else if (marks < 0 && file.endsWith(".mrk")) {
                marks = e.getValue().fileSize() / 16;
            }
        }
        return new PartInfo(name, dir, rows, c.totalBytes(), uncompressed, marks);
    }
}
