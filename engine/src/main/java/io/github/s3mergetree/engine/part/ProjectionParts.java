package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.store.TableStore;
import java.io.IOException;

/**
 * The projection sub-parts of a part as its {@code checksums.txt} lists them: an entry {@code
 * <name>.proj} (not compressed) stands for the directory {@code <name>.proj/}, a part of its own
 * whose listed files' total size and total checksum the entry holds (ClickHouse's {@code
 * IMergeTreeDataPart::checkConsistency} and {@code checkDataPart} verify projections this way).
 *
 * <p>Why: readers that walk a part's listed files must not take the projection for a missing file
 * nor its files for unlisted ones.
 */
public final class ProjectionParts {
    private static final String SUFFIX = ".proj";

    private ProjectionParts() {}

    /** Whether the checksums entry {@code name} is a projection sub-part. */
    public static boolean isProjection(String name) {
        return name.endsWith(SUFFIX) && name.length() > SUFFIX.length() && name.indexOf('/') < 0;
    }

    /**
     * Whether {@code path} (relative to the part) lies inside a projection that {@code checksums}
     * lists.
     */
    static boolean isInListedProjection(String path, Checksums checksums) {
        int slash = path.indexOf('/');
        return slash > 0
                && isProjection(path.substring(0, slash))
                && checksums.entries().containsKey(path.substring(0, slash));
    }

    /**
     * Checks the projection {@code name} of the part {@code dir}: its {@code checksums.txt} has the
     * total size and checksum the parent lists, and, when {@code deep}, the projection part passes
     * {@link PartReader#verify()}.
     *
     * @throws CorruptPartException naming the projection on a mismatch
     */
    static void verify(
            TableStore store, String dir, String name, Checksums.Entry listed, boolean deep)
            throws IOException {
        String projectionDir = dir + "/" + name;
        Checksums own;
        try {
            own = PartReader.readChecksums(store, projectionDir);
        } catch (java.io.FileNotFoundException e) {
            throw new CorruptPartException(
                    store.describe(projectionDir), 0, "a projection part", "missing");
        }
        Checksums.Entry actual = ProjectionPartWriter.entry(own);
        if (actual.fileSize() != listed.fileSize()
                || !actual.fileHash().equals(listed.fileHash())) {
            throw new CorruptPartException(
                    store.describe(projectionDir + "/" + Checksums.FILE_NAME),
                    0,
                    "size " + listed.fileSize() + ", total checksum " + listed.fileHash(),
                    "size " + actual.fileSize() + ", total checksum " + actual.fileHash());
        }
        if (deep) {
            PartReader.openForVerification(store, projectionDir).verify();
        }
    }
}
