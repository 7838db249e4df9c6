package io.github.s3mergetree.engine.ddl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads a {@code CREATE TABLE} statement from a stream (a DDL file, a stored {@code table.sql})
 * without reading more of it than {@code max_query_size} allows.
 *
 * <p>Why: reading a 200 MB file whole holds 600 MB of bytes and chars before the parser can refuse
 * it. Here a source whose size is known to be larger than the limit is refused before a byte is
 * read, and any source (a pipe, a file that grows) is read through at most {@code max_query_size +
 * 1} bytes. The text must be UTF-8, as ClickHouse's queries are.
 */
public final class DdlText {

    private DdlText() {}

    /**
     * The DDL in {@code in}, refused ({@link DdlParseException} naming {@code source}, its size and
     * {@code max_query_size}) if it is larger than {@code limits.maxQuerySize()} bytes.
     *
     * @param in the statement's bytes; read through at most {@code max_query_size + 1} bytes, not
     *     closed
     * @param size the source's size in bytes if known (a regular file's), else -1
     * @param source what the bytes are, for messages (e.g. {@code "DDL file /x/t.sql"})
     * @throws IOException if the stream fails or the bytes are not UTF-8
     */
    public static String read(InputStream in, long size, String source, DdlLimits limits)
            throws IOException {
        checkSize(size, source, limits);
        int max = limits.maxQuerySize();
        byte[] bytes = in.readNBytes(max + 1);
        if (bytes.length > max) {
            throw tooLarge(source, "more than " + max, limits);
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IOException(source + " is not UTF-8 text", e);
        }
    }

    /**
     * Refuses a source whose known {@code size} is larger than {@code limits.maxQuerySize()}
     * ({@link DdlParseException} naming {@code source}, its size and {@code max_query_size}),
     * before it is opened; a size of -1 (unknown) passes.
     */
    public static void checkSize(long size, String source, DdlLimits limits) {
        if (size > limits.maxQuerySize()) {
            throw tooLarge(source, Long.toString(size), limits);
        }
    }

    private static DdlParseException tooLarge(String source, String size, DdlLimits limits) {
        return new DdlParseException(
                source + ": " + DdlParser.tooLarge(size, limits).detail(), 0, 0);
    }
}
