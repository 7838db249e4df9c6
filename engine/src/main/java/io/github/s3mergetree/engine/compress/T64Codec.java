package io.github.s3mergetree.engine.compress;

import io.github.s3mergetree.engine.io.LittleEndian;

/**
 * ClickHouse's {@code T64} (method byte 0x93): blocks of 64 integers become a 64-row matrix whose
 * bit planes are stored only up to the highest bit that differs between the block's minimum and
 * maximum (plus a sign bit when the range crosses zero). Payload: a type byte (ClickHouse's fixed
 * type number, bit 7 set for the {@code 'bit'} variant), the minimum and maximum as 64-bit
 * integers, then per block of 64 values (the last one shorter) the kept planes: whole byte planes
 * as bytes ({@code 'byte'} variant) or bit-transposed ({@code 'bit'}), the partial top byte always
 * bit-transposed.
 */
final class T64Codec extends SpecialisedCodec {
    /** ClickHouse's type numbers (MagicNumber in CompressionCodecT64.cpp). */
    static final int UINT8 = 1;

    static final int UINT16 = 2;
    static final int UINT32 = 3;
    static final int UINT64 = 4;
    static final int INT8 = 6;
    static final int INT16 = 7;
    static final int INT32 = 8;
    static final int INT64 = 9;
    static final int DATE = 13;
    static final int DATETIME = 14;
    static final int DATETIME64 = 15;
    static final int ENUM8 = 17;
    static final int ENUM16 = 18;
    static final int DECIMAL32 = 19;
    static final int DECIMAL64 = 20;
    static final int IPV4 = 21;
    static final int DATE32 = 22;
    static final int TIME = 23;
    static final int TIME64 = 24;

    private final int typeNumber;
    private final boolean bitVariant;

    T64Codec(int typeNumber, boolean bitVariant) {
        if (baseSize(typeNumber) == 0) {
            throw new IllegalArgumentException("unknown T64 type number " + typeNumber);
        }
        this.typeNumber = typeNumber;
        this.bitVariant = bitVariant;
    }

    /** The size in bytes of the integer a type number is stored as, 0 if unknown. */
    static int baseSize(int typeNumber) {
        return switch (typeNumber) {
            case INT8, UINT8, ENUM8 -> 1;
            case INT16, UINT16, ENUM16, DATE -> 2;
            case INT32, TIME, DECIMAL32, DATE32, UINT32, DATETIME, IPV4 -> 4;
            case INT64, DECIMAL64, TIME64, DATETIME64, UINT64 -> 8;
            default -> 0;
        };
    }

    /** Whether the integer a type number is stored as is signed. */
    static boolean baseSigned(int typeNumber) {
        return switch (typeNumber) {
            case INT8,
                    INT16,
                    INT32,
                    TIME,
                    DECIMAL32,
                    DATE32,
                    INT64,
                    DECIMAL64,
                    TIME64,
                    DATETIME64 ->
                    true;
            default -> false;
        };
    }

    @Override
    public byte methodByte() {
        return (byte) 0x93;
    }

    @Override
    public int maxCompressedLength(int srcLen) {
        CompressionCodecs.checkSrcLen(srcLen);
        return toIntBound(srcLen + 512L + 17 + 1, clickHouseName(), srcLen);
    }

    private static int valuableBits(long min, long max, boolean signed) {
        if (signed && min < 0 && max >= 0) {
            if (min + max >= 0) {
                return unsignedBits(0, max) + 1;
            }
            return unsignedBits(0, ~min) + 1;
        }
        return unsignedBits(min, max);
    }

    private static int unsignedBits(long min, long max) {
        long diff = min ^ max;
        return diff == 0 ? 0 : 64 - Long.numberOfLeadingZeros(diff);
    }

    @Override
    int encode(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff) {
        int size = baseSize(typeNumber);
        boolean signed = baseSigned(typeNumber);
        dst[dstOff] = (byte) (typeNumber | (bitVariant ? 0x80 : 0));
        // leading bytes that do not form a whole value go first, as they are (ClickHouse 26.x)
        int skip = srcLen % size;
        System.arraycopy(src, srcOff, dst, dstOff + 1, skip);
        int header = 1 + skip;
        srcOff += skip;
        srcLen -= skip;
        int count = srcLen / size;
        long min = 0;
        long max = 0;
        for (int i = 0; i < count; i++) {
            long v = value(src, srcOff + i * size, size, signed);
            if (i == 0) {
                min = max = v;
            } else if (signed ? v < min : Long.compareUnsigned(v, min) < 0) {
                min = v;
            } else if (signed ? v > max : Long.compareUnsigned(v, max) > 0) {
                max = v;
            }
        }
        LittleEndian.putLong(dst, dstOff + header, min);
        LittleEndian.putLong(dst, dstOff + header + 8, max);
        int d = dstOff + header + 16;
        int numBits = valuableBits(min, max, signed);
        if (numBits == 0) {
            return header + 16;
        }
        byte[] matrix = new byte[512];
        byte[] line = new byte[64];
        for (int start = 0; start < count; start += 64) {
            int tail = Math.min(64, count - start);
            java.util.Arrays.fill(matrix, (byte) 0);
            for (int col = 0; col < tail; col++) {
                int at = srcOff + (start + col) * size;
                for (int b = 0; b < size; b++) {
                    matrix[64 * b + col] = src[at + b];
                }
            }
            d = writePlanes(matrix, numBits, dst, d, line);
        }
        return d - dstOff;
    }

    private int writePlanes(byte[] matrix, int numBits, byte[] dst, int d, byte[] line) {
        int fullBytes = numBits / 8;
        int partBits = numBits % 8;
        for (int plane = 0; plane < fullBytes; plane++) {
            if (bitVariant) {
                transpose64x8(matrix, plane * 64, line);
                System.arraycopy(line, 0, dst, d, 64);
            } else {
                System.arraycopy(matrix, plane * 64, dst, d, 64);
            }
            d += 64;
        }
        if (partBits > 0) {
            transpose64x8(matrix, fullBytes * 64, line);
            System.arraycopy(line, 0, dst, d, partBits * 8);
            d += partBits * 8;
        }
        return d;
    }

    /** 64 bytes to 8 little-endian words: bit {@code i} of word {@code k} = bit k of byte i. */
    private static void transpose64x8(byte[] src, int off, byte[] out) {
        for (int k = 0; k < 8; k++) {
            long word = 0;
            for (int i = 0; i < 64; i++) {
                word |= (long) ((src[off + i] >>> k) & 1) << i;
            }
            LittleEndian.putLong(out, k * 8, word);
        }
    }

    /** The inverse of {@link #transpose64x8}: {@code words} bytes at off become 64 bytes. */
    private static void reverseTranspose64x8(byte[] words, int off, int wordCount, byte[] out) {
        java.util.Arrays.fill(out, (byte) 0);
        for (int k = 0; k < wordCount; k++) {
            long word = LittleEndian.getLong(words, off + k * 8);
            for (int i = 0; i < 64; i++) {
                out[i] |= (byte) (((word >>> i) & 1) << k);
            }
        }
    }

    private static long value(byte[] b, int off, int size, boolean signed) {
        long v = load(b, off, size);
        return signed ? signExtend(v, size) : v;
    }

    @Override
    void decode(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int uncompressedLen) {
        require(srcLen >= 1, "empty");
        int cookie = src[srcOff] & 0xff;
        int type = cookie & 0x7f;
        boolean bit = (cookie & 0x80) != 0;
        int size = baseSize(type);
        require(size != 0, "bad type number " + type);
        boolean signed = baseSigned(type);
        int skip = uncompressedLen % size;
        int header = 1 + skip + 16;
        require(srcLen >= header, "data size (" + (srcLen - 1) + ") is less than the T64 header");
        System.arraycopy(src, srcOff + 1, dst, dstOff, skip);
        dstOff += skip;
        int count = uncompressedLen / size;
        long min = LittleEndian.getLong(src, srcOff + 1 + skip);
        long max = LittleEndian.getLong(src, srcOff + 1 + skip + 8);
        int numBits = valuableBits(min, max, signed);
        int s = srcOff + header;
        int left = srcLen - header;
        if (numBits == 0) {
            for (int i = 0; i < count; i++) {
                store(dst, dstOff + i * size, size, min);
            }
            return;
        }
        int blockBytes = 8 * numBits;
        require(
                left > 0 && left % blockBytes == 0,
                "data size " + left + " is not a multiple of " + blockBytes);
        int blocks = left / blockBytes;
        require(blocks == (count + 63) / 64, blocks + " blocks for " + count + " elements");
        long upperMin = numBits < 64 ? (min >>> numBits) << numBits : 0;
        long upperMax = 0;
        long signBit = 0;
        if (signed && min < 0 && max >= 0 && numBits < 64) {
            signBit = 1L << (numBits - 1);
            upperMax = (max >>> numBits) << numBits;
        }
        int fullBytes = numBits / 8;
        int partBits = numBits % 8;
        byte[] matrix = new byte[512];
        byte[] line = new byte[64];
        for (int block = 0; block < blocks; block++) {
            int tail = Math.min(64, count - block * 64);
            java.util.Arrays.fill(matrix, (byte) 0);
            for (int plane = 0; plane < fullBytes; plane++) {
                if (bit) {
                    reverseTranspose64x8(src, s, 8, line);
                    System.arraycopy(line, 0, matrix, plane * 64, 64);
                } else {
                    System.arraycopy(src, s, matrix, plane * 64, 64);
                }
                s += 64;
            }
            if (partBits > 0) {
                reverseTranspose64x8(src, s, partBits, line);
                System.arraycopy(line, 0, matrix, fullBytes * 64, 64);
                s += partBits * 8;
            }
            for (int col = 0; col < tail; col++) {
                long v = 0;
                for (int b = 0; b < size; b++) {
                    v |= (matrix[64 * b + col] & 0xffL) << (8 * b);
                }
                if (signBit != 0) {
                    v |= (v & signBit) != 0 ? upperMin : upperMax;
                } else {
                    v |= upperMin;
                }
                store(dst, dstOff + (block * 64 + col) * size, size, v);
            }
        }
    }

    @Override
    public String clickHouseName() {
        return bitVariant ? "T64('bit')" : "T64";
    }

    @Override
    String identity() {
        return clickHouseName() + "/" + typeNumber;
    }
}
