package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.PartName;
import java.util.List;

/**
 * What a commit did.
 *
 * @param names the names the parts got, in the order given (for a replay: the recorded ones)
 * @param sequence the commit log entry that holds the commit (0 for an empty commit)
 * @param replayed whether the dedup token had been committed already (nothing was committed now)
 */
public record CommitResult(List<PartName> names, long sequence, boolean replayed) {
    public CommitResult {
        names = List.copyOf(names);
    }
}
