package io.github.s3mergetree.engine.table;

import java.io.IOException;

/**
 * Checked by {@link MergeTreeTable#commitPending} right before an insert's commit log entry is
 * created, under the table's commit lock: a writer that lost its {@link WriterLease} throws {@link
 * WriterFencedException} there and commits nothing.
 */
@FunctionalInterface
public interface CommitFence {
    /** No fence: every insert commits. */
    CommitFence NONE = () -> {};

    /** Returns if this writer may commit; throws {@link WriterFencedException} if not. */
    void check() throws IOException;
}
