package io.github.s3mergetree.source.s3.format;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into {@code \n}-terminated lines (a trailing {@code \r} is dropped) and
 * tracks the absolute byte offset of each line, which becomes the checkpointed position of
 * uncompressed line formats.
 */
final class LineReader {
    private final InputStream in;
    private final byte[] buf = new byte[64 * 1024];
    private int bufPos;
    private int bufLen;
    private long bufStartOffset;
    private byte[] line = new byte[256];
    private int lineLen;
    private long lineStart;
    private long position;

    LineReader(InputStream in, long startOffset) {
        this.in = in;
        this.bufStartOffset = startOffset;
        this.position = startOffset;
    }

    /** Reads the next line; false at the end of the stream. */
    boolean next() throws IOException {
        lineLen = 0;
        lineStart = position;
        boolean any = false;
        while (true) {
            if (bufPos == bufLen) {
                bufStartOffset += bufLen;
                bufLen = in.read(buf, 0, buf.length);
                bufPos = 0;
                if (bufLen <= 0) {
                    bufLen = 0;
                    if (!any) {
                        return false;
                    }
                    break; // last line without a newline
                }
            }
            any = true;
            int nl = -1;
            for (int i = bufPos; i < bufLen; i++) {
                if (buf[i] == '\n') {
                    nl = i;
                    break;
                }
            }
            int end = nl < 0 ? bufLen : nl;
            append(buf, bufPos, end - bufPos);
            position += (end - bufPos) + (nl < 0 ? 0 : 1);
            bufPos = nl < 0 ? bufLen : nl + 1;
            if (nl >= 0) {
                break;
            }
        }
        if (lineLen > 0 && line[lineLen - 1] == '\r') {
            lineLen--;
        }
        return true;
    }

    /** Appends the next line to the current one, joined by {@code \n} (quoted CSV newlines). */
    boolean continueLine() throws IOException {
        byte[] saved = Arrays.copyOf(line, lineLen);
        long savedStart = lineStart;
        if (!next()) {
            line = saved;
            lineLen = saved.length;
            lineStart = savedStart;
            return false;
        }
        byte[] more = Arrays.copyOf(line, lineLen);
        line = saved;
        lineLen = saved.length;
        append(new byte[] {'\n'}, 0, 1);
        append(more, 0, more.length);
        lineStart = savedStart;
        return true;
    }

    private void append(byte[] src, int off, int len) {
        if (lineLen + len > line.length) {
            line = Arrays.copyOf(line, Math.max(lineLen + len, line.length * 2));
        }
        System.arraycopy(src, off, line, lineLen, len);
        lineLen += len;
    }

    byte[] line() {
        return line;
    }

    int lineLength() {
        return lineLen;
    }

    /** Offset of the first byte of the current line. */
    long lineStart() {
        return lineStart;
    }

    /** Offset just after the current line (and its newline). */
    long position() {
        return position;
    }
}
