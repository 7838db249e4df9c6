package io.github.s3mergetree.source.s3.format.text;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.flink.annotation.Internal;

/**
 * A byte cursor over an input stream, the text parsers' equivalent of ClickHouse's {@code
 * ReadBuffer}: parsers look at {@link #buf}{@code [}{@link #pos}{@code ]} directly and call {@link
 * #fill()} when {@code pos == end}. Bytes are never decoded: String values are copied from the
 * buffer as they are.
 *
 * <p>A {@link #pin() pin} keeps the bytes from the pinned position in the buffer across refills
 * (the buffer grows when a pinned region does not fit), so that a parser can go back to it ({@link
 * #rewind}, as ClickHouse's {@code PeekableReadBuffer} checkpoints do) and so that the text of the
 * row being parsed is at hand for error messages. Line numbers are counted lazily: only bytes that
 * leave the buffer, and the bytes up to a position asked about, are scanned for {@code \n}.
 */
@Internal
public final class TextCursor {
    private static final int DEFAULT_BUFFER = 64 * 1024;

    /** The largest buffer: a row (kept whole for its messages) may not be longer. */
    static final int MAX_BUFFER = 1 << 30;

    /** Bytes kept before the oldest pin (or the position), for {@link #byteBefore}. */
    private static final int LOOKBACK = 4;

    private final InputStream in;
    byte[] buf;
    int pos;
    int end;

    /** Absolute offset of {@code buf[0]}. */
    private long base;

    private boolean exhausted;

    /** Whether the whole input is in memory (a value read first, then parsed). */
    boolean memory;

    /** Absolute offsets whose bytes must stay in the buffer, oldest first. */
    private long[] pins = new long[8];

    private int pinned;

    /** Absolute offset up to which {@link #linesCounted} counts the newlines. */
    private long countedTo;

    private long linesCounted;
    private final long firstLine;

    /**
     * @param startOffset absolute offset of the stream's first byte in its object
     * @param firstLine line number (1-based) of the stream's first byte, or 0 if unknown
     */
    public TextCursor(InputStream in, long startOffset, long firstLine) {
        this(in, startOffset, firstLine, DEFAULT_BUFFER);
    }

    TextCursor(InputStream in, long startOffset, long firstLine, int bufferSize) {
        this.in = in;
        this.buf = new byte[Math.max(16, bufferSize)];
        this.base = startOffset;
        this.countedTo = startOffset;
        this.firstLine = firstLine;
    }

    /**
     * A cursor over {@code bytes[off, off + len)} (a value read first as a string, then parsed).
     */
    static TextCursor over(byte[] bytes, int off, int len) {
        return new TextCursor().reset(bytes, off, len);
    }

    private TextCursor() {
        this.in = null;
        this.firstLine = 0;
    }

    /** A reusable in-memory cursor (see {@link #over}). */
    static TextCursor inMemory() {
        return new TextCursor();
    }

    /** Makes this in-memory cursor read {@code bytes[off, off + len)}. */
    TextCursor reset(byte[] bytes, int off, int len) {
        buf = bytes;
        pos = off;
        end = off + len;
        base = -off;
        countedTo = 0;
        linesCounted = 0;
        pinned = 0;
        exhausted = true;
        memory = true;
        return this;
    }

    /** Whether the input has no bytes beyond {@code buf[end)} (without reading more). */
    boolean exhausted() {
        return exhausted;
    }

    /** True when no byte is left (reads more first if the buffer is consumed). */
    public boolean eof() {
        return pos >= end && !fill();
    }

    /** The next byte (0..255) without consuming it, or -1 at the end. */
    public int peek() {
        return pos < end || fill() ? buf[pos] & 0xFF : -1;
    }

    /** Whether the next byte is {@code c} (false at the end). */
    boolean at(char c) {
        return (pos < end || fill()) && buf[pos] == (byte) c;
    }

    /** Consumes the next byte if it is {@code c}. */
    boolean check(char c) {
        if ((pos < end || fill()) && buf[pos] == (byte) c) {
            pos++;
            return true;
        }
        return false;
    }

    /** Consumes {@code s} if the input continues with it; else consumes nothing. */
    boolean checkAscii(String s) {
        long start = pin();
        try {
            for (int i = 0; i < s.length(); i++) {
                if (!((pos < end || fill()) && buf[pos] == (byte) s.charAt(i))) {
                    rewind(start);
                    return false;
                }
                pos++;
            }
            return true;
        } finally {
            unpin();
        }
    }

    /** Consumes {@code c} or fails like ClickHouse's {@code assertChar}. */
    void expect(char c) {
        if (!check(c)) {
            throw TextParseException.expected(String.valueOf(c), this);
        }
    }

    /**
     * The byte {@code back} (1..4) positions before the current one, or -1 if it is not in the
     * buffer (before the stream start).
     */
    int byteBefore(int back) {
        int i = pos - back;
        return i >= 0 && base + i >= 0 ? buf[i] & 0xFF : -1;
    }

    /** Absolute offset of the next byte. */
    public long offset() {
        return base + pos;
    }

    /**
     * Reads more bytes into the buffer, keeping those from the oldest pin (or none), and returns
     * whether any came.
     */
    boolean fill() {
        if (exhausted) {
            return false;
        }
        int keep = pinned > 0 ? (int) (pins[0] - base) : Math.min(pos, end);
        keep = Math.max(0, keep - LOOKBACK);
        countLines(base + keep);
        if (keep > 0) {
            System.arraycopy(buf, keep, buf, 0, end - keep);
            base += keep;
            pos -= keep;
            end -= keep;
        }
        if (end == buf.length) {
            if (buf.length >= MAX_BUFFER) {
                throw new TextParseException(
                        "a row of more than "
                                + (MAX_BUFFER >> 20)
                                + " MiB: is a quote or a JSON string left open?",
                        false);
            }
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        try {
            while (true) {
                int n = in.read(buf, end, buf.length - end);
                if (n < 0) {
                    exhausted = true;
                    return false;
                }
                if (n > 0) {
                    end += n;
                    return true;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Pins the current position: the bytes from it stay in the buffer until the matching {@link
     * #unpin()}, so the parser may {@link #rewind} to it. Pins nest.
     *
     * @return the pinned absolute offset
     */
    long pin() {
        if (pinned == pins.length) {
            pins = Arrays.copyOf(pins, pinned * 2);
        }
        long at = base + pos;
        pins[pinned++] = at;
        return at;
    }

    /** Releases the latest pin. */
    void unpin() {
        pinned--;
    }

    /**
     * Releases every pin and pins the current position: the start of a row, whose bytes then stay
     * available for the messages about it.
     */
    public long pinRowStart() {
        pinned = 0;
        return pin();
    }

    /** Goes back to absolute offset {@code at}, which must be pinned. */
    void rewind(long at) {
        pos = (int) (at - base);
    }

    private void countLines(long upTo) {
        if (upTo <= countedTo) {
            return;
        }
        int from = (int) (countedTo - base);
        int to = (int) (upTo - base);
        long n = 0;
        byte[] b = buf;
        for (int i = Math.max(from, 0); i < to; i++) {
            if (b[i] == '\n') {
                n++;
            }
        }
        linesCounted += n;
        countedTo = upTo;
    }

    /**
     * The 1-based line of the byte at absolute {@code offset}, which must still be in the buffer
     * (at or after the oldest pin, or the current position), or 0 if the stream's first line is
     * unknown.
     */
    public long lineOf(long offset) {
        if (firstLine <= 0) {
            return 0;
        }
        long at = Math.max(offset, countedTo);
        countLines(Math.min(at, base + end));
        return firstLine + linesCounted;
    }

    /**
     * Newlines between the stream start and {@code offset} (which must still be in the buffer), for
     * a caller that learns the first line later.
     */
    public long newlinesBefore(long offset) {
        countLines(Math.min(Math.max(offset, countedTo), base + end));
        return linesCounted;
    }

    /** Up to {@code max} bytes from the current position, escaped for a message. */
    public String snippet(int max) {
        if (eof()) {
            return null;
        }
        int n = Math.min(max, end - pos);
        return escape(buf, pos, n);
    }

    /** Bytes {@code [from, to)} (absolute offsets still in the buffer), escaped for a message. */
    public String text(long from, long to, int max) {
        int f = (int) Math.max(0, from - base);
        int t = (int) Math.min(end, to - base);
        if (t <= f) {
            return "";
        }
        String s = escape(buf, f, Math.min(t - f, max));
        return t - f > max ? s + "…" : s;
    }

    /**
     * Renders bytes for a message as ClickHouse does: printable ASCII as is, the usual escapes for
     * control characters and {@code \xHH} for other bytes, so no raw binary reaches a log.
     */
    static String escape(byte[] b, int off, int len) {
        StringBuilder s = new StringBuilder(len + 8);
        for (int i = off; i < off + len; i++) {
            int c = b[i] & 0xFF;
            switch (c) {
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                case '\\' -> s.append("\\\\");
                case '\'' -> s.append("\\'");
                case 0 -> s.append("\\0");
                default -> {
                    if (c >= 0x20 && c < 0x7F) {
                        s.append((char) c);
                    } else {
                        s.append(String.format("\\x%02X", c));
                    }
                }
            }
        }
        return s.toString();
    }
}
