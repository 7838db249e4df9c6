package io.github.s3mergetree.engine.compress;

import io.github.s3mergetree.engine.io.LittleEndian;

/**
 * ClickHouse's {@code Gorilla(n)} (method byte 0x95) over {@code n}-byte elements: the element
 * count, the first element, then per element the XOR with the previous one in a bit code (a 0 bit
 * for equal; {@code 10} and the meaningful bits when they fit the previous window; else {@code 11},
 * the leading-zero count, the meaningful bit count and the bits). Payload header: {@code n}, {@code
 * size % n}, and those leading bytes as they are.
 */
final class GorillaCodec extends SpecialisedCodec {
    private final int bytesSize;

    GorillaCodec(int bytesSize) {
        this.bytesSize = bytesSize;
    }

    /** The bits that hold a meaningful-bit count of an {@code n}-byte element. */
    private static int lengthBits(int n) {
        return n == 1 ? 4 : n == 2 ? 5 : n == 4 ? 6 : 7;
    }

    @Override
    public byte methodByte() {
        return (byte) 0x95;
    }

    @Override
    public int maxCompressedLength(int srcLen) {
        CompressionCodecs.checkSrcLen(srcLen);
        int n = bytesSize;
        long items = srcLen / n;
        long maxItemBits = 2 + (lengthBits(n) - 1) + lengthBits(n) + n * 8L;
        return toIntBound(2L + n + 4 + n + (items * maxItemBits + 8) / 8, clickHouseName(), srcLen);
    }

    @Override
    int encode(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff) {
        int n = bytesSize;
        int bits = 8 * n;
        int lengthBits = lengthBits(n);
        int skip = srcLen % n;
        dst[dstOff] = (byte) n;
        dst[dstOff + 1] = (byte) skip;
        System.arraycopy(src, srcOff, dst, dstOff + 2, skip);
        int s = srcOff + skip;
        int end = srcOff + srcLen;
        int d = dstOff + 2 + skip;
        LittleEndian.putInt(dst, d, (srcLen - skip) / n);
        d += 4;
        long prev = 0;
        if (s < end) {
            prev = load(src, s, n);
            store(dst, d, n, prev);
            s += n;
            d += n;
        }
        int prevLeading = 0;
        int prevData = 0;
        int prevTrailing = 0;
        BitStreamWriter w = new BitStreamWriter(dst, d);
        for (; s < end; s += n) {
            long cur = load(src, s, n);
            long x = cur ^ prev;
            prev = cur;
            if (x == 0) {
                w.writeBits(1, 0);
                continue;
            }
            int leading = Long.numberOfLeadingZeros(x) - (64 - bits);
            int trailing = Long.numberOfTrailingZeros(x);
            int data = bits - leading - trailing;
            if (prevData != 0 && prevLeading <= leading && prevTrailing <= trailing) {
                w.writeBits(2, 0b10);
                w.writeBits(prevData, x >>> prevTrailing);
            } else {
                w.writeBits(2, 0b11);
                w.writeBits(lengthBits - 1, leading);
                w.writeBits(lengthBits, data);
                w.writeBits(data, x >>> trailing);
                prevLeading = leading;
                prevData = data;
                prevTrailing = trailing;
            }
        }
        return w.finish() - dstOff;
    }

    @Override
    void decode(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int uncompressedLen) {
        require(srcLen >= 2, "wrong header (" + srcLen + " bytes)");
        int n = src[srcOff] & 0xff;
        require(n == 1 || n == 2 || n == 4 || n == 8, "element size " + n + " is not 1, 2, 4 or 8");
        int bits = 8 * n;
        int lengthBits = lengthBits(n);
        int skip = uncompressedLen % n;
        require(srcLen >= 2 + skip, "wrong header (" + srcLen + " bytes)");
        System.arraycopy(src, srcOff + 2, dst, dstOff, skip);
        int s = srcOff + 2 + skip;
        int end = srcOff + srcLen;
        int d = dstOff + skip;
        int expected = (uncompressedLen - skip) / n;
        if (expected == 0) {
            return;
        }
        require(end - s >= 4 + n, "truncated (" + srcLen + " bytes)");
        int items = LittleEndian.getInt(src, s);
        require(
                items == expected,
                "element count " + Integer.toUnsignedString(items) + ", expected " + expected);
        s += 4;
        long prev = load(src, s, n);
        store(dst, d, n, prev);
        s += n;
        d += n;
        BitStreamReader r = new BitStreamReader(src, s, end - s);
        int leading = 0;
        int data = 0;
        int trailing = 0;
        for (int i = 1; i < items; i++) {
            require(r.remaining() > 0, "ends after " + i + " of " + items + " elements");
            long cur = prev;
            if (r.readBits(1) == 1) {
                if (r.readBits(1) == 1) {
                    leading = (int) r.readBits(lengthBits - 1);
                    data = (int) r.readBits(lengthBits);
                    trailing = bits - leading - data;
                }
                require(
                        data > 0 && trailing >= 0,
                        "element " + i + " has " + data + " meaningful bits after " + leading);
                cur = prev ^ (r.readBits(data) << trailing);
            }
            store(dst, d, n, cur);
            d += n;
            prev = cur;
        }
    }

    @Override
    public String clickHouseName() {
        return "Gorilla(" + bytesSize + ")";
    }
}
