package io.github.s3mergetree.objectstore;

import java.io.IOException;

/**
 * An object changed after it was listed: its ETag differs from the one pinned in the split. Never
 * retried: reading on would mix two versions of the object.
 */
public class ObjectChangedException extends IOException {
    private static final long serialVersionUID = 1L;

    public ObjectChangedException(String object, String pinnedEtag, String actualEtag) {
        super(
                object
                        + " changed while it was read: ETag was "
                        + pinnedEtag
                        + " when listed, now "
                        + (actualEtag == null || actualEtag.isEmpty() ? "different" : actualEtag)
                        + ". Re-run the job on the new version.");
    }
}
