package io.github.s3mergetree.connector.ddl;

import io.github.s3mergetree.engine.ddl.DdlLimits;
import io.github.s3mergetree.engine.ddl.DdlText;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.annotation.Internal;

/**
 * Reads a {@code CREATE TABLE} statement from a file (the CLI's {@code --table-ddl-file}, the
 * sink's {@code setDdlFile} and SQL option {@code 'ddl-file'}) within {@code max_query_size}: a
 * regular file larger than the limit is refused from its size before it is opened, any other is
 * read through at most the limit plus one byte ({@link DdlText}).
 *
 * <p>Why here and not in the engine: the engine reaches files only through its store seam.
 */
@Internal
public final class DdlFiles {

    private DdlFiles() {}

    /** The DDL in {@code file}, within ClickHouse's default {@code max_query_size}. */
    public static String read(Path file) throws IOException {
        return read(file, DdlLimits.DEFAULTS);
    }

    /**
     * The DDL in {@code file}; a {@link io.github.s3mergetree.engine.ddl.DdlParseException} ("DDL
     * file …: Max query size exceeded: …") if it is larger than {@code limits.maxQuerySize()}.
     *
     * @throws java.nio.file.NoSuchFileException if there is no such file
     * @throws IOException if it cannot be read or is not UTF-8
     */
    public static String read(Path file, DdlLimits limits) throws IOException {
        long size = Files.isRegularFile(file) ? Files.size(file) : -1;
        String source = "DDL file " + file;
        DdlText.checkSize(size, source, limits);
        try (InputStream in = Files.newInputStream(file)) {
            return DdlText.read(in, size, source, limits);
        }
    }
}
