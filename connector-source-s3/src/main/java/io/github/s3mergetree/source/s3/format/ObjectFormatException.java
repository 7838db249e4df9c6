package io.github.s3mergetree.source.s3.format;

import java.io.IOException;
import org.apache.flink.annotation.PublicEvolving;

/**
 * An object cannot be decoded into the target schema: a corrupt file, an input column whose type
 * cannot become the target type, a value that does not convert. The message names the object, the
 * place in it (row group / byte offset / row) and the column.
 */
@PublicEvolving
public class ObjectFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    public ObjectFormatException(String message) {
        super(message);
    }

    public ObjectFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
