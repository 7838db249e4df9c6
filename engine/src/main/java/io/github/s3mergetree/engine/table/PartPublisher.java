package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.store.PartFiles;
import io.github.s3mergetree.engine.store.PartStorage;
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
        return storage(part).hasChecksums();
    }

    private PartStorage storage(CommittedPart part) {
        return new PartStorage(store, part.name().toString());
    }

    /** Publishes a committed part (idempotent; completes an interrupted publication). */
    void complete(CommittedPart part) throws IOException {
        PartStorage target = storage(part);
        if (part.temporaryDirectory() == null) {
            if (!target.hasChecksums()) {
                if (part.checksums() == null) {
                    throw new IOException(
                            "merged part "
                                    + target.describe()
                                    + " has no checksums.txt and the commit log holds none");
                }
                if (!target.exists(PartFiles.COUNT)) {
                    throw new IOException(
                            "the files of committed part "
                                    + target.describe()
                                    + " are missing: the part is lost");
                }
                target.writeChecksums(part.checksums(), durable);
            }
            return;
        }
        PartStorage tmp = new PartStorage(store, part.temporaryDirectory());
        List<ObjectSummary> files = tmp.list();
        if (target.hasChecksums()) {
            if (!files.isEmpty()) {
                tmp.deleteAll();
            }
            return;
        }
        if (files.isEmpty()) {
            throw new IOException(
                    "committed part "
                            + target.describe()
                            + " is neither published nor in its temporary directory "
                            + tmp.describe()
                            + ": the part is lost");
        }
        FaultPoints.reach("publish.before-copy");
        try {
            tmp.moveTo(target, PartStorage.Handover.COPY, durable, PUBLISH_STEPS);
        } catch (FileNotFoundException e) {
            // another process completed this publication and removed the temporary files
            if (!target.hasChecksums()) {
                throw e;
            }
            FaultPoints.reach("publish.before-cleanup");
            tmp.deleteAll();
        }
    }

    private static final PartStorage.MoveSteps PUBLISH_STEPS =
            new PartStorage.MoveSteps() {
                @Override
                public void beforeChecksums() {
                    FaultPoints.reach("publish.before-checksums");
                }

                @Override
                public void beforeRemovingSource() {
                    FaultPoints.reach("publish.before-cleanup");
                }
            };
}
