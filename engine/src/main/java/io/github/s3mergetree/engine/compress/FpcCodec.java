package io.github.s3mergetree.engine.compress;

/**
 * ClickHouse's {@code FPC(level)} (method byte 0x98) for Float32/Float64: two predictors (FCM and
 * DFCM, tables of {@code 2^level} entries) guess each value; the value is XORed with the better
 * guess and stored without its leading zero bytes. Values go in pairs, one header byte per pair
 * (predictor bit and zero-byte count of each); an odd tail is padded with a zero value. Payload
 * header: the float width (4 or 8) and the level.
 */
final class FpcCodec extends SpecialisedCodec {
    /** ClickHouse's default level. */
    static final int DEFAULT_LEVEL = 12;

    /** ClickHouse's highest level. */
    static final int MAX_LEVEL = 28;

    private final int floatWidth;
    private final int level;

    FpcCodec(int floatWidth, int level) {
        this.floatWidth = floatWidth;
        this.level = level;
    }

    @Override
    public byte methodByte() {
        return (byte) 0x98;
    }

    @Override
    public int maxCompressedLength(int srcLen) {
        CompressionCodecs.checkSrcLen(srcLen);
        long count = ((long) srcLen + floatWidth - 1) / floatWidth;
        if (count % 2 != 0) {
            count++;
        }
        return toIntBound(2 + count * floatWidth + count / 2, clickHouseName(), srcLen);
    }

    /** Both predictors of one stream; the same state machine encodes and decodes. */
    private static final class Predictors {
        private final int width;
        private final long valueMask;
        private final long[] dfcm;
        private final long[] fcm;
        private final int tableMask;
        private long prev;
        private int dfcmHash;
        private int fcmHash;

        Predictors(int width, int level) {
            this.width = width;
            this.valueMask = mask(width);
            this.dfcm = new long[1 << level];
            this.fcm = new long[1 << level];
            this.tableMask = (1 << level) - 1;
        }

        long predictDfcm() {
            return (dfcm[dfcmHash] + prev) & valueMask;
        }

        long predictFcm() {
            return fcm[fcmHash];
        }

        void add(long value) {
            long delta = (value - prev) & valueMask;
            dfcm[dfcmHash] = delta;
            fcm[fcmHash] = value;
            if (width == 8) {
                dfcmHash = (int) (((long) dfcmHash << 2 ^ delta >>> 40) & tableMask);
                fcmHash = (int) (((long) fcmHash << 6 ^ value >>> 48) & tableMask);
            } else {
                dfcmHash = (int) (((long) dfcmHash << 4 ^ delta >>> 23) & tableMask);
                fcmHash = (int) (((long) fcmHash << 1 ^ value >>> 22) & tableMask);
            }
            prev = value;
        }
    }

    private int leadingZeroBytes(long v) {
        int zeros = v == 0 ? 8 * floatWidth : Long.numberOfLeadingZeros(v) - (64 - 8 * floatWidth);
        return zeros / 8;
    }

    private int encodeZeroBytes(int count) {
        if (floatWidth == 8 && count >= 4) {
            count--;
        }
        return Math.min(count, 7);
    }

    private int decodeZeroBytes(int encoded) {
        return floatWidth == 8 && encoded > 3 ? encoded + 1 : encoded;
    }

    @Override
    int encode(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff) {
        int w = floatWidth;
        dst[dstOff] = (byte) w;
        dst[dstOff + 1] = (byte) level;
        int d = dstOff + 2;
        long count = ((long) srcLen + w - 1) / w;
        if (count % 2 != 0) {
            count++;
        }
        Predictors p = new Predictors(w, level);
        long[] xored = new long[2];
        int[] zeros = new int[2];
        for (long i = 0; i < count; i += 2) {
            int header = 0;
            for (int k = 0; k < 2; k++) {
                long value = valueAt(src, srcOff, srcLen, (i + k) * w);
                long viaDfcm = p.predictDfcm() ^ value;
                long viaFcm = p.predictFcm() ^ value;
                p.add(value);
                int zDfcm = leadingZeroBytes(viaDfcm);
                int zFcm = leadingZeroBytes(viaFcm);
                // ClickHouse compares leading zero bits, then stores whole zero bytes
                boolean dfcm = leadingZeroBits(viaDfcm) > leadingZeroBits(viaFcm);
                xored[k] = dfcm ? viaDfcm : viaFcm;
                zeros[k] = encodeZeroBytes(dfcm ? zDfcm : zFcm);
                header |= (dfcm ? 0x08 : 0) << (k == 0 ? 4 : 0);
                header |= zeros[k] << (k == 0 ? 4 : 0);
            }
            dst[d++] = (byte) header;
            for (int k = 0; k < 2; k++) {
                int tail = w - decodeZeroBytes(zeros[k]);
                store(dst, d, tail, xored[k]);
                d += tail;
            }
        }
        return d - dstOff;
    }

    private int leadingZeroBits(long v) {
        return v == 0 ? 8 * floatWidth : Long.numberOfLeadingZeros(v) - (64 - 8 * floatWidth);
    }

    /** The value at byte {@code at} of the input, zero-padded past its end. */
    private long valueAt(byte[] src, int srcOff, int srcLen, long at) {
        if (at + floatWidth <= srcLen) {
            return load(src, srcOff + (int) at, floatWidth);
        }
        long v = 0;
        for (long b = at; b < srcLen; b++) {
            v |= (src[srcOff + (int) b] & 0xffL) << (8 * (b - at));
        }
        return v;
    }

    @Override
    void decode(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int uncompressedLen) {
        require(srcLen >= 2, "wrong header (" + srcLen + " bytes)");
        int w = src[srcOff] & 0xff;
        int lvl = src[srcOff + 1] & 0xff;
        require(lvl >= 1 && lvl <= MAX_LEVEL, "incorrect level " + lvl);
        require(w == 4 || w == 8, "incorrect float width " + w);
        FpcCodec format = new FpcCodec(w, lvl);
        Predictors p = new Predictors(w, lvl);
        long count = ((long) uncompressedLen + w - 1) / w;
        if (count % 2 != 0) {
            count++;
        }
        int s = srcOff + 2;
        int end = srcOff + srcLen;
        long out = 0;
        for (long i = 0; i < count; i += 2) {
            require(s < end, "unexpected end of encoded sequence");
            int header = src[s++] & 0xff;
            for (int k = 0; k < 2; k++) {
                int nibble = k == 0 ? header >>> 4 : header & 0x0f;
                int zeros = format.decodeZeroBytes(nibble & 7);
                require(zeros <= w, "invalid zero byte count " + zeros);
                int tail = w - zeros;
                require(end - s >= tail, "unexpected end of encoded sequence");
                long xored = tail == 0 ? 0 : load(src, s, tail);
                s += tail;
                long value = ((nibble & 0x08) != 0 ? p.predictDfcm() : p.predictFcm()) ^ xored;
                p.add(value);
                int n = (int) Math.min(w, uncompressedLen - out);
                if (n > 0) {
                    store(dst, dstOff + (int) out, n, value);
                    out += n;
                }
            }
        }
    }

    @Override
    public String clickHouseName() {
        return "FPC(" + level + ")";
    }

    @Override
    String identity() {
        return "FPC(" + level + ", " + floatWidth + ")";
    }
}
