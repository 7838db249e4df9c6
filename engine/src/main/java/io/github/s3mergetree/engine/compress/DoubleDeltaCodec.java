package io.github.s3mergetree.engine.compress;

import io.github.s3mergetree.engine.io.LittleEndian;

/**
 * ClickHouse's {@code DoubleDelta} (method byte 0x94) over {@code n}-byte elements: the element
 * count, the first element, the first delta, then per element the difference of consecutive deltas
 * in a variable-length bit code (a 0 bit for no change; else a prefix, a sign bit and the magnitude
 * minus one in 6, 8, 11, 31 or 63 bits). Payload header: {@code n}, {@code size % n}, and those
 * leading bytes as they are.
 */
final class DoubleDeltaCodec extends SpecialisedCodec {
    private final int bytesSize;

    DoubleDeltaCodec(int bytesSize) {
        this.bytesSize = bytesSize;
    }

    @Override
    public byte methodByte() {
        return (byte) 0x94;
    }

    @Override
    public int maxCompressedLength(int srcLen) {
        CompressionCodecs.checkSrcLen(srcLen);
        int n = bytesSize;
        long maxItemBits = n == 1 ? 12 : n == 2 ? 37 : 69;
        long items = srcLen / n;
        return toIntBound(
                2L + n + 4 + 2L * n + (items * maxItemBits + 7) / 8, clickHouseName(), srcLen);
    }

    @Override
    int encode(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff) {
        int n = bytesSize;
        long mask = mask(n);
        int skip = srcLen % n;
        dst[dstOff] = (byte) n;
        dst[dstOff + 1] = (byte) skip;
        System.arraycopy(src, srcOff, dst, dstOff + 2, skip);
        int s = srcOff + skip;
        int end = srcOff + srcLen;
        int d = dstOff + 2 + skip;
        int items = (srcLen - skip) / n;
        LittleEndian.putInt(dst, d, items);
        d += 4;
        long prev = 0;
        long prevDelta = 0;
        if (s < end) {
            prev = load(src, s, n);
            store(dst, d, n, prev);
            s += n;
            d += n;
        }
        if (s < end) {
            long cur = load(src, s, n);
            prevDelta = (cur - prev) & mask;
            store(dst, d, n, prevDelta);
            s += n;
            d += n;
            prev = cur;
        }
        BitStreamWriter w = new BitStreamWriter(dst, d);
        for (; s < end; s += n) {
            long cur = load(src, s, n);
            long delta = (cur - prev) & mask;
            long dd = (delta - prevDelta) & mask;
            prevDelta = delta;
            prev = cur;
            if (dd == 0) {
                w.writeBits(1, 0);
            } else {
                long signed = signExtend(dd, n);
                long abs = Math.abs(signed) - 1;
                int prefixBits;
                int prefix;
                int dataBits;
                if (signed > -63 && signed < 64) {
                    prefixBits = 2;
                    prefix = 0b10;
                    dataBits = 7;
                } else if (signed > -255 && signed < 256) {
                    prefixBits = 3;
                    prefix = 0b110;
                    dataBits = 9;
                } else if (signed > -2047 && signed < 2048) {
                    prefixBits = 4;
                    prefix = 0b1110;
                    dataBits = 12;
                } else if (signed > Integer.MIN_VALUE && signed < Integer.MAX_VALUE) {
                    prefixBits = 5;
                    prefix = 0b11110;
                    dataBits = 32;
                } else {
                    prefixBits = 5;
                    prefix = 0b11111;
                    dataBits = 64;
                }
                w.writeBits(prefixBits, prefix);
                w.writeBits(1, signed < 0 ? 1 : 0);
                w.writeBits(dataBits - 1, abs & mask);
            }
        }
        return w.finish() - dstOff;
    }

    @Override
    void decode(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int uncompressedLen) {
        require(srcLen >= 2, "wrong header (" + srcLen + " bytes)");
        int n = src[srcOff] & 0xff;
        require(n == 1 || n == 2 || n == 4 || n == 8, "element size " + n + " is not 1, 2, 4 or 8");
        long mask = mask(n);
        int skip = uncompressedLen % n;
        require(srcLen >= 2 + skip, "wrong header (" + srcLen + " bytes)");
        System.arraycopy(src, srcOff + 2, dst, dstOff + 0, skip);
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
        if (items < 2) {
            return;
        }
        require(end - s >= n, "truncated (" + srcLen + " bytes)");
        long prevDelta = load(src, s, n);
        prev = (prev + prevDelta) & mask;
        store(dst, d, n, prev);
        s += n;
        d += n;
        BitStreamReader r = new BitStreamReader(src, s, end - s);
        for (int i = 2; i < items; i++) {
            require(r.remaining() > 0, "ends after " + i + " of " + items + " elements");
            int top = (int) r.peekBits(5);
            long dd = 0;
            int prefixBits;
            int dataBits;
            if (top < 0b10000) {
                prefixBits = 1;
                dataBits = 0;
            } else if (top < 0b11000) {
                prefixBits = 2;
                dataBits = 7;
            } else if (top < 0b11100) {
                prefixBits = 3;
                dataBits = 9;
            } else if (top < 0b11110) {
                prefixBits = 4;
                dataBits = 12;
            } else if (top == 0b11110) {
                prefixBits = 5;
                dataBits = 32;
            } else {
                prefixBits = 5;
                dataBits = 64;
            }
            r.skipBits(prefixBits);
            if (dataBits != 0) {
                long sign = r.readBits(1);
                dd = r.readBits(dataBits - 1) + 1;
                if (sign != 0) {
                    dd = -dd;
                }
            }
            long delta = (dd + prevDelta) & mask;
            long cur = (prev + delta) & mask;
            store(dst, d, n, cur);
            d += n;
            prevDelta = (cur - prev) & mask;
            prev = cur;
        }
    }

    @Override
    public String clickHouseName() {
        return "DoubleDelta";
    }

    @Override
    String identity() {
        return "DoubleDelta(" + bytesSize + ")";
    }
}
