package io.github.s3mergetree.engine.compress;

/**
 * Writes bits most-significant first into a byte array, as ClickHouse's {@code BitWriter} does for
 * the DoubleDelta and Gorilla codecs: the low {@code n} bits of a value are appended high bit
 * first, and {@link #finish()} pads the last byte with zero bits.
 */
final class BitStreamWriter {
    private final byte[] dst;
    private int pos;
    private long acc;
    private int accBits;

    BitStreamWriter(byte[] dst, int off) {
        this.dst = dst;
        this.pos = off;
    }

    /** Appends the low {@code n} (0..64) bits of {@code value}, high bit first. */
    void writeBits(int n, long value) {
        if (n == 0) {
            return;
        }
        if (n > 32) {
            writeBits(n - 32, value >>> 32);
            writeBits(32, value);
            return;
        }
        long v = value & ((1L << n) - 1);
        acc = (acc << n) | v;
        accBits += n;
        while (accBits >= 8) {
            accBits -= 8;
            dst[pos++] = (byte) (acc >>> accBits);
        }
        acc &= (1L << accBits) - 1;
    }

    /** Writes the pending bits padded with zeros; returns the offset after the last byte. */
    int finish() {
        if (accBits > 0) {
            dst[pos++] = (byte) (acc << (8 - accBits));
            acc = 0;
            accBits = 0;
        }
        return pos;
    }
}
