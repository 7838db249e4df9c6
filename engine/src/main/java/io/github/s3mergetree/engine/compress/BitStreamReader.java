package io.github.s3mergetree.engine.compress;

/**
 * Reads bits most-significant first from a byte range, as ClickHouse's {@code BitReader} does for
 * the DoubleDelta and Gorilla codecs. Reading past the end yields zero bits (the padding of the
 * last byte); {@link #remaining()} tells how many real bits are left.
 */
final class BitStreamReader {
    private final byte[] src;
    private final long endBit;
    private long bit;

    BitStreamReader(byte[] src, int off, int len) {
        this.src = src;
        this.bit = (long) off * 8;
        this.endBit = (long) (off + len) * 8;
    }

    /** The number of bits not yet read. */
    long remaining() {
        return Math.max(0, endBit - bit);
    }

    /** Reads {@code n} (0..64) bits as the low bits of the result, without consuming them. */
    long peekBits(int n) {
        long saved = bit;
        long v = readBits(n);
        bit = saved;
        return v;
    }

    /** Skips {@code n} bits. */
    void skipBits(int n) {
        bit += n;
    }

    /** Reads {@code n} (0..64) bits, high bit first, as the low bits of the result. */
    long readBits(int n) {
        long v = 0;
        int left = n;
        while (left > 0) {
            int inByte = (int) (bit & 7);
            int take = Math.min(8 - inByte, left);
            int b = bit < endBit ? src[(int) (bit >>> 3)] & 0xff : 0;
            int chunk = (b >>> (8 - inByte - take)) & ((1 << take) - 1);
            v = (v << take) | chunk;
            bit += take;
            left -= take;
        }
        return v;
    }
}
