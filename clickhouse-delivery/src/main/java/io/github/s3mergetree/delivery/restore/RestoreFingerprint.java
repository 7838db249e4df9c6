package io.github.s3mergetree.delivery.restore;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * What a delivery's backup holds as the server counts it when it restores it ({@code
 * system.backups.num_files}: the manifest's files; {@code total_size}: the sum of their sizes),
 * recorded in the delivery's directory before its RESTORE is sent. A RESTORED entry with the
 * delivery's id that reports other numbers read another backup: it is not believed.
 */
record RestoreFingerprint(String deliveryId, long numFiles, long totalSize) {
    private static final String HEADER = "s3mergetree restore expected 1";

    static RestoreFingerprint of(String deliveryId, BackupManifest manifest) {
        long size = 0;
        for (BackupManifest.Entry e : manifest.entries()) {
            size += e.size();
        }
        return new RestoreFingerprint(deliveryId, manifest.entries().size(), size);
    }

    byte[] serialize() {
        return (HEADER
                        + "\nid\t"
                        + deliveryId
                        + "\nnum_files\t"
                        + numFiles
                        + "\ntotal_size\t"
                        + totalSize
                        + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The record in {@code bytes}.
     *
     * @throws IOException naming {@code where} if it is not one
     */
    static RestoreFingerprint parse(byte[] bytes, String where) throws IOException {
        String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
        long files = -1;
        long size = -1;
        String id = null;
        if (lines.length > 0 && lines[0].equals(HEADER)) {
            for (String line : lines) {
                String[] f = line.split("\t", 2);
                if (f.length == 2) {
                    try {
                        switch (f[0]) {
                            case "id" -> id = f[1];
                            case "num_files" -> files = Long.parseLong(f[1]);
                            case "total_size" -> size = Long.parseLong(f[1]);
                            default -> {}
                        }
                    } catch (NumberFormatException e) {
                        throw new IOException("bad line '" + line + "' in " + where, e);
                    }
                }
            }
        }
        if (id == null || files < 0 || size < 0) {
            throw new IOException("not a complete restore record: " + where);
        }
        return new RestoreFingerprint(id, files, size);
    }
}
