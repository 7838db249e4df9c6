package io.github.s3mergetree.engine.table;

import java.io.IOException;

/**
 * A commit names a temporary part that is not (or not completely) in the table's store, and the
 * table has no record of the commit. The usual cause is a table path on a local disk that the
 * writers and the committer do not share (each TaskManager writing its own directory); the other is
 * someone else removing the table's temporary parts. Committing anyway would silently lose the
 * part, so the commit fails and nothing of it becomes visible.
 */
public class MissingTemporaryPartException extends IOException {
    private static final long serialVersionUID = 1L;

    public MissingTemporaryPartException(String message) {
        super(message);
    }
}
