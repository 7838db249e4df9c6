package io.github.s3mergetree.engine.compress;

/**
 * ClickHouse's {@code Delta(n)} (method byte 0x92): every {@code n}-byte little-endian element is
 * replaced by its difference to the previous one (wrapping). Payload: {@code n}, the number of
 * leading bytes not forming a whole element ({@code size % n}), those bytes as they are, then the
 * differences. A transform, not a compression: ClickHouse wants a generic codec after it.
 */
final class DeltaCodec extends SpecialisedCodec {
    private final int bytesSize;

    DeltaCodec(int bytesSize) {
        this.bytesSize = bytesSize;
    }

    @Override
    public byte methodByte() {
        return (byte) 0x92;
    }

    @Override
    public int maxCompressedLength(int srcLen) {
        CompressionCodecs.checkSrcLen(srcLen);
        return toIntBound(srcLen + 2L, clickHouseName(), srcLen);
    }

    @Override
    int encode(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff) {
        int n = bytesSize;
        int skip = srcLen % n;
        dst[dstOff] = (byte) n;
        dst[dstOff + 1] = (byte) skip;
        System.arraycopy(src, srcOff, dst, dstOff + 2, skip);
        int s = srcOff + skip;
        int d = dstOff + 2 + skip;
        int end = srcOff + srcLen;
        long prev = 0;
        for (; s < end; s += n, d += n) {
            long cur = load(src, s, n);
            store(dst, d, n, cur - prev);
            prev = cur;
        }
        return 2 + srcLen;
    }

    @Override
    void decode(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int uncompressedLen) {
        require(srcLen >= 2, "wrong header (" + srcLen + " bytes)");
        int n = src[srcOff] & 0xff;
        require(n == 1 || n == 2 || n == 4 || n == 8, "element size " + n + " is not 1, 2, 4 or 8");
        int skip = uncompressedLen % n;
        require(
                srcLen == 2 + uncompressedLen,
                "size " + srcLen + " for " + uncompressedLen + " bytes");
        System.arraycopy(src, srcOff + 2, dst, dstOff, skip);
        long acc = 0;
        int end = srcOff + srcLen;
        for (int s = srcOff + 2 + skip, d = dstOff + skip; s < end; s += n, d += n) {
            acc += load(src, s, n);
            store(dst, d, n, acc);
        }
    }

    @Override
    public String clickHouseName() {
        return "Delta(" + bytesSize + ")";
    }
}
