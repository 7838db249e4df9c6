package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.Checksums;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.objectstore.ObjectSummary;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;

/**
 * Makes committed parts visible under their final names, without renames: an insert's files are
 * copied from its {@code tmp_…} directory (server-side copy on S3, hard links locally) with {@code
 * checksums.txt} last — a part directory without it is not a part to ClickHouse — and then the
 * temporary directory is deleted; a merged part, written under its final name, gets its {@code
 * checksums.txt} from the commit log. Every step is idempotent, so a publication interrupted by a
 * crash is completed by whoever opens the table next ({@link #complete}), and two processes
 * completing the same one at once do no harm.
 */
final class PartPublisher {
    private final TableStore store;
    private final boolean durable;

    PartPublisher(TableStore store, boolean durable) {
        this.store = store;
        this.durable = durable;
    }

    /** Whether {@code part} is visible (its {@code checksums.txt} is in place). */
    boolean isPublished(CommittedPart part) throws IOException {
        return store.exists(TableKeys.partFile(part.name().toString(), Checksums.FILE_NAME));
    }

    /** Publishes a committed part (idempotent; completes an interrupted publication). */
    void complete(CommittedPart part) throws IOException {
        String name = part.name().toString();
        if (part.temporaryDirectory() == null) {
            if (!isPublished(part)) {
                if (part.checksums() == null) {
                    throw new IOException(
                            "merged part "
                                    + store.describe(name)
                                    + " has no checksums.txt and the commit log holds none");
                }
                if (!store.exists(TableKeys.partFile(name, "count.txt"))) {
                    throw new IOException(
                            "the files of committed part "
                                    + store.describe(name)
                                    + " are missing: the part is lost");
                }
                store.write(
                        TableKeys.partFile(name, Checksums.FILE_NAME), part.checksums(), durable);
            }
            return;
        }
        String tmp = part.temporaryDirectory();
        List<ObjectSummary> files = store.list(TableKeys.partPrefix(tmp));
        if (isPublished(part)) {
            if (!files.isEmpty()) {
                store.deletePrefix(TableKeys.partPrefix(tmp));
            }
            return;
        }
        if (files.isEmpty()) {
            throw new IOException(
                    "committed part "
                            + store.describe(name)
                            + " is neither published nor in its temporary directory "
                            + store.describe(tmp)
                            + ": the part is lost");
        }
        FaultPoints.reach("publish.before-copy");
        boolean sawChecksums = false;
        try {
            for (ObjectSummary f : files) {
                String file = f.key().substring(tmp.length() + 1);
                if (file.equals(Checksums.FILE_NAME)) {
                    sawChecksums = true;
                    continue;
                }
                store.copy(f.key(), TableKeys.partFile(name, file));
            }
            if (!sawChecksums) {
                throw new IOException(
                        "temporary part " + store.describe(tmp) + " has no checksums.txt");
            }
            FaultPoints.reach("publish.before-checksums");
            store.copy(
                    TableKeys.partFile(tmp, Checksums.FILE_NAME),
                    TableKeys.partFile(name, Checksums.FILE_NAME));
        } catch (FileNotFoundException e) {
            // another process completed this publication and removed the temporary files
            if (!isPublished(part)) {
                throw e;
            }
        }
        FaultPoints.reach("publish.before-cleanup");
        store.deletePrefix(TableKeys.partPrefix(tmp));
    }
}
