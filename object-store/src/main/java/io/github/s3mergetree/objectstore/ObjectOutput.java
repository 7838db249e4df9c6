package io.github.s3mergetree.objectstore;

import java.io.IOException;
import java.io.OutputStream;

/**
 * An object being uploaded ({@link ObjectStoreClient#upload}): bytes written go to the store in
 * parts of bounded size; {@link #close()} makes the object appear whole, {@link #abort()} discards
 * it (an aborted or failed upload leaves nothing visible).
 */
public abstract class ObjectOutput extends OutputStream {
    /** Discards the upload; afterwards {@link #close()} does nothing. */
    public abstract void abort() throws IOException;

    /** Bytes written so far. */
    public abstract long bytesWritten();
}
