package io.github.s3mergetree.engine.compress;

import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A column's {@code CODEC(...)} declaration as ClickHouse 26.x treats it: a list of codecs applied
 * in order ({@code Delta, ZSTD(3)}), whose type-dependent parameters are derived per column stream
 * from the stream's type ({@link #forStream}), and which is checked the way {@code CREATE TABLE}
 * checks it ({@link #validate}).
 *
 * <p>Why a class of its own: ClickHouse resolves a declaration once per stream, not once per
 * column. A stream of values gets every codec with parameters from its own type ({@code Delta} on
 * {@code Nullable(Int32)} is {@code Delta(4)} on the values), while null maps, array sizes and
 * LowCardinality indexes get only the generic codecs of the list ({@code LZ4}, {@code LZ4HC},
 * {@code ZSTD}; none left means {@code NONE}). Parts written and merged with the same resolution
 * have the same {@code .bin} bytes as ClickHouse's.
 *
 * <p>Supported codecs: {@code NONE}, {@code LZ4}, {@code LZ4HC[(level)]}, {@code ZSTD[(level)]},
 * {@code Delta[(1|2|4|8)]}, {@code DoubleDelta}, {@code Gorilla[(1|2|4|8)]}, {@code
 * T64[('byte'|'bit')]}, {@code FPC[(level[, 4|8])]} and {@code Default} (the table's default
 * codec). Names are case-sensitive, as in ClickHouse. As a {@link CompressionCodec} (where no
 * stream type is known) an instance compresses with its generic codecs only.
 *
 * <p>Immutable and thread-safe.
 */
public final class ColumnCodec implements CompressionCodec {

    /** The codec names this engine writes, for messages. */
    public static final String SUPPORTED =
            "NONE, LZ4, LZ4HC, ZSTD, Delta, DoubleDelta, Gorilla, T64, FPC, Default";

    /** ClickHouse codecs this engine does not write (reading parts with them fails clearly). */
    private static final Set<String> KNOWN_UNSUPPORTED =
            Set.of(
                    "GCD",
                    "ZSTD_QAT",
                    "DEFLATE_QPL",
                    "AES_128_GCM_SIV",
                    "AES_256_GCM_SIV",
                    "SZ3",
                    "Chimp",
                    "ALP",
                    "Pcodec",
                    "Deflate");

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern UNSIGNED = Pattern.compile("[0-9]+");

    private final String declaration;
    private final List<Element> elements;
    private final CompressionCodec defaultCodec;
    private final CompressionCodec generic;

    /** One codec of the list: its name and its arguments as written. */
    private record Element(String name, List<String> args) {
        String text() {
            return args.isEmpty() ? name : name + "(" + String.join(", ", args) + ")";
        }
    }

    private ColumnCodec(String declaration, List<Element> elements, CompressionCodec defaultCodec) {
        this.declaration = declaration;
        this.elements = elements;
        this.defaultCodec = defaultCodec;
        this.generic = forStream(null);
    }

    /**
     * Parses the text inside {@code CODEC(...)} and checks each codec's parameters as ClickHouse
     * does when it creates the codec; the checks that depend on the column's type are in {@link
     * #validate}.
     *
     * @param declaration e.g. {@code Delta, ZSTD(3)}
     * @param defaultCodec what {@code Default} in the list stands for (the table's default codec)
     * @throws IllegalArgumentException with ClickHouse's message for a malformed list, an unknown
     *     codec ({@code Unknown codec family: zstd}), a codec this engine does not write, or a bad
     *     parameter
     */
    public static ColumnCodec parse(String declaration, CompressionCodec defaultCodec) {
        Objects.requireNonNull(declaration, "declaration");
        Objects.requireNonNull(defaultCodec, "defaultCodec");
        List<Element> elements = new ArrayList<>();
        for (String part : splitTopLevel(declaration.strip(), declaration)) {
            elements.add(element(part, declaration));
        }
        ColumnCodec codec =
                new ColumnCodec(declaration.strip(), List.copyOf(elements), defaultCodec);
        for (Element e : codec.elements) {
            codec.resolve(e, null, false); // parameter checks that need no type
        }
        return codec;
    }

    /**
     * Parses a table's {@code default_compression_codec} setting as ClickHouse does (the codec name
     * upper-cased, so {@code 'zstd(3)'} is {@code ZSTD(3)}); only generic codecs make sense for
     * every stream of every column, so a transform is refused.
     *
     * @throws IllegalArgumentException with the reason
     */
    public static CompressionCodec parseTableDefault(String setting) {
        String s = setting.strip();
        if (s.length() >= 2 && s.startsWith("'") && s.endsWith("'")) {
            s = s.substring(1, s.length() - 1).strip();
        }
        int p = s.indexOf('(');
        String name = (p < 0 ? s : s.substring(0, p)).strip().toUpperCase(Locale.ROOT);
        String text = p < 0 ? name : name + s.substring(p);
        ColumnCodec c = parse(text, CompressionCodecs.lz4());
        for (Element e : c.elements) {
            if (!isGeneric(e.name) && !e.name.equals("NONE")) {
                throw new IllegalArgumentException(
                        "default_compression_codec = '"
                                + setting
                                + "': only NONE, LZ4, LZ4HC or ZSTD are supported as a table's"
                                + " default codec");
            }
        }
        return c.generic;
    }

    /** The declaration as written, e.g. {@code Delta, ZSTD(3)}. */
    public String declaration() {
        return declaration;
    }

    /**
     * Whether every stream gets a single generic codec ({@code NONE}, {@code LZ4}, {@code LZ4HC},
     * {@code ZSTD} or {@code Default}), i.e. blocks with method byte 0x02, 0x82 or 0x90 only: the
     * blocks a ClickHouse without column codecs (18.16) reads.
     */
    public boolean onlyGenericCodecs() {
        for (Element e : elements) {
            if (!isGeneric(e.name) && !e.name.equals("NONE")) {
                return false;
            }
        }
        return true;
    }

    /**
     * The codec of one stream of the column: for a stream of values of {@code streamType}, every
     * codec of the list with its parameters derived from that type; for {@code null} (null maps,
     * array sizes, LowCardinality indexes, where ClickHouse allows only generic codecs), only the
     * generic codecs. One codec is returned as it is, several as a chain (method byte 0x91), none
     * as {@code NONE}.
     *
     * @throws IllegalArgumentException if a codec does not apply to {@code streamType}
     *     (ClickHouse's message, e.g. {@code Codec Delta is not applicable for String because the
     *     data type is not of fixed size})
     */
    @Override
    public CompressionCodec forStream(DataType streamType) {
        List<CompressionCodec> codecs = new ArrayList<>();
        for (Element e : elements) {
            if (streamType == null && !isGeneric(e.name)) {
                continue;
            }
            codecs.add(resolve(e, streamType, true));
        }
        return CompressionCodecs.chain(codecs);
    }

    /**
     * Checks the declaration for a column of {@code columnType} whose value streams have {@code
     * streamTypes} (see {@code SubstreamTypes}), as ClickHouse's {@code
     * validateCodecAndGetPreprocessedAST} does without {@code allow_suspicious_codecs}: every codec
     * applies to every value stream; {@code NONE} stands alone; something compresses; a
     * floating-point codec (Gorilla, FPC) is on a float column and not after Delta/DoubleDelta; a
     * generic codec comes last.
     *
     * @throws IllegalArgumentException with ClickHouse's message
     */
    public void validate(DataType columnType, Collection<DataType> streamTypes) {
        List<String> descriptions = new ArrayList<>();
        boolean compression = false;
        boolean none = false;
        int firstGeneric = -1;
        int firstDelta = -1;
        int lastFloat = -1;
        for (int i = 0; i < elements.size(); i++) {
            Element e = elements.get(i);
            CompressionCodec last = null;
            for (DataType t : streamTypes) {
                last = resolve(e, t, true);
            }
            if (last == null) {
                last = resolve(e, null, true);
            }
            descriptions.add(description(e, last));
            String n = e.name.equals("Default") ? defaultName() : e.name;
            compression |= !n.equals("NONE") && !n.equals("Delta");
            none |= n.equals("NONE");
            if (isGeneric(n) && firstGeneric < 0) {
                firstGeneric = i;
            }
            if ((n.equals("Delta") || n.equals("DoubleDelta")) && firstDelta < 0) {
                firstDelta = i;
            }
            if (n.equals("Gorilla") || n.equals("FPC")) {
                lastFloat = i;
            }
        }
        String list = String.join(", ", descriptions);
        String note =
                " (Note: you can enable setting 'allow_suspicious_codecs' to skip this check"
                        + " in ClickHouse; this engine does not skip it).";
        if (elements.size() > 1 && none) {
            throw new IllegalArgumentException(
                    "It does not make sense to have codec NONE along with other compression codecs: "
                            + list
                            + "."
                            + note);
        }
        if (!compression && !none) {
            throw new IllegalArgumentException(
                    "Compression codec "
                            + list
                            + " does not compress anything. You may want to add generic compression"
                            + " algorithm after other transformations, like: "
                            + list
                            + ", LZ4."
                            + note);
        }
        if (lastFloat >= 0 && columnType != null && !innerTypeIsFloat(columnType)) {
            throw new IllegalArgumentException(
                    "The combination of compression codecs "
                            + list
                            + " is meaningless, because it does not make sense to apply a"
                            + " floating-point time series codec to non-floating-point columns"
                            + note);
        }
        if (firstDelta >= 0 && lastFloat >= 0 && firstDelta < lastFloat) {
            throw new IllegalArgumentException(
                    "The combination of compression codecs "
                            + list
                            + " is meaningless, because floating point time series codecs do delta"
                            + " compression implicitly by themselves."
                            + note);
        }
        if (firstGeneric >= 0 && firstGeneric != elements.size() - 1) {
            throw new IllegalArgumentException(
                    "The combination of compression codecs "
                            + list
                            + " is meaningless, because it does not make sense to apply any"
                            + " transformations after generic compression algorithm."
                            + note);
        }
    }

    private String defaultName() {
        String n = defaultCodec.clickHouseName();
        int p = n.indexOf('(');
        return p < 0 ? n : n.substring(0, p);
    }

    private static boolean isGeneric(String name) {
        return name.equals("LZ4")
                || name.equals("LZ4HC")
                || name.equals("ZSTD")
                || name.equals("Default");
    }

    private static String description(Element e, CompressionCodec resolved) {
        return switch (e.name) {
            case "Default", "NONE", "LZ4", "DoubleDelta" -> e.name;
            case "LZ4HC" -> "LZ4HC(" + (e.args.isEmpty() ? 9 : e.args.get(0)) + ")";
            case "ZSTD" -> "ZSTD(" + (e.args.isEmpty() ? 1 : e.args.get(0)) + ")";
            default -> resolved.clickHouseName();
        };
    }

    /** ClickHouse's {@code innerDataTypeIsFloat}: through Nullable, Array and Tuple. */
    private static boolean innerTypeIsFloat(DataType t) {
        if (t.kind() == TypeKind.FLOAT32 || t.kind() == TypeKind.FLOAT64) {
            return true;
        }
        if (t instanceof NullableType n) {
            return innerTypeIsFloat(n.nested());
        }
        if (t instanceof ArrayType a) {
            return innerTypeIsFloat(a.element());
        }
        if (t instanceof TupleType tuple) {
            for (DataType e : tuple.elements()) {
                if (innerTypeIsFloat(e)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The codec of {@code e} for a stream of {@code type} (null: no type known). With {@code build}
     * false only the parameters are checked and null may be returned.
     */
    private CompressionCodec resolve(Element e, DataType type, boolean build) {
        List<String> args = e.args;
        switch (e.name) {
            case "NONE":
            case "LZ4":
                if (!args.isEmpty()) {
                    throw new IllegalArgumentException(
                            "Compression codec " + e.name + " cannot have arguments.");
                }
                return e.name.equals("NONE") ? CompressionCodecs.none() : CompressionCodecs.lz4();
            case "Default":
                if (!args.isEmpty()) {
                    throw new IllegalArgumentException(
                            "Default codec cannot have any arguments, it's just an alias for codec"
                                    + " specified in config.xml");
                }
                return defaultCodec;
            case "LZ4HC":
                {
                    maxArgs(e, 1, "LZ4HC codec must have 1 parameter, given " + args.size());
                    long level = args.isEmpty() ? 9 : unsigned(e, 0, "LZ4HC codec argument");
                    // LZ4 clamps levels above its maximum; 0 means the default
                    return CompressionCodecs.lz4hc(
                            (int) Math.min(level, CompressionCodecs.LZ4HC_MAX_LEVEL));
                }
            case "ZSTD":
                {
                    if (args.size() > 1) {
                        throw new IllegalArgumentException(
                                "ZSTD with a window log (long-range mode), "
                                        + e.text()
                                        + ", is not supported by this engine; use ZSTD(level)");
                    }
                    long level = args.isEmpty() ? 1 : unsigned(e, 0, "ZSTD codec argument");
                    if (level > CompressionCodecs.ZSTD_MAX_LEVEL) {
                        throw new IllegalArgumentException(
                                "ZSTD codec can't have level more than "
                                        + CompressionCodecs.ZSTD_MAX_LEVEL
                                        + ", given "
                                        + level
                                        + ".");
                    }
                    // level 0 is zstd's default level, 3
                    return CompressionCodecs.zstd(level == 0 ? 3 : (int) level);
                }
            case "Delta":
                {
                    maxArgs(e, 1, "Delta codec must have 1 parameter, given " + args.size());
                    if (!args.isEmpty()) {
                        long size = unsigned(e, 0, "Delta codec argument");
                        if (!isElementSize(size)) {
                            throw new IllegalArgumentException(
                                    "Delta value for delta codec can be 1, 2, 4 or 8, given "
                                            + size);
                        }
                        return CompressionCodecs.delta((int) size);
                    }
                    return CompressionCodecs.delta(type == null ? 1 : elementSize("Delta", type));
                }
            case "DoubleDelta":
                {
                    maxArgs(e, 1, "DoubleDelta codec must have 1 parameter, given " + args.size());
                    int size = 1;
                    if (!args.isEmpty()) {
                        long n = unsigned(e, 0, "DoubleDelta codec argument");
                        if (!isElementSize(n)) {
                            throw new IllegalArgumentException(
                                    "Argument value for DoubleDelta codec can be 1, 2, 4 or 8,"
                                            + " given "
                                            + n
                                            + ".");
                        }
                        size = (int) n;
                    }
                    // the column's type wins over the argument (ClickHouse 26.x)
                    if (type != null) {
                        size = elementSize("DoubleDelta", type);
                    }
                    return CompressionCodecs.doubleDelta(size);
                }
            case "Gorilla":
                {
                    maxArgs(e, 1, "Gorilla codec must have 1 parameter, given " + args.size());
                    if (!args.isEmpty()) {
                        long n = unsigned(e, 0, "Gorilla codec argument");
                        if (!isElementSize(n)) {
                            throw new IllegalArgumentException(
                                    "Argument value for Gorilla codec can be 1, 2, 4 or 8, given "
                                            + n
                                            + ".");
                        }
                        return CompressionCodecs.gorilla((int) n);
                    }
                    return CompressionCodecs.gorilla(
                            type == null ? 1 : elementSize("Gorilla", type));
                }
            case "T64":
                {
                    maxArgs(e, 1, "T64 support zero or one parameter, given " + args.size());
                    boolean bit = false;
                    if (!args.isEmpty()) {
                        String a = args.get(0);
                        if (!(a.length() >= 2 && a.startsWith("'") && a.endsWith("'"))) {
                            throw new IllegalArgumentException(
                                    "Wrong modification for T64. Expected: 'bit', 'byte')");
                        }
                        String v = a.substring(1, a.length() - 1);
                        if (v.equals("bit")) {
                            bit = true;
                        } else if (!v.equals("byte")) {
                            throw new IllegalArgumentException("Wrong modification for T64: " + v);
                        }
                    }
                    if (type == null) {
                        if (build) {
                            throw new IllegalArgumentException(
                                    "T64 codec doesn't support compression without information"
                                            + " about column type");
                        }
                        return null;
                    }
                    return new T64Codec(t64TypeNumber(type), bit);
                }
            case "FPC":
                {
                    if (args.size() > 2) {
                        throw new IllegalArgumentException(
                                "FPC codec must have from 0 to 2 parameters, given " + args.size());
                    }
                    int level = FpcCodec.DEFAULT_LEVEL;
                    int width = 4;
                    if (!args.isEmpty()) {
                        long l = unsigned(e, 0, "FPC codec argument");
                        if (l < 1 || l > FpcCodec.MAX_LEVEL) {
                            throw new IllegalArgumentException(
                                    "Codec 'FPC' level must be between 1 and "
                                            + FpcCodec.MAX_LEVEL
                                            + ".");
                        }
                        level = (int) l;
                        if (args.size() == 2) {
                            long w = unsigned(e, 1, "FPC codec argument");
                            if (w != 4 && w != 8) {
                                throw new IllegalArgumentException(
                                        "Float size for FPC codec can be 4 or 8, given " + w);
                            }
                            width = (int) w;
                        }
                    }
                    if (type != null) {
                        if (type.kind() != TypeKind.FLOAT32 && type.kind() != TypeKind.FLOAT64) {
                            throw new IllegalArgumentException(
                                    "Codec 'FPC' is not applicable for "
                                            + type.name()
                                            + " because the data type is not Float*.");
                        }
                        width = type.fixedWidth();
                    }
                    return CompressionCodecs.fpc(width, level);
                }
            case "Multiple":
                throw new IllegalArgumentException("Codec Multiple cannot be specified directly.");
            default:
                if (KNOWN_UNSUPPORTED.contains(e.name)) {
                    throw new IllegalArgumentException(
                            "codec "
                                    + e.name
                                    + " is not supported by this engine; supported: "
                                    + SUPPORTED);
                }
                throw new IllegalArgumentException("Unknown codec family: " + e.name + ".");
        }
    }

    private static boolean isElementSize(long n) {
        return n == 1 || n == 2 || n == 4 || n == 8;
    }

    private static void maxArgs(Element e, int max, String message) {
        if (e.args.size() > max) {
            throw new IllegalArgumentException(message);
        }
    }

    private static long unsigned(Element e, int i, String what) {
        String a = e.args.get(i);
        if (!UNSIGNED.matcher(a).matches() || a.length() > 19) {
            throw new IllegalArgumentException(
                    what + " must be unsigned integer, given " + a + " in " + e.text());
        }
        return Long.parseLong(a);
    }

    /** ClickHouse's element size of Delta/DoubleDelta/Gorilla for a stream type. */
    private static int elementSize(String codec, DataType type) {
        int width = fixedSizeInMemory(type);
        if (width < 0) {
            throw new IllegalArgumentException(
                    "Codec "
                            + codec
                            + " is not applicable for "
                            + type.name()
                            + " because the data type is not of fixed size.");
        }
        if (!isElementSize(width)) {
            throw new IllegalArgumentException(
                    "Codec "
                            + codec
                            + " is only applicable for data types of size 1, 2, 4, 8 bytes. Given"
                            + " type "
                            + type.name()
                            + ".");
        }
        return width;
    }

    /** The value size of a fixed-size type, -1 for Strings and composite types. */
    private static int fixedSizeInMemory(DataType type) {
        return switch (type.kind()) {
            case STRING, NULLABLE, LOW_CARDINALITY, ARRAY, TUPLE, MAP -> -1;
            default -> type.fixedWidth();
        };
    }

    /** ClickHouse's T64 type number of a stream type. */
    private static int t64TypeNumber(DataType type) {
        int n =
                switch (type.kind()) {
                    case UINT8, BOOL -> T64Codec.UINT8;
                    case UINT16 -> T64Codec.UINT16;
                    case UINT32 -> T64Codec.UINT32;
                    case UINT64 -> T64Codec.UINT64;
                    case INT8 -> T64Codec.INT8;
                    case INT16 -> T64Codec.INT16;
                    case INT32 -> T64Codec.INT32;
                    case INT64 -> T64Codec.INT64;
                    case DATE -> T64Codec.DATE;
                    case DATE32 -> T64Codec.DATE32;
                    case DATETIME -> T64Codec.DATETIME;
                    case DATETIME64 -> T64Codec.DATETIME64;
                    case ENUM8 -> T64Codec.ENUM8;
                    case ENUM16 -> T64Codec.ENUM16;
                    case IPV4 -> T64Codec.IPV4;
                    case DECIMAL ->
                            type.fixedWidth() == 4
                                    ? T64Codec.DECIMAL32
                                    : type.fixedWidth() == 8 ? T64Codec.DECIMAL64 : 0;
                    default -> 0;
                };
        if (n == 0) {
            throw new IllegalArgumentException(
                    "T64 codec is not supported for specified type " + type.name() + ".");
        }
        return n;
    }

    private static Element element(String text, String original) {
        int p = text.indexOf('(');
        String name = (p < 0 ? text : text.substring(0, p)).strip();
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "Syntax error in CODEC(" + original + "): '" + text + "' is not a codec");
        }
        List<String> args = new ArrayList<>();
        if (p >= 0) {
            if (!text.endsWith(")")) {
                throw new IllegalArgumentException(
                        "Syntax error in CODEC(" + original + "): '" + text + "' is not a codec");
            }
            String inner = text.substring(p + 1, text.length() - 1).strip();
            if (!inner.isEmpty()) {
                args.addAll(splitTopLevel(inner, original));
            }
        }
        return new Element(name, List.copyOf(args));
    }

    private static List<String> splitTopLevel(String expr, String original) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        boolean quoted = false;
        for (int i = 0; i < expr.length(); i++) {
            char c = expr.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '\'') {
                    quoted = false;
                }
            } else if (c == '\'') {
                quoted = true;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                if (--depth < 0) {
                    throw new IllegalArgumentException(
                            "Syntax error in CODEC(" + original + "): unbalanced ')'");
                }
            } else if (c == ',' && depth == 0) {
                parts.add(expr.substring(start, i).strip());
                start = i + 1;
            }
        }
        if (depth != 0 || quoted) {
            throw new IllegalArgumentException(
                    "Syntax error in CODEC(" + original + "): unbalanced '(' or quote");
        }
        parts.add(expr.substring(start).strip());
        for (String part : parts) {
            if (part.isEmpty()) {
                throw new IllegalArgumentException(
                        "Syntax error in CODEC(" + original + "): an empty codec or argument");
            }
        }
        return parts;
    }

    @Override
    public byte methodByte() {
        return generic.methodByte();
    }

    @Override
    public int maxCompressedLength(int srcLen) {
        return generic.maxCompressedLength(srcLen);
    }

    @Override
    public int compress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff) {
        return generic.compress(src, srcOff, srcLen, dst, dstOff);
    }

    @Override
    public void decompress(
            byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int uncompressedLen) {
        generic.decompress(src, srcOff, srcLen, dst, dstOff, uncompressedLen);
    }

    /** The declaration as written inside {@code CODEC(...)}. */
    @Override
    public String clickHouseName() {
        return declaration;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnCodec c
                && c.declaration.equals(declaration)
                && c.defaultCodec.equals(defaultCodec);
    }

    @Override
    public int hashCode() {
        return declaration.hashCode();
    }

    @Override
    public String toString() {
        return "CODEC(" + declaration + ")";
    }
}
