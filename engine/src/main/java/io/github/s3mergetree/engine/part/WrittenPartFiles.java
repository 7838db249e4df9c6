package io.github.s3mergetree.engine.part;

/**
 * What {@link PartWriter} wrote: row and mark counts, the checksums (file list, sizes, hashes), and
 * the uncompressed in-memory size of the block written.
 */
public record WrittenPartFiles(
        int rows, int marks, Checksums checksums, long bytesUncompressedInMemory) {
    /** Bytes on disk of the listed files. */
    public long bytesOnDisk() {
        return checksums.totalBytes();
    }

    /** Uncompressed bytes of all {@code .bin} streams (ClickHouse's data_uncompressed_bytes). */
    public long dataUncompressedBytes() {
        long t = 0;
        for (var e : checksums.entries().entrySet()) {
            if (e.getKey().endsWith(".bin")) {
                t += e.getValue().uncompressedSize();
            }
        }
        return t;
    }
}
