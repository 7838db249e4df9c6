package io.github.s3mergetree.source.s3.format.compression;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import net.jpountz.xxhash.StreamingXXHash32;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * Decompresses the LZ4 frame format ({@code .lz4}, lz4 1.x frames, concatenated frames and
 * skippable frames included), with <em>dependent</em> blocks as well as independent ones: a block
 * may copy from the 64 KiB decompressed before it. ClickHouse (and the {@code lz4} tool by default)
 * write linked blocks, which lz4-java's {@code LZ4FrameInputStream} refuses. Header, block and
 * content checksums are verified.
 */
final class Lz4FrameInputStream extends InputStream {
    private static final int MAGIC = 0x184D2204;
    private static final int WINDOW = 64 * 1024;
    private static final XXHash32 XX = XXHashFactory.fastestInstance().hash32();

    private final InputStream in;
    private byte[] window = new byte[0];
    private int windowStart;
    private int windowEnd;
    private int readPos;
    private byte[] block = new byte[0];
    private boolean independent;
    private boolean blockChecksum;
    private boolean contentChecksum;
    private int maxBlock;
    private StreamingXXHash32 content;
    private boolean inFrame;
    private boolean done;

    Lz4FrameInputStream(InputStream in) {
        this.in = in;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (readPos == windowEnd) {
            if (!nextBlock()) {
                return -1;
            }
        }
        int n = Math.min(len, windowEnd - readPos);
        System.arraycopy(window, readPos, b, off, n);
        readPos += n;
        return n;
    }

    /** Decodes the next block into the window; false at the end of the input. */
    private boolean nextBlock() throws IOException {
        if (done) {
            return false;
        }
        if (!inFrame && !readFrameHeader()) {
            done = true;
            return false;
        }
        int size = readIntLE(false);
        if (size == 0) {
            if (contentChecksum) {
                int expected = readIntLE(false);
                if (content.getValue() != expected) {
                    throw new IOException("LZ4 content checksum mismatch");
                }
            }
            inFrame = false;
            return true; // an empty step; the caller loops
        }
        boolean uncompressed = (size & 0x80000000) != 0;
        size &= 0x7FFFFFFF;
        if (size > maxBlock) {
            throw new IOException(
                    "LZ4 block of " + size + " bytes exceeds the frame's maximum of " + maxBlock);
        }
        if (block.length < size) {
            block = new byte[size];
        }
        readFully(block, size);
        if (blockChecksum) {
            int expected = readIntLE(false);
            if (XX.hash(block, 0, size, 0) != expected) {
                throw new IOException("LZ4 block checksum mismatch");
            }
        }
        // Keep the last 64 KiB as the dictionary of the next (dependent) block.
        int keep = Math.min(WINDOW, windowEnd);
        if (window.length < keep + maxBlock) {
            byte[] w = new byte[keep + maxBlock];
            System.arraycopy(window, windowEnd - keep, w, 0, keep);
            window = w;
        } else if (keep > 0) {
            System.arraycopy(window, windowEnd - keep, window, 0, keep);
        }
        windowStart = keep;
        int produced;
        if (uncompressed) {
            System.arraycopy(block, 0, window, windowStart, size);
            produced = size;
        } else {
            produced = decodeBlock(block, size, window, windowStart, independent ? windowStart : 0);
        }
        windowEnd = windowStart + produced;
        readPos = windowStart;
        if (contentChecksum) {
            content.update(window, windowStart, produced);
        }
        return true;
    }

    private boolean readFrameHeader() throws IOException {
        while (true) {
            int magic = readIntLE(true);
            if (magic == -1 && eofSeen) {
                return false;
            }
            if ((magic & 0xFFFFFFF0) == 0x184D2A50) {
                long skip = readIntLE(false) & 0xFFFFFFFFL;
                while (skip > 0) {
                    long s = in.skip(skip);
                    if (s <= 0) {
                        if (in.read() < 0) {
                            throw new EOFException("LZ4 skippable frame is truncated");
                        }
                        s = 1;
                    }
                    skip -= s;
                }
                continue;
            }
            if (magic != MAGIC) {
                throw new IOException(
                        String.format("not an LZ4 frame: magic number 0x%08X", magic));
            }
            break;
        }
        int flg = readByte();
        int bd = readByte();
        if ((flg >> 6) != 1) {
            throw new IOException("unsupported LZ4 frame version " + (flg >> 6));
        }
        independent = (flg & 0x20) != 0;
        blockChecksum = (flg & 0x10) != 0;
        boolean contentSize = (flg & 0x08) != 0;
        contentChecksum = (flg & 0x04) != 0;
        boolean dictId = (flg & 0x01) != 0;
        int maxCode = (bd >> 4) & 0x7;
        if (maxCode < 4) {
            throw new IOException("invalid LZ4 block maximum size code " + maxCode);
        }
        maxBlock = 1 << (8 + 2 * maxCode);
        byte[] desc = new byte[2 + (contentSize ? 8 : 0) + (dictId ? 4 : 0)];
        desc[0] = (byte) flg;
        desc[1] = (byte) bd;
        if (desc.length > 2) {
            byte[] rest = new byte[desc.length - 2];
            readFully(rest, rest.length);
            System.arraycopy(rest, 0, desc, 2, rest.length);
        }
        if (dictId) {
            throw new IOException("LZ4 frames with a dictionary ID are not supported");
        }
        int hc = readByte();
        if (((XX.hash(desc, 0, desc.length, 0) >> 8) & 0xFF) != hc) {
            throw new IOException("LZ4 frame header checksum mismatch");
        }
        content = contentChecksum ? XXHashFactory.fastestInstance().newStreamingHash32(0) : null;
        windowEnd = 0;
        readPos = 0;
        inFrame = true;
        return true;
    }

    /**
     * Decodes an LZ4 block into {@code out[outStart..]}; matches may reach back to {@code lowLimit}
     * (the dictionary of a dependent block). Returns the bytes produced.
     */
    static int decodeBlock(byte[] src, int srcLen, byte[] out, int outStart, int lowLimit)
            throws IOException {
        int s = 0;
        int o = outStart;
        int outLimit = out.length;
        while (true) {
            if (s >= srcLen) {
                throw new IOException("LZ4 block ends inside a sequence");
            }
            int token = src[s++] & 0xFF;
            int lit = token >>> 4;
            if (lit == 15) {
                int b;
                do {
                    if (s >= srcLen) {
                        throw new IOException("LZ4 block ends inside a literal length");
                    }
                    b = src[s++] & 0xFF;
                    lit += b;
                } while (b == 255);
            }
            if (s + lit > srcLen || o + lit > outLimit) {
                throw new IOException("LZ4 literals run past the block");
            }
            System.arraycopy(src, s, out, o, lit);
            s += lit;
            o += lit;
            if (s == srcLen) {
                return o - outStart; // the last sequence has literals only
            }
            if (s + 2 > srcLen) {
                throw new IOException("LZ4 block ends inside a match offset");
            }
            int offset = (src[s] & 0xFF) | ((src[s + 1] & 0xFF) << 8);
            s += 2;
            if (offset == 0 || o - offset < lowLimit) {
                throw new IOException("LZ4 match offset " + offset + " points before the data");
            }
            int len = token & 0xF;
            if (len == 15) {
                int b;
                do {
                    if (s >= srcLen) {
                        throw new IOException("LZ4 block ends inside a match length");
                    }
                    b = src[s++] & 0xFF;
                    len += b;
                } while (b == 255);
            }
            len += 4;
            if (o + len > outLimit) {
                throw new IOException("LZ4 match runs past the block's maximum size");
            }
            int from = o - offset;
            if (offset >= len) {
                System.arraycopy(out, from, out, o, len);
                o += len;
            } else {
                for (int i = 0; i < len; i++) {
                    out[o++] = out[from + i];
                }
            }
        }
    }

    private boolean eofSeen;

    /** A little-endian int; at a frame boundary ({@code allowEof}) -1 with eofSeen at the end. */
    private int readIntLE(boolean allowEof) throws IOException {
        int b0 = in.read();
        if (b0 < 0) {
            if (allowEof) {
                eofSeen = true;
                return -1;
            }
            throw new EOFException("LZ4 data is truncated");
        }
        int b1 = in.read();
        int b2 = in.read();
        int b3 = in.read();
        if ((b1 | b2 | b3) < 0) {
            throw new EOFException("LZ4 data is truncated");
        }
        return b0 | (b1 << 8) | (b2 << 16) | (b3 << 24);
    }

    private int readByte() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("LZ4 frame header is truncated");
        }
        return b;
    }

    private void readFully(byte[] b, int len) throws IOException {
        int off = 0;
        while (off < len) {
            int n = in.read(b, off, len - off);
            if (n < 0) {
                throw new EOFException("LZ4 block is truncated");
            }
            off += n;
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
