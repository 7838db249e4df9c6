package io.github.s3mergetree.source.s3.format.text;

import java.util.Arrays;

/** A reusable growable byte array: the bytes of one value read before it is converted. */
final class ByteBuf {
    byte[] b = new byte[256];
    int len;

    void clear() {
        len = 0;
    }

    void add(int c) {
        if (len == b.length) {
            b = Arrays.copyOf(b, b.length * 2);
        }
        b[len++] = (byte) c;
    }

    void add(byte[] src, int off, int n) {
        if (len + n > b.length) {
            b = Arrays.copyOf(b, Math.max(len + n, b.length * 2));
        }
        System.arraycopy(src, off, b, len, n);
        len += n;
    }

    /** Drops trailing spaces and tabs (CSV's {@code input_format_csv_trim_whitespaces}). */
    void trimTrailingBlanks() {
        while (len > 0 && (b[len - 1] == ' ' || b[len - 1] == '\t')) {
            len--;
        }
    }

    boolean equalsAscii(String s) {
        if (s.length() != len) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (b[i] != (byte) s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The bytes as text for a message (escaped, never raw binary). */
    String describe() {
        return TextCursor.escape(b, 0, Math.min(len, 100)) + (len > 100 ? "…" : "");
    }
}
