package io.github.s3mergetree.engine.compress;

import com.github.luben.zstd.Zstd;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * Factory of the ClickHouse block codecs this engine supports: {@code NONE} (0x02), {@code LZ4} and
 * {@code LZ4HC} (0x82, same payload format), {@code ZSTD} (0x90).
 *
 * <p>Why a factory: writers choose a codec from a table's {@code CODEC(...)} text ({@link #parse}),
 * readers from each block's method byte ({@link #forMethodByte}); both must agree on defaults
 * (LZ4HC level 9, ZSTD level 1, as in ClickHouse).
 *
 * <p>Thread safety: all returned codecs are immutable and may be shared freely between threads. LZ4
 * uses lz4-java's thread-safe compressor/decompressor of {@link LZ4Factory#fastestInstance()} (JNI
 * when available, pure Java otherwise); ZSTD uses zstd-jni's static byte-array methods, which
 * create a short-lived native context per call — negligible next to compressing a block of up to 1
 * MiB.
 */
public final class CompressionCodecs {

    /** ClickHouse's default LZ4HC level ({@code LZ4HC_CLEVEL_DEFAULT}). */
    public static final int LZ4HC_DEFAULT_LEVEL = 9;

    /** The highest LZ4HC level ({@code LZ4HC_CLEVEL_MAX}). */
    public static final int LZ4HC_MAX_LEVEL = 12;

    /** ClickHouse's default ZSTD level ({@code ZSTD} without a level means {@code ZSTD(1)}). */
    public static final int ZSTD_DEFAULT_LEVEL = 1;

    /** The highest ZSTD level ClickHouse accepts. */
    public static final int ZSTD_MAX_LEVEL = 22;

    /** Method byte of uncompressed blocks. */
    public static final byte METHOD_NONE = 0x02;

    /** Method byte of LZ4 and LZ4HC blocks (one raw LZ4 block, no frame header). */
    public static final byte METHOD_LZ4 = (byte) 0x82;

    /** Method byte of ZSTD blocks (one standard zstd frame). */
    public static final byte METHOD_ZSTD = (byte) 0x90;

    /** Method byte of a codec chain ({@code CODEC(a, b, ...)}). */
    public static final byte METHOD_MULTIPLE = (byte) 0x91;

    /** Method byte of {@code Delta}. */
    public static final byte METHOD_DELTA = (byte) 0x92;

    /** Method byte of {@code T64}. */
    public static final byte METHOD_T64 = (byte) 0x93;

    /** Method byte of {@code DoubleDelta}. */
    public static final byte METHOD_DOUBLE_DELTA = (byte) 0x94;

    /** Method byte of {@code Gorilla}. */
    public static final byte METHOD_GORILLA = (byte) 0x95;

    /** Method byte of {@code FPC}. */
    public static final byte METHOD_FPC = (byte) 0x98;

    /** The method bytes a reader decodes, for messages. */
    public static final String SUPPORTED_METHODS =
            "0x02 (NONE), 0x82 (LZ4/LZ4HC), 0x90 (ZSTD), 0x91 (Multiple), 0x92 (Delta), 0x93 (T64),"
                    + " 0x94 (DoubleDelta), 0x95 (Gorilla), 0x98 (FPC)";

    private static final CompressionCodec NONE = new NoneCodec();

    private CompressionCodecs() {}

    /** Returns the {@code NONE} codec: the payload is the raw bytes. */
    public static CompressionCodec none() {
        return NONE;
    }

    /** Returns the {@code LZ4} codec (ClickHouse's default codec). */
    public static CompressionCodec lz4() {
        return Lz4Holder.LZ4;
    }

    /**
     * Returns {@code LZ4HC(level)}; writes the same payload format and method byte (0x82) as LZ4.
     *
     * @param level 1..12, or 0 for the default level 9 (ClickHouse treats a level &lt;= 0 as the
     *     default; negative levels are refused here)
     * @throws IllegalArgumentException if {@code level} is outside 0..12
     */
    public static CompressionCodec lz4hc(int level) {
        if (level < 0 || level > LZ4HC_MAX_LEVEL) {
            throw new IllegalArgumentException(
                    "LZ4HC level must be in 0.."
                            + LZ4HC_MAX_LEVEL
                            + " (0 = default 9), got "
                            + level);
        }
        return new Lz4Codec(level == 0 ? LZ4HC_DEFAULT_LEVEL : level);
    }

    /**
     * Returns {@code ZSTD(level)}.
     *
     * @param level 1..22 (ClickHouse's default, used by {@code ZSTD} without a level, is 1)
     * @throws IllegalArgumentException if {@code level} is outside 1..22
     */
    public static CompressionCodec zstd(int level) {
        if (level < 1 || level > ZSTD_MAX_LEVEL) {
            throw new IllegalArgumentException(
                    "ZSTD level must be in 1.." + ZSTD_MAX_LEVEL + ", got " + level);
        }
        return new ZstdCodec(level);
    }

    /**
     * Returns {@code Delta(bytesSize)}: each element replaced by its difference to the previous.
     *
     * @throws IllegalArgumentException if {@code bytesSize} is not 1, 2, 4 or 8
     */
    public static CompressionCodec delta(int bytesSize) {
        return new DeltaCodec(elementSize("Delta", bytesSize));
    }

    /**
     * Returns {@code DoubleDelta} over {@code bytesSize}-byte elements.
     *
     * @throws IllegalArgumentException if {@code bytesSize} is not 1, 2, 4 or 8
     */
    public static CompressionCodec doubleDelta(int bytesSize) {
        return new DoubleDeltaCodec(elementSize("DoubleDelta", bytesSize));
    }

    /**
     * Returns {@code Gorilla(bytesSize)}.
     *
     * @throws IllegalArgumentException if {@code bytesSize} is not 1, 2, 4 or 8
     */
    public static CompressionCodec gorilla(int bytesSize) {
        return new GorillaCodec(elementSize("Gorilla", bytesSize));
    }

    /**
     * Returns {@code FPC(level)} for floats of {@code floatWidth} bytes.
     *
     * @throws IllegalArgumentException if {@code floatWidth} is not 4 or 8 or {@code level} is
     *     outside 1..28
     */
    public static CompressionCodec fpc(int floatWidth, int level) {
        if (floatWidth != 4 && floatWidth != 8) {
            throw new IllegalArgumentException(
                    "Float size for FPC codec can be 4 or 8, given " + floatWidth);
        }
        if (level < 1 || level > FpcCodec.MAX_LEVEL) {
            throw new IllegalArgumentException(
                    "Codec 'FPC' level must be between 1 and " + FpcCodec.MAX_LEVEL);
        }
        return new FpcCodec(floatWidth, level);
    }

    /**
     * Returns the chain applying {@code codecs} in order (ClickHouse's {@code Multiple}); a single
     * codec is returned as it is and an empty list gives {@code NONE}, as ClickHouse does.
     *
     * @throws IllegalArgumentException if there are more than 255 codecs
     */
    public static CompressionCodec chain(List<CompressionCodec> codecs) {
        if (codecs.isEmpty()) {
            return NONE;
        }
        if (codecs.size() == 1) {
            return codecs.get(0);
        }
        return new MultipleCodec(codecs);
    }

    private static int elementSize(String codec, int bytesSize) {
        if (bytesSize != 1 && bytesSize != 2 && bytesSize != 4 && bytesSize != 8) {
            throw new IllegalArgumentException(
                    codec + " element size can be 1, 2, 4 or 8, given " + bytesSize);
        }
        return bytesSize;
    }

    /** Decoders of the specialised codecs: their payload carries their parameters. */
    private static final class Decoders {
        static final CompressionCodec MULTIPLE = new MultipleCodec(List.of(NONE, NONE));
        static final CompressionCodec DELTA = new DeltaCodec(1);
        static final CompressionCodec T64 = new T64Codec(T64Codec.UINT8, false);
        static final CompressionCodec DOUBLE_DELTA = new DoubleDeltaCodec(1);
        static final CompressionCodec GORILLA = new GorillaCodec(1);
        static final CompressionCodec FPC = new FpcCodec(8, FpcCodec.DEFAULT_LEVEL);
    }

    /**
     * Returns a codec able to decompress blocks with the given method byte. The level of LZ4HC and
     * ZSTD does not matter for decompression, so 0x82 gives {@link #lz4()} and 0x90 gives {@code
     * zstd(1)}.
     *
     * <p>The specialised codecs (0x91 Multiple, 0x92 Delta, 0x93 T64, 0x94 DoubleDelta, 0x95
     * Gorilla, 0x98 FPC) read their parameters from each payload.
     *
     * @throws IllegalArgumentException if the method byte is none of {@link #SUPPORTED_METHODS}
     *     (the message names the byte and, if known, the ClickHouse codec it belongs to)
     */
    public static CompressionCodec forMethodByte(byte method) {
        switch (method) {
            case METHOD_NONE:
                return NONE;
            case METHOD_LZ4:
                return Lz4Holder.LZ4;
            case METHOD_ZSTD:
                return ZstdHolder.DEFAULT;
            case METHOD_MULTIPLE:
                return Decoders.MULTIPLE;
            case METHOD_DELTA:
                return Decoders.DELTA;
            case METHOD_T64:
                return Decoders.T64;
            case METHOD_DOUBLE_DELTA:
                return Decoders.DOUBLE_DELTA;
            case METHOD_GORILLA:
                return Decoders.GORILLA;
            case METHOD_FPC:
                return Decoders.FPC;
            default:
                throw new IllegalArgumentException(
                        "unsupported compression method byte "
                                + methodName(method)
                                + "; supported: "
                                + SUPPORTED_METHODS);
        }
    }

    /**
     * Returns {@code 0xNN} followed by the ClickHouse codec name of that method byte when known,
     * e.g. {@code "0x92 (Delta)"}; for messages.
     */
    public static String methodName(byte method) {
        String hex = String.format("0x%02x", method & 0xff);
        String name;
        switch (method & 0xff) {
            case 0x02:
                name = "NONE";
                break;
            case 0x82:
                name = "LZ4";
                break;
            case 0x90:
                name = "ZSTD";
                break;
            case 0x91:
                name = "Multiple";
                break;
            case 0x92:
                name = "Delta";
                break;
            case 0x93:
                name = "T64";
                break;
            case 0x94:
                name = "DoubleDelta";
                break;
            case 0x95:
                name = "Gorilla";
                break;
            case 0x96:
            case 0x97:
                name = "AES-GCM-SIV";
                break;
            case 0x98:
                name = "FPC";
                break;
            case 0x9a:
                name = "GCD";
                break;
            case 0x9b:
                name = "ZSTD_QPL";
                break;
            case 0x9c:
                name = "SZ3";
                break;
            default:
                return hex;
        }
        return hex + " (" + name + ")";
    }

    /**
     * Parses the text inside ClickHouse's {@code CODEC(...)}: {@code NONE}, {@code LZ4}, {@code
     * LZ4HC}, {@code LZ4HC(level)}, {@code ZSTD}, {@code ZSTD(level)}, case-insensitively and
     * ignoring whitespace. A surrounding {@code CODEC(...)} (as in {@code
     * default_compression_codec.txt}) is accepted too.
     *
     * <p>Only single codecs are supported: a chain such as {@code Delta, ZSTD} is rejected with a
     * message naming the first unsupported codec (or, for a chain of supported codecs, the chain).
     *
     * @throws IllegalArgumentException if the expression is empty, malformed, names an unsupported
     *     codec, is a chain, or has an out-of-range level
     * @throws NullPointerException if {@code codecExpression} is null
     */
    public static CompressionCodec parse(String codecExpression) {
        Objects.requireNonNull(codecExpression, "codecExpression");
        String expr = codecExpression.strip();
        if (expr.regionMatches(true, 0, "CODEC", 0, 5)) {
            String rest = expr.substring(5).strip();
            if (rest.startsWith("(") && rest.endsWith(")")) {
                expr = rest.substring(1, rest.length() - 1).strip();
            }
        }
        List<String> parts = splitTopLevel(expr, codecExpression);
        if (parts.size() != 1) {
            for (String part : parts) {
                if (!isSupportedName(part)) {
                    throw new IllegalArgumentException(
                            "unsupported codec '"
                                    + part
                                    + "' in codec expression '"
                                    + codecExpression
                                    + "': only a single NONE, LZ4, LZ4HC[(level)] or"
                                    + " ZSTD[(level)] is supported");
                }
            }
            throw new IllegalArgumentException(
                    "codec chains are not supported: '"
                            + codecExpression
                            + "'; use a single NONE, LZ4, LZ4HC[(level)] or ZSTD[(level)]");
        }
        return parseSingle(parts.get(0), codecExpression);
    }

    private static List<String> splitTopLevel(String expr, String original) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < expr.length(); i++) {
            char c = expr.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
                if (depth < 0) {
                    throw new IllegalArgumentException(
                            "unbalanced parentheses in codec expression '" + original + "'");
                }
            } else if (c == ',' && depth == 0) {
                parts.add(expr.substring(start, i).strip());
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw new IllegalArgumentException(
                    "unbalanced parentheses in codec expression '" + original + "'");
        }
        parts.add(expr.substring(start).strip());
        for (String p : parts) {
            if (p.isEmpty()) {
                throw new IllegalArgumentException(
                        "empty codec in codec expression '" + original + "'");
            }
        }
        return parts;
    }

    private static boolean isSupportedName(String codec) {
        String name = nameOf(codec).toUpperCase(Locale.ROOT);
        return name.equals("NONE")
                || name.equals("LZ4")
                || name.equals("LZ4HC")
                || name.equals("ZSTD");
    }

    private static String nameOf(String codec) {
        int p = codec.indexOf('(');
        return (p < 0 ? codec : codec.substring(0, p)).strip();
    }

    private static CompressionCodec parseSingle(String codec, String original) {
        String name = nameOf(codec).toUpperCase(Locale.ROOT);
        String args = null;
        int p = codec.indexOf('(');
        if (p >= 0) {
            if (!codec.endsWith(")")) {
                throw new IllegalArgumentException(
                        "malformed codec '" + codec + "' in codec expression '" + original + "'");
            }
            args = codec.substring(p + 1, codec.length() - 1).strip();
        }
        switch (name) {
            case "NONE":
                noArgs(codec, args, original);
                return none();
            case "LZ4":
                noArgs(codec, args, original);
                return lz4();
            case "LZ4HC":
                return lz4hc(args == null ? LZ4HC_DEFAULT_LEVEL : level(codec, args, original));
            case "ZSTD":
                return zstd(args == null ? ZSTD_DEFAULT_LEVEL : level(codec, args, original));
            default:
                throw new IllegalArgumentException(
                        "unsupported codec '"
                                + codec
                                + "' in codec expression '"
                                + original
                                + "': only NONE, LZ4, LZ4HC[(level)] or ZSTD[(level)] is"
                                + " supported");
        }
    }

    private static void noArgs(String codec, String args, String original) {
        if (args != null && !args.isEmpty()) {
            throw new IllegalArgumentException(
                    "codec '" + codec + "' takes no parameters (in '" + original + "')");
        }
    }

    private static int level(String codec, String args, String original) {
        try {
            return Integer.parseInt(args);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "codec '"
                            + codec
                            + "' needs one integer level, got '"
                            + args
                            + "' (in '"
                            + original
                            + "')",
                    e);
        }
    }

    static void checkDst(int needed, byte[] dst, int dstOff, String codec) {
        Objects.checkFromIndexSize(dstOff, 0, dst.length);
        if (dst.length - dstOff < needed) {
            throw new IllegalArgumentException(
                    codec
                            + ": destination has "
                            + (dst.length - dstOff)
                            + " bytes after offset "
                            + dstOff
                            + ", needs maxCompressedLength = "
                            + needed);
        }
    }

    static void checkSrcLen(int srcLen) {
        if (srcLen < 0) {
            throw new IllegalArgumentException("srcLen must be >= 0, got " + srcLen);
        }
    }

    /** Lazily initialised: loading lz4-java's JNI library only when LZ4 is actually used. */
    private static final class Lz4Holder {
        static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();
        static final LZ4SafeDecompressor DECOMPRESSOR = FACTORY.safeDecompressor();
        static final Lz4Codec LZ4 = new Lz4Codec(-1);
    }

    /** Lazily initialised: loading zstd-jni's native library only when ZSTD is actually used. */
    private static final class ZstdHolder {
        static final ZstdCodec DEFAULT = new ZstdCodec(ZSTD_DEFAULT_LEVEL);
    }

    /** {@code NONE}: payload = raw bytes. */
    private static final class NoneCodec implements CompressionCodec {
        @Override
        public byte methodByte() {
            return METHOD_NONE;
        }

        @Override
        public int maxCompressedLength(int srcLen) {
            checkSrcLen(srcLen);
            return srcLen;
        }

        @Override
        public int compress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff) {
            Objects.checkFromIndexSize(srcOff, srcLen, src.length);
            checkDst(srcLen, dst, dstOff, "NONE");
            System.arraycopy(src, srcOff, dst, dstOff, srcLen);
            return srcLen;
        }

        @Override
        public void decompress(
                byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int uncompressedLen) {
            Objects.checkFromIndexSize(srcOff, srcLen, src.length);
            Objects.checkFromIndexSize(dstOff, uncompressedLen, dst.length);
            if (srcLen != uncompressedLen) {
                throw new IllegalArgumentException(
                        "NONE payload of "
                                + srcLen
                                + " bytes cannot hold uncompressed size "
                                + uncompressedLen);
            }
            System.arraycopy(src, srcOff, dst, dstOff, srcLen);
        }

        @Override
        public String clickHouseName() {
            return "NONE";
        }

        @Override
        public String toString() {
            return clickHouseName();
        }
    }

    /** {@code LZ4} (level -1) or {@code LZ4HC(level)}: one raw LZ4 block. */
    private static final class Lz4Codec implements CompressionCodec {
        private final int hcLevel;
        private final LZ4Compressor compressor;

        Lz4Codec(int hcLevel) {
            this.hcLevel = hcLevel;
            this.compressor =
                    hcLevel < 0
                            ? Lz4Holder.FACTORY.fastCompressor()
                            : Lz4Holder.FACTORY.highCompressor(hcLevel);
        }

        @Override
        public byte methodByte() {
            return METHOD_LZ4;
        }

        @Override
        public int maxCompressedLength(int srcLen) {
            checkSrcLen(srcLen);
            return compressor.maxCompressedLength(srcLen);
        }

        @Override
        public int compress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff) {
            Objects.checkFromIndexSize(srcOff, srcLen, src.length);
            int max = maxCompressedLength(srcLen);
            checkDst(max, dst, dstOff, clickHouseName());
            return compressor.compress(src, srcOff, srcLen, dst, dstOff, max);
        }

        @Override
        public void decompress(
                byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int uncompressedLen) {
            Objects.checkFromIndexSize(srcOff, srcLen, src.length);
            Objects.checkFromIndexSize(dstOff, uncompressedLen, dst.length);
            int n;
            try {
                n =
                        Lz4Holder.DECOMPRESSOR.decompress(
                                src, srcOff, srcLen, dst, dstOff, uncompressedLen);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(
                        "malformed LZ4 payload of "
                                + srcLen
                                + " bytes (uncompressed size "
                                + uncompressedLen
                                + "): "
                                + e.getMessage(),
                        e);
            }
            if (n != uncompressedLen) {
                throw new IllegalArgumentException(
                        "LZ4 payload of "
                                + srcLen
                                + " bytes decoded to "
                                + n
                                + " bytes, header says "
                                + uncompressedLen);
            }
        }

        @Override
        public String clickHouseName() {
            return hcLevel < 0 ? "LZ4" : "LZ4HC(" + hcLevel + ")";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Lz4Codec && ((Lz4Codec) o).hcLevel == hcLevel;
        }

        @Override
        public int hashCode() {
            return 31 * METHOD_LZ4 + hcLevel;
        }

        @Override
        public String toString() {
            return clickHouseName();
        }
    }

    /** {@code ZSTD(level)}: one zstd frame with content size, without checksum. */
    private static final class ZstdCodec implements CompressionCodec {
        private final int level;

        ZstdCodec(int level) {
            this.level = level;
        }

        @Override
        public byte methodByte() {
            return METHOD_ZSTD;
        }

        @Override
        public int maxCompressedLength(int srcLen) {
            checkSrcLen(srcLen);
            long bound = Zstd.compressBound(srcLen);
            if (bound > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(
                        "ZSTD bound " + bound + " for " + srcLen + " bytes does not fit an int");
            }
            return (int) bound;
        }

        @Override
        public int compress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff) {
            Objects.checkFromIndexSize(srcOff, srcLen, src.length);
            int max = maxCompressedLength(srcLen);
            checkDst(max, dst, dstOff, clickHouseName());
            long n = Zstd.compressByteArray(dst, dstOff, max, src, srcOff, srcLen, level, false);
            if (Zstd.isError(n)) {
                throw new IllegalStateException(
                        clickHouseName()
                                + " failed to compress "
                                + srcLen
                                + " bytes: "
                                + Zstd.getErrorName(n));
            }
            return (int) n;
        }

        @Override
        public void decompress(
                byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int uncompressedLen) {
            Objects.checkFromIndexSize(srcOff, srcLen, src.length);
            Objects.checkFromIndexSize(dstOff, uncompressedLen, dst.length);
            long n;
            try {
                n = Zstd.decompressByteArray(dst, dstOff, uncompressedLen, src, srcOff, srcLen);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(
                        "malformed ZSTD payload of "
                                + srcLen
                                + " bytes (uncompressed size "
                                + uncompressedLen
                                + "): "
                                + e.getMessage(),
                        e);
            }
            if (Zstd.isError(n)) {
                throw new IllegalArgumentException(
                        "malformed ZSTD payload of "
                                + srcLen
                                + " bytes (uncompressed size "
                                + uncompressedLen
                                + "): "
                                + Zstd.getErrorName(n));
            }
            if (n != uncompressedLen) {
                throw new IllegalArgumentException(
                        "ZSTD payload of "
                                + srcLen
                                + " bytes decoded to "
                                + n
                                + " bytes, header says "
                                + uncompressedLen);
            }
        }

        @Override
        public String clickHouseName() {
            return "ZSTD(" + level + ")";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ZstdCodec && ((ZstdCodec) o).level == level;
        }

        @Override
        public int hashCode() {
            return 31 * METHOD_ZSTD + level;
        }

        @Override
        public String toString() {
            return clickHouseName();
        }
    }
}
