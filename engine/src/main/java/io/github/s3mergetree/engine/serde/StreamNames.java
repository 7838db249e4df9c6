package io.github.s3mergetree.engine.serde;

import java.nio.charset.StandardCharsets;

/**
 * File names of column streams, as ClickHouse's {@code escapeForFileName} and {@code
 * getFileNameForStream} make them: bytes {@code [A-Za-z0-9_]} kept, every other byte as {@code
 * %XX}.
 */
public final class StreamNames {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private StreamNames() {}

    /** ClickHouse's {@code escapeForFileName}. */
    public static String escape(String name) {
        byte[] b = name.getBytes(StandardCharsets.UTF_8);
        StringBuilder s = new StringBuilder(b.length + 8);
        for (byte x : b) {
            int c = x & 0xFF;
            if ((c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '_') {
                s.append((char) c);
            } else {
                s.append('%').append(HEX[c >>> 4]).append(HEX[c & 15]);
            }
        }
        return s.toString();
    }
}
