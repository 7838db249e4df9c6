package io.github.s3mergetree.engine.compress;

import io.github.s3mergetree.engine.io.LittleEndian;
import java.util.ArrayList;
import java.util.List;

/**
 * ClickHouse's codec chain, {@code CODEC(a, b, ...)} with more than one codec (method byte 0x91):
 * the payload is the number of codecs, their method bytes in the order they are applied, then the
 * result of applying them one after the other, each step framed like a block without checksum
 * (method byte, {@code u32} size with this 9-byte header, {@code u32} input size, payload).
 */
final class MultipleCodec extends SpecialisedCodec {
    private static final int FRAME = 9;

    private final List<CompressionCodec> codecs;

    MultipleCodec(List<CompressionCodec> codecs) {
        if (codecs.size() < 2 || codecs.size() > 255) {
            throw new IllegalArgumentException(
                    "a codec chain has 2..255 codecs, got " + codecs.size());
        }
        this.codecs = List.copyOf(codecs);
    }

    /** The codecs in the order they are applied. */
    List<CompressionCodec> codecs() {
        return codecs;
    }

    @Override
    public byte methodByte() {
        return (byte) 0x91;
    }

    @Override
    public int maxCompressedLength(int srcLen) {
        CompressionCodecs.checkSrcLen(srcLen);
        long size = srcLen;
        for (CompressionCodec c : codecs) {
            size = FRAME + (long) c.maxCompressedLength(toIntBound(size, clickHouseName(), srcLen));
        }
        return toIntBound(1L + codecs.size() + size, clickHouseName(), srcLen);
    }

    @Override
    int encode(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff) {
        dst[dstOff] = (byte) codecs.size();
        for (int i = 0; i < codecs.size(); i++) {
            dst[dstOff + 1 + i] = codecs.get(i).methodByte();
        }
        byte[] in = src;
        int inOff = srcOff;
        int inLen = srcLen;
        for (CompressionCodec c : codecs) {
            byte[] out = new byte[FRAME + c.maxCompressedLength(inLen)];
            int n = c.compress(in, inOff, inLen, out, FRAME);
            out[0] = c.methodByte();
            LittleEndian.putInt(out, 1, FRAME + n);
            LittleEndian.putInt(out, 5, inLen);
            in = out;
            inOff = 0;
            inLen = FRAME + n;
        }
        System.arraycopy(in, 0, dst, dstOff + 1 + codecs.size(), inLen);
        return 1 + codecs.size() + inLen;
    }

    @Override
    void decode(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int uncompressedLen) {
        require(srcLen >= 1 && src[srcOff] != 0, "wrong compression methods list");
        int count = src[srcOff] & 0xff;
        require(count + 1 <= srcLen, "header claims " + count + " codecs in " + srcLen + " bytes");
        byte[] in = src;
        int inOff = srcOff + 1 + count;
        int inLen = srcLen - 1 - count;
        for (int i = count - 1; i >= 0; i--) {
            byte method = src[srcOff + 1 + i];
            require(inLen >= FRAME, "step " + (i + 1) + " is shorter than its 9-byte header");
            require(
                    in[inOff] == method,
                    "step "
                            + (i + 1)
                            + " has method "
                            + CompressionCodecs.methodName(in[inOff])
                            + ", the list says "
                            + CompressionCodecs.methodName(method));
            long size = LittleEndian.getInt(in, inOff + 1) & 0xffffffffL;
            long outLen = LittleEndian.getInt(in, inOff + 5) & 0xffffffffL;
            require(size == inLen, "step " + (i + 1) + " size " + size + ", has " + inLen);
            require(outLen < (1L << 30), "step " + (i + 1) + " decompressed size " + outLen);
            require(
                    i != 0 || outLen == uncompressedLen,
                    "final decompressed size " + outLen + ", expected " + uncompressedLen);
            CompressionCodec codec = CompressionCodecs.forMethodByte(method);
            byte[] out = i == 0 ? dst : new byte[(int) outLen];
            int outOff = i == 0 ? dstOff : 0;
            codec.decompress(in, inOff + FRAME, inLen - FRAME, out, outOff, (int) outLen);
            in = out;
            inOff = outOff;
            inLen = (int) outLen;
        }
    }

    @Override
    public String clickHouseName() {
        List<String> names = new ArrayList<>();
        for (CompressionCodec c : codecs) {
            names.add(c.clickHouseName());
        }
        return String.join(", ", names);
    }

    @Override
    String identity() {
        List<String> ids = new ArrayList<>();
        for (CompressionCodec c : codecs) {
            ids.add(c instanceof SpecialisedCodec s ? s.identity() : c.clickHouseName());
        }
        return String.join(", ", ids);
    }
}
