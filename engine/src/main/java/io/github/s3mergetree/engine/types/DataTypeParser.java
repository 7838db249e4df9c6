package io.github.s3mergetree.engine.types;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Parses ClickHouse data type declarations ({@code Nullable(Decimal(9, 2))}, {@code
 * LowCardinality(String)}, {@code Enum8('a' = 1)}, SQL aliases such as {@code BIGINT UNSIGNED} or
 * {@code VARCHAR(255)}) into {@link DataType}s.
 *
 * <p>Why: table definitions ({@code CREATE TABLE}, {@code columns.txt}) name their column types in
 * ClickHouse's type syntax, and the engine must agree with ClickHouse on every type it writes. The
 * rules follow ClickHouse 26.x ({@code ParserDataType}, {@code DataTypeFactory}): type family names
 * are case-sensitive except the families and aliases ClickHouse registers case-insensitively
 * ({@code Date}, {@code DateTime}, {@code Decimal*}, {@code Bool}, {@code Enum}, {@code INT},
 * {@code VARCHAR}, ...); integer display widths ({@code INT(11)}) and float precisions ({@code
 * FLOAT(12)}) are accepted and ignored; {@code Enum('a', 'b')} numbers its elements from 1 and
 * picks Enum8 or Enum16 by range. {@code parse(t.name())} returns a type with the same name for
 * every type this parser produces.
 *
 * <p>Families the engine does not implement ({@code JSON}, {@code Variant}, {@code Nested}, {@code
 * Time}, {@code BFloat16}, ...) are rejected with a {@link TypeParseException} naming the family.
 * Errors carry the 0-based character offset of the offending construct in the input.
 */
public final class DataTypeParser {

    /**
     * A type declaration that cannot be parsed or is not valid. {@link #position()} is the 0-based
     * offset in the parsed text at which the offending construct starts.
     */
    public static final class TypeParseException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final int position;
        private final String detail;
        private final boolean limitExceeded;

        TypeParseException(String detail, int position) {
            this(detail, position, false);
        }

        private TypeParseException(String detail, int position, boolean limitExceeded) {
            super(detail + " (at offset " + position + ")");
            this.detail = detail;
            this.position = position;
            this.limitExceeded = limitExceeded;
        }

        /**
         * Whether the declaration exceeds a parser limit ({@code max_ast_depth}) rather than being
         * malformed: no other reading of the text can succeed.
         */
        public boolean limitExceeded() {
            return limitExceeded;
        }

        /** The 0-based character offset of the offending construct. */
        public int position() {
            return position;
        }

        /** The message without the position suffix. */
        public String detail() {
            return detail;
        }
    }

    /**
     * A type parsed from a prefix of a longer text.
     *
     * @param type the parsed type
     * @param end the offset just after the last character of the declaration
     */
    public record Result(DataType type, int end) {}

    /**
     * ClickHouse's default {@code max_ast_depth}: the deepest syntax tree a type declaration may
     * have. Each nested type with arguments ({@code Array(...)}, {@code Nullable(...)}, ...) is 2
     * levels of ClickHouse's tree (the type and its argument list), so a declaration parsed alone
     * nests at most 499 levels deep.
     */
    public static final int DEFAULT_MAX_AST_DEPTH = 1000;

    private DataTypeParser() {}

    /**
     * Parses {@code text}, which must contain exactly one type declaration (surrounding whitespace
     * and SQL comments are allowed).
     *
     * @throws TypeParseException if the text is not a valid, supported type declaration
     */
    public static DataType parse(String text) {
        Parser p = new Parser(text, 0);
        DataType t = p.type();
        p.skipSpace();
        if (p.pos < text.length()) {
            throw new TypeParseException(
                    "Unexpected '" + snippet(text, p.pos) + "' after data type " + t.name(), p.pos);
        }
        return t;
    }

    /**
     * Parses one type declaration starting at {@code offset} of {@code text} (leading whitespace is
     * skipped) and reports where it ends, for parsers that embed type declarations (e.g. column
     * definitions in {@code CREATE TABLE}).
     *
     * @throws TypeParseException if no valid, supported type declaration starts there
     */
    public static Result parsePrefix(String text, int offset) {
        return parsePrefix(text, offset, DEFAULT_MAX_AST_DEPTH, 0);
    }

    /**
     * As {@link #parsePrefix(String, int)}, refusing a declaration whose syntax tree, placed at
     * depth {@code astDepthBase} of an enclosing statement's tree (4 for a column type in {@code
     * CREATE TABLE}, as in ClickHouse), would be deeper than {@code maxAstDepth} (ClickHouse's
     * {@code max_ast_depth}). The refusal is a {@link TypeParseException} with {@link
     * TypeParseException#limitExceeded()} set, raised before the parser recurses any deeper, so a
     * hostile declaration cannot overflow the stack.
     */
    public static Result parsePrefix(String text, int offset, int maxAstDepth, int astDepthBase) {
        Parser p = new Parser(text, offset, maxAstDepth, astDepthBase);
        DataType t = p.type();
        return new Result(t, p.lastEnd);
    }

    private static String snippet(String text, int pos) {
        int end = Math.min(text.length(), pos + 20);
        return text.substring(pos, end);
    }

    // ---------------------------------------------------------------------------------------
    // Family names

    private enum Family {
        UINT8,
        UINT16,
        UINT32,
        UINT64,
        UINT128,
        UINT256,
        INT8,
        INT16,
        INT32,
        INT64,
        INT128,
        INT256,
        FLOAT32,
        FLOAT64,
        BOOL,
        STRING,
        FIXED_STRING,
        DATE,
        DATE32,
        DATETIME,
        DATETIME64,
        DECIMAL,
        DECIMAL32,
        DECIMAL64,
        DECIMAL128,
        DECIMAL256,
        UUID,
        IPV4,
        IPV6,
        ENUM,
        ENUM8,
        ENUM16,
        NULLABLE,
        LOW_CARDINALITY,
        ARRAY,
        TUPLE,
        MAP,
        SIMPLE_AGGREGATE_FUNCTION,
        AGGREGATE_FUNCTION
    }

    /** Case-sensitive family names. */
    private static final Map<String, Family> SENSITIVE = new LinkedHashMap<>();

    /** Case-insensitive family names and aliases, upper-cased. */
    private static final Map<String, Family> INSENSITIVE = new LinkedHashMap<>();

    /** Families ClickHouse knows but this engine does not implement. */
    private static final Set<String> UNSUPPORTED = new HashSet<>();

    static {
        SENSITIVE.put("UInt8", Family.UINT8);
        SENSITIVE.put("UInt16", Family.UINT16);
        SENSITIVE.put("UInt32", Family.UINT32);
        SENSITIVE.put("UInt64", Family.UINT64);
        SENSITIVE.put("UInt128", Family.UINT128);
        SENSITIVE.put("UInt256", Family.UINT256);
        SENSITIVE.put("Int8", Family.INT8);
        SENSITIVE.put("Int16", Family.INT16);
        SENSITIVE.put("Int32", Family.INT32);
        SENSITIVE.put("Int64", Family.INT64);
        SENSITIVE.put("Int128", Family.INT128);
        SENSITIVE.put("Int256", Family.INT256);
        SENSITIVE.put("Float32", Family.FLOAT32);
        SENSITIVE.put("Float64", Family.FLOAT64);
        SENSITIVE.put("String", Family.STRING);
        SENSITIVE.put("FixedString", Family.FIXED_STRING);
        SENSITIVE.put("UUID", Family.UUID);
        SENSITIVE.put("IPv4", Family.IPV4);
        SENSITIVE.put("IPv6", Family.IPV6);
        SENSITIVE.put("Enum8", Family.ENUM8);
        SENSITIVE.put("Enum16", Family.ENUM16);
        SENSITIVE.put("Nullable", Family.NULLABLE);
        SENSITIVE.put("LowCardinality", Family.LOW_CARDINALITY);
        SENSITIVE.put("Array", Family.ARRAY);
        SENSITIVE.put("Tuple", Family.TUPLE);
        SENSITIVE.put("Map", Family.MAP);
        SENSITIVE.put("SimpleAggregateFunction", Family.SIMPLE_AGGREGATE_FUNCTION);
        SENSITIVE.put("AggregateFunction", Family.AGGREGATE_FUNCTION);

        insensitive(Family.BOOL, "Bool", "bool", "boolean");
        insensitive(Family.DATE, "Date");
        insensitive(Family.DATE32, "Date32");
        insensitive(Family.DATETIME, "DateTime", "DateTime32", "TIMESTAMP");
        insensitive(Family.DATETIME64, "DateTime64");
        insensitive(Family.DECIMAL, "Decimal", "DEC", "FIXED", "NUMERIC");
        insensitive(Family.DECIMAL32, "Decimal32");
        insensitive(Family.DECIMAL64, "Decimal64");
        insensitive(Family.DECIMAL128, "Decimal128");
        insensitive(Family.DECIMAL256, "Decimal256");
        insensitive(Family.ENUM, "Enum");
        insensitive(Family.FIXED_STRING, "BINARY");
        insensitive(Family.FLOAT32, "FLOAT", "REAL", "SINGLE");
        insensitive(Family.FLOAT64, "DOUBLE", "DOUBLE PRECISION");
        insensitive(Family.IPV4, "INET4");
        insensitive(Family.IPV6, "INET6");
        insensitive(Family.INT8, "TINYINT", "INT1", "BYTE", "TINYINT SIGNED", "INT1 SIGNED");
        insensitive(Family.INT16, "SMALLINT", "SMALLINT SIGNED");
        insensitive(
                Family.INT32,
                "INT",
                "INTEGER",
                "MEDIUMINT",
                "MEDIUMINT SIGNED",
                "INT SIGNED",
                "INTEGER SIGNED");
        insensitive(Family.INT64, "BIGINT", "SIGNED", "BIGINT SIGNED");
        insensitive(Family.UINT8, "TINYINT UNSIGNED", "INT1 UNSIGNED");
        insensitive(Family.UINT16, "SMALLINT UNSIGNED", "YEAR");
        insensitive(Family.UINT32, "MEDIUMINT UNSIGNED", "INT UNSIGNED", "INTEGER UNSIGNED");
        insensitive(Family.UINT64, "UNSIGNED", "BIGINT UNSIGNED", "BIT", "SET");
        insensitive(
                Family.STRING,
                "BINARY LARGE OBJECT",
                "BINARY VARYING",
                "BLOB",
                "BYTEA",
                "CHAR",
                "CHAR LARGE OBJECT",
                "CHAR VARYING",
                "CHARACTER",
                "CHARACTER LARGE OBJECT",
                "CHARACTER VARYING",
                "CLOB",
                "LONGBLOB",
                "LONGTEXT",
                "MEDIUMBLOB",
                "MEDIUMTEXT",
                "NATIONAL CHAR",
                "NATIONAL CHAR VARYING",
                "NATIONAL CHARACTER",
                "NATIONAL CHARACTER LARGE OBJECT",
                "NATIONAL CHARACTER VARYING",
                "NCHAR",
                "NCHAR LARGE OBJECT",
                "NCHAR VARYING",
                "NVARCHAR",
                "TEXT",
                "TINYBLOB",
                "TINYTEXT",
                "VARBINARY",
                "VARCHAR",
                "VARCHAR2");

        for (String u :
                List.of(
                        "BFloat16",
                        "Dynamic",
                        "Geometry",
                        "LineString",
                        "MultiLineString",
                        "MultiPolygon",
                        "Point",
                        "Polygon",
                        "Ring",
                        "Nested",
                        "Nothing",
                        "QBit",
                        "Variant",
                        "Object",
                        "Int512",
                        "UInt512",
                        "IntervalDay",
                        "IntervalHour",
                        "IntervalMicrosecond",
                        "IntervalMillisecond",
                        "IntervalMinute",
                        "IntervalMonth",
                        "IntervalNanosecond",
                        "IntervalQuarter",
                        "IntervalSecond",
                        "IntervalWeek",
                        "IntervalYear")) {
            UNSUPPORTED.add(u);
        }
        for (String u : List.of("JSON", "TIME", "TIME64", "GEOMETRY")) {
            UNSUPPORTED.add(u);
        }
    }

    private static void insensitive(Family f, String... names) {
        for (String n : names) {
            INSENSITIVE.put(n.toUpperCase(Locale.ROOT), f);
        }
    }

    /** Integer type names that accept a display width and a SIGNED/UNSIGNED suffix. */
    private static final Set<String> INTEGER_NAMES =
            Set.of(
                    "INT8",
                    "INT16",
                    "INT32",
                    "INT64",
                    "INT128",
                    "INT256",
                    "UINT8",
                    "UINT16",
                    "UINT32",
                    "UINT64",
                    "UINT128",
                    "UINT256",
                    "TINYINT",
                    "SMALLINT",
                    "MEDIUMINT",
                    "INT",
                    "INTEGER",
                    "BIGINT",
                    "INT1");

    /** Words a column declaration may use right after its name; they cannot be type names. */
    private static final Set<String> RESERVED =
            Set.of(
                    "NOT",
                    "NULL",
                    "DEFAULT",
                    "MATERIALIZED",
                    "EPHEMERAL",
                    "ALIAS",
                    "AUTO",
                    "PRIMARY",
                    "TTL",
                    "COMMENT",
                    "CODEC",
                    "SETTINGS");

    /** Tuple element names ClickHouse prints back-quoted (TupleType prints names unquoted). */
    private static final Set<String> QUOTED_ELEMENT_NAMES =
            Set.of("SELECT", "FROM", "ALL", "DISTINCT", "VALUES", "TABLE");

    // ---------------------------------------------------------------------------------------
    // The recursive-descent parser

    private static final class Parser {
        private final String s;
        private int pos;

        /** End offset of the last consumed token. */
        private int lastEnd;

        /** ClickHouse's {@code max_ast_depth} this declaration must stay within. */
        private final int maxAstDepth;

        /** The depth of the enclosing statement's tree at which the declaration sits. */
        private final int astDepthBase;

        /** How many type declarations are open (1 inside the outermost one). */
        private int nesting;

        Parser(String s, int pos) {
            this(s, pos, DEFAULT_MAX_AST_DEPTH, 0);
        }

        Parser(String s, int pos, int maxAstDepth, int astDepthBase) {
            this.s = s;
            this.pos = pos;
            this.lastEnd = pos;
            this.maxAstDepth = maxAstDepth;
            this.astDepthBase = astDepthBase;
        }

        TypeParseException error(String message, int at) {
            return new TypeParseException(message, at);
        }

        void skipSpace() {
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (Character.isWhitespace(c)) {
                    pos++;
                } else if (c == '-' && s.startsWith("--", pos)) {
                    while (pos < s.length() && s.charAt(pos) != '\n') {
                        pos++;
                    }
                } else if (c == '/' && s.startsWith("/*", pos)) {
                    int end = s.indexOf("*/", pos + 2);
                    if (end < 0) {
                        throw error("Unterminated comment", pos);
                    }
                    pos = end + 2;
                } else {
                    return;
                }
            }
        }

        boolean peek(char c) {
            skipSpace();
            return pos < s.length() && s.charAt(pos) == c;
        }

        void expect(char c, String what) {
            skipSpace();
            if (pos >= s.length() || s.charAt(pos) != c) {
                throw error(
                        "Expected '"
                                + c
                                + "' "
                                + what
                                + (pos >= s.length()
                                        ? " but the text ended"
                                        : " but found '" + snippet(s, pos) + "'"),
                        pos);
            }
            pos++;
            lastEnd = pos;
        }

        boolean tryConsume(char c) {
            if (peek(c)) {
                pos++;
                lastEnd = pos;
                return true;
            }
            return false;
        }

        static boolean identStart(char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        }

        static boolean identPart(char c) {
            return identStart(c) || (c >= '0' && c <= '9') || c == '$';
        }

        /** A bare or quoted identifier at the current position, or null (position unchanged). */
        String identifier() {
            skipSpace();
            if (pos >= s.length()) {
                return null;
            }
            char c = s.charAt(pos);
            if (identStart(c)) {
                int start = pos;
                while (pos < s.length() && identPart(s.charAt(pos))) {
                    pos++;
                }
                lastEnd = pos;
                return s.substring(start, pos);
            }
            if (c == '`' || c == '"') {
                int start = pos;
                StringBuilder b = new StringBuilder();
                pos++;
                while (true) {
                    if (pos >= s.length()) {
                        throw error("Unterminated quoted identifier", start);
                    }
                    char d = s.charAt(pos++);
                    if (d == c) {
                        if (pos < s.length() && s.charAt(pos) == c) {
                            b.append(c);
                            pos++;
                            continue;
                        }
                        break;
                    }
                    if (d == '\\' && pos < s.length()) {
                        b.append(unescape(s.charAt(pos++)));
                        continue;
                    }
                    b.append(d);
                }
                lastEnd = pos;
                return b.toString();
            }
            return null;
        }

        /** Consumes the keyword {@code word} (case-insensitive, whole word) if it is next. */
        boolean keyword(String word) {
            skipSpace();
            int end = pos + word.length();
            if (end <= s.length()
                    && s.regionMatches(true, pos, word, 0, word.length())
                    && (end == s.length() || !identPart(s.charAt(end)))) {
                pos = end;
                lastEnd = end;
                return true;
            }
            return false;
        }

        /** Consumes a multi-word keyword such as "LARGE OBJECT" if it is next. */
        boolean keywords(String words) {
            int save = pos;
            int saveEnd = lastEnd;
            for (String w : words.split(" ")) {
                if (!keyword(w)) {
                    pos = save;
                    lastEnd = saveEnd;
                    return false;
                }
            }
            return true;
        }

        /**
         * One type declaration, refused before it is parsed if it would make the tree too deep: a
         * type at nesting level {@code n} sits under {@code n - 1} types with arguments, each 2
         * levels of ClickHouse's tree, and is itself at least 1.
         */
        DataType type() {
            nesting++;
            try {
                long depth = (long) astDepthBase + 2L * nesting - 1;
                if (depth > maxAstDepth) {
                    skipSpace();
                    throw new TypeParseException(
                            "AST is too deep. Maximum: "
                                    + maxAstDepth
                                    + " (max_ast_depth): the data type is nested more than "
                                    + (nesting - 1)
                                    + " levels deep",
                            pos,
                            true);
                }
                return typeDeclaration();
            } finally {
                nesting--;
            }
        }

        private DataType typeDeclaration() {
            skipSpace();
            int start = pos;
            boolean quoted = pos < s.length() && (s.charAt(pos) == '`' || s.charAt(pos) == '"');
            String name = identifier();
            if (name == null) {
                throw error(
                        pos >= s.length()
                                ? "Expected a data type but the text ended"
                                : "Expected a data type but found '" + snippet(s, pos) + "'",
                        pos);
            }
            if (name.isEmpty()
                    || Character.isDigit(name.charAt(0))
                    || !name.chars().allMatch(ch -> identPart((char) ch))) {
                throw error("Invalid data type name '" + name + "'", start);
            }
            String upper = name.toUpperCase(Locale.ROOT);
            if (!quoted && RESERVED.contains(upper)) {
                throw error("Expected a data type but found keyword " + name, start);
            }
            String suffix = null;
            boolean hadDisplayWidth = false;
            if (upper.equals("NATIONAL")) {
                for (String w :
                        List.of(
                                "CHARACTER LARGE OBJECT",
                                "CHARACTER VARYING",
                                "CHAR VARYING",
                                "CHARACTER",
                                "CHAR")) {
                    if (keywords(w)) {
                        suffix = w;
                        break;
                    }
                }
            } else if (upper.equals("BINARY")
                    || upper.equals("CHARACTER")
                    || upper.equals("CHAR")
                    || upper.equals("NCHAR")) {
                for (String w : List.of("LARGE OBJECT", "VARYING")) {
                    if (keywords(w)) {
                        suffix = w;
                        break;
                    }
                }
            } else if (upper.equals("DOUBLE")) {
                if (keyword("PRECISION")) {
                    suffix = "PRECISION";
                }
            } else if (INTEGER_NAMES.contains(upper)) {
                if (keyword("SIGNED")) {
                    suffix = "SIGNED";
                } else if (keyword("UNSIGNED")) {
                    suffix = "UNSIGNED";
                } else if (peek('(')) {
                    int save = pos;
                    int saveEnd = lastEnd;
                    pos++;
                    skipSpace();
                    while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                        pos++;
                    }
                    if (!tryConsume(')')) {
                        // not a display width: let the argument parser below report it
                        pos = save;
                        lastEnd = saveEnd;
                    } else {
                        hadDisplayWidth = true;
                        if (keyword("SIGNED")) {
                            suffix = "SIGNED";
                        } else if (keyword("UNSIGNED")) {
                            suffix = "UNSIGNED";
                        }
                    }
                }
            }
            String fullName = suffix == null ? name : upper + " " + suffix;
            Family family = SENSITIVE.get(fullName);
            if (family == null) {
                family = INSENSITIVE.get(fullName.toUpperCase(Locale.ROOT));
            }
            if (family == null && (upper.equals("ENUM8") || upper.equals("ENUM16")) && peek('(')) {
                // ClickHouse's parser takes Enum8/Enum16 of explicit values in any letter case
                family = upper.equals("ENUM8") ? Family.ENUM8 : Family.ENUM16;
            }
            if (family == null) {
                if (UNSUPPORTED.contains(fullName)
                        || UNSUPPORTED.contains(fullName.toUpperCase(Locale.ROOT))) {
                    boolean json =
                            fullName.equalsIgnoreCase("JSON")
                                    || fullName.equalsIgnoreCase("Object");
                    throw error(
                            "Data type "
                                    + fullName
                                    + " is not supported by this engine"
                                    + (json
                                            ? " (store JSON documents in a String column: the"
                                                    + " text formats read an object or array"
                                                    + " into String as its JSON text, and"
                                                    + " ClickHouse's JSON functions query it)"
                                            : ""),
                            start);
                }
                throw error("Unknown data type family: " + fullName, start);
            }
            if (hadDisplayWidth && peek('(')) {
                throw error("Unexpected arguments after the display width of " + fullName, pos);
            }
            return family(family, fullName, start);
        }

        /** Parses the arguments (if any) of {@code family} and builds the type. */
        DataType family(Family family, String name, int start) {
            switch (family) {
                case UINT8:
                case UINT16:
                case UINT32:
                case UINT64:
                case INT8:
                case INT16:
                case INT32:
                case INT64:
                    {
                        List<Long> args = numberArgs(name);
                        if (args.size() > 1) {
                            throw error(
                                    name
                                            + " data type family must not have more than one"
                                            + " argument - display width",
                                    start);
                        }
                        return integer(family);
                    }
                case UINT128:
                case UINT256:
                case INT128:
                case INT256:
                case BOOL:
                case DATE:
                case DATE32:
                case UUID:
                case IPV4:
                case IPV6:
                    if (peek('(')) {
                        throw error("Data type " + name + " cannot have arguments", pos);
                    }
                    return simple(family);
                case FLOAT32:
                case FLOAT64:
                    {
                        List<Long> args = numberArgs(name);
                        if (args.size() > 2) {
                            throw error(
                                    name
                                            + " data type family must not have more than two"
                                            + " arguments",
                                    start);
                        }
                        return family == Family.FLOAT32 ? DataTypes.FLOAT32 : DataTypes.FLOAT64;
                    }
                case STRING:
                    {
                        List<Long> args = numberArgs(name);
                        if (args.size() > 1) {
                            throw error(
                                    "String data type family mustn't have more than one argument"
                                            + " - size in characters",
                                    start);
                        }
                        return DataTypes.STRING_TYPE;
                    }
                case FIXED_STRING:
                    {
                        int at = pos;
                        List<Long> args = numberArgs(name);
                        if (args.size() != 1) {
                            throw error(
                                    name
                                            + " data type family must have exactly one argument -"
                                            + " size in bytes",
                                    at);
                        }
                        long n = args.get(0);
                        if (n <= 0 || n > 0xFFFFFF) {
                            throw error("FixedString size must be in [1, 16777215], got " + n, at);
                        }
                        return new FixedStringType((int) n);
                    }
                case DATETIME:
                    return dateTime(name, start);
                case DATETIME64:
                    return dateTime64(name, start);
                case DECIMAL:
                    {
                        int at = pos;
                        List<Long> args = numberArgs(name);
                        if (args.size() > 2) {
                            throw error(
                                    "Decimal data type family must have precision and optional"
                                            + " scale arguments",
                                    at);
                        }
                        long p = args.isEmpty() ? 10 : args.get(0);
                        long sc = args.size() < 2 ? 0 : args.get(1);
                        return decimal(p, sc, at);
                    }
                case DECIMAL32:
                case DECIMAL64:
                case DECIMAL128:
                case DECIMAL256:
                    {
                        int at = pos;
                        List<Long> args = numberArgs(name);
                        if (args.size() != 1) {
                            throw error(
                                    name
                                            + " data type family must have exactly one argument:"
                                            + " scale",
                                    at);
                        }
                        int p =
                                switch (family) {
                                    case DECIMAL32 -> 9;
                                    case DECIMAL64 -> 18;
                                    case DECIMAL128 -> 38;
                                    default -> 76;
                                };
                        return decimal(p, args.get(0), at);
                    }
                case ENUM:
                case ENUM8:
                case ENUM16:
                    return enumType(family, name, start);
                case NULLABLE:
                    {
                        expect('(', "after Nullable");
                        int at = pos;
                        DataType nested = type();
                        expect(')', "after the type in Nullable(...)");
                        try {
                            return new NullableType(nested);
                        } catch (IllegalArgumentException e) {
                            throw error(e.getMessage(), at);
                        }
                    }
                case LOW_CARDINALITY:
                    {
                        expect('(', "after LowCardinality");
                        skipSpace();
                        int at = pos;
                        DataType nested = type();
                        expect(')', "after the type in LowCardinality(...)");
                        try {
                            return new LowCardinalityType(nested);
                        } catch (IllegalArgumentException e) {
                            throw error(
                                    "LowCardinality("
                                            + nested.name()
                                            + ") is not supported: "
                                            + e.getMessage(),
                                    at);
                        }
                    }
                case ARRAY:
                    {
                        expect('(', "after Array");
                        DataType element = type();
                        expect(')', "after the element type in Array(...)");
                        return new ArrayType(element);
                    }
                case MAP:
                    {
                        expect('(', "after Map");
                        skipSpace();
                        int keyAt = pos;
                        DataType key = type();
                        expect(',', "between the key and value types of Map(K, V)");
                        DataType value = type();
                        tryTrailingComma();
                        expect(')', "after the value type in Map(K, V)");
                        if (key instanceof NullableType
                                || (key instanceof LowCardinalityType lc
                                        && lc.nested() instanceof NullableType)) {
                            throw error("Map cannot have a key of type " + key.name(), keyAt);
                        }
                        return new MapType(key, value);
                    }
                case TUPLE:
                    return tuple(start);
                case SIMPLE_AGGREGATE_FUNCTION:
                    return simpleAggregateFunction(start, false);
                case AGGREGATE_FUNCTION:
                    return simpleAggregateFunction(start, true);
                default:
                    throw new IllegalStateException(family.name());
            }
        }

        /**
         * {@code SimpleAggregateFunction(f[(parameters)], T)}: T named after f, validated by {@link
         * SimpleAggregateFunction#of}; or ({@code states}) {@code AggregateFunction([version, ]
         * f[(parameters)], T...)}, validated by {@link AggregateFunctionType#of}.
         */
        DataType simpleAggregateFunction(int start, boolean states) {
            String family = states ? "AggregateFunction" : "SimpleAggregateFunction";
            if (!tryConsume('(') || peek(')')) {
                throw error(
                        "Data type "
                                + family
                                + " requires parameters: "
                                + (states ? "version(optionally), " : "")
                                + "name of aggregate function and list of data types for"
                                + " arguments",
                        start);
            }
            skipSpace();
            int version = -1;
            if (states && pos < s.length() && Character.isDigit(s.charAt(pos))) {
                int at = pos;
                while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                    pos++;
                }
                try {
                    version = Integer.parseInt(s.substring(at, pos));
                } catch (NumberFormatException e) {
                    throw error("Aggregate function version " + s.substring(at, pos), at);
                }
                expect(',', "after the version in AggregateFunction(...)");
                skipSpace();
            }
            int nameAt = pos;
            if (pos < s.length() && s.charAt(pos) == '\'') {
                throw error(
                        "Aggregate function name for data type "
                                + family
                                + " must be passed as identifier (without quotes) or function",
                        nameAt);
            }
            String function = identifier();
            if (function == null) {
                throw error(
                        "Expected the name of an aggregate function in "
                                + family
                                + " but found '"
                                + snippet(s, nameAt)
                                + "'",
                        nameAt);
            }
            List<String> parameters = null;
            if (tryConsume('(')) {
                parameters = new ArrayList<>();
                if (!tryConsume(')')) {
                    while (true) {
                        skipSpace();
                        int at = pos;
                        while (pos < s.length() && ",()".indexOf(s.charAt(pos)) < 0) {
                            pos++;
                        }
                        String literal = s.substring(at, pos).trim();
                        if (literal.isEmpty()) {
                            throw error(
                                    "Parameters to aggregate functions must be literals. Got"
                                            + " parameter '"
                                            + snippet(s, at)
                                            + "' for function '"
                                            + function
                                            + "'",
                                    at);
                        }
                        parameters.add(literal);
                        if (tryConsume(')')) {
                            break;
                        }
                        expect(',', "between the parameters of " + function);
                    }
                }
            }
            List<DataType> arguments = new ArrayList<>();
            while (tryConsume(',')) {
                arguments.add(type());
            }
            expect(')', "after the types in " + family + "(...)");
            try {
                if (states) {
                    return AggregateFunctionType.of(version, function, parameters, arguments);
                }
                SimpleAggregateFunction f =
                        SimpleAggregateFunction.of(function, parameters, arguments);
                return arguments.get(0).asSimpleAggregateFunction(f);
            } catch (IllegalArgumentException e) {
                throw error(e.getMessage(), nameAt);
            }
        }

        void tryTrailingComma() {
            if (peek(',')) {
                int save = pos;
                pos++;
                if (peek(')')) {
                    lastEnd = pos;
                    return;
                }
                pos = save;
            }
        }

        /** Optional {@code (n, ...)} of non-negative integer literals. */
        List<Long> numberArgs(String name) {
            List<Long> out = new ArrayList<>();
            if (!tryConsume('(')) {
                return out;
            }
            if (tryConsume(')')) {
                return out;
            }
            while (true) {
                skipSpace();
                int at = pos;
                Long n = unsignedNumber();
                if (n == null) {
                    throw error(
                            "Arguments of data type "
                                    + name
                                    + " must be non-negative integer literals, found '"
                                    + snippet(s, at)
                                    + "'",
                            at);
                }
                out.add(n);
                tryTrailingComma();
                if (tryConsume(')')) {
                    return out;
                }
                expect(',', "between arguments of " + name);
            }
        }

        /** A decimal or 0x hexadecimal integer literal, or null if there is none here. */
        Long unsignedNumber() {
            skipSpace();
            int start = pos;
            if (pos >= s.length() || !Character.isDigit(s.charAt(pos))) {
                return null;
            }
            int radix = 10;
            if (s.startsWith("0x", pos) || s.startsWith("0X", pos)) {
                radix = 16;
                pos += 2;
            } else if (s.startsWith("0b", pos) || s.startsWith("0B", pos)) {
                radix = 2;
                pos += 2;
            }
            int digitsStart = pos;
            while (pos < s.length() && Character.digit(s.charAt(pos), radix) >= 0) {
                pos++;
            }
            if (pos < s.length() && (identPart(s.charAt(pos)) || s.charAt(pos) == '.')) {
                throw error("Expected an integer literal at '" + snippet(s, start) + "'", start);
            }
            if (digitsStart == pos) {
                throw error("Expected an integer literal at '" + snippet(s, start) + "'", start);
            }
            try {
                long v = Long.parseLong(s.substring(digitsStart, pos), radix);
                lastEnd = pos;
                return v;
            } catch (NumberFormatException e) {
                throw error("Integer literal out of range: " + s.substring(start, pos), start);
            }
        }

        String stringLiteral() {
            skipSpace();
            if (pos >= s.length() || s.charAt(pos) != '\'') {
                return null;
            }
            int start = pos;
            StringBuilder b = new StringBuilder();
            pos++;
            while (true) {
                if (pos >= s.length()) {
                    throw error("Unterminated string literal", start);
                }
                char c = s.charAt(pos++);
                if (c == '\'') {
                    if (pos < s.length() && s.charAt(pos) == '\'') {
                        b.append('\'');
                        pos++;
                        continue;
                    }
                    break;
                }
                if (c == '\\') {
                    if (pos >= s.length()) {
                        throw error("Unterminated string literal", start);
                    }
                    char e = s.charAt(pos++);
                    if (e == 'x' && pos + 2 <= s.length()) {
                        int hi = Character.digit(s.charAt(pos), 16);
                        int lo = Character.digit(s.charAt(pos + 1), 16);
                        if (hi >= 0 && lo >= 0) {
                            b.append((char) (hi * 16 + lo));
                            pos += 2;
                            continue;
                        }
                    }
                    b.append(unescape(e));
                    continue;
                }
                b.append(c);
            }
            lastEnd = pos;
            return b.toString();
        }

        DataType integer(Family f) {
            return switch (f) {
                case UINT8 -> DataTypes.UINT8;
                case UINT16 -> DataTypes.UINT16;
                case UINT32 -> DataTypes.UINT32;
                case UINT64 -> DataTypes.UINT64;
                case INT8 -> DataTypes.INT8;
                case INT16 -> DataTypes.INT16;
                case INT32 -> DataTypes.INT32;
                default -> DataTypes.INT64;
            };
        }

        DataType simple(Family f) {
            return switch (f) {
                case UINT128 -> DataTypes.UINT128;
                case UINT256 -> DataTypes.UINT256;
                case INT128 -> DataTypes.INT128;
                case INT256 -> DataTypes.INT256;
                case BOOL -> DataTypes.BOOL;
                case DATE -> DataTypes.DATE;
                case DATE32 -> DataTypes.DATE32;
                case UUID -> DataTypes.UUID;
                case IPV4 -> DataTypes.IPV4;
                default -> DataTypes.IPV6;
            };
        }

        DataType decimal(long p, long scale, int at) {
            if (p < 1 || p > 76) {
                throw error("Wrong precision: it must be between 1 and 76, got " + p, at);
            }
            if (scale < 0 || scale > p) {
                throw error("Decimal scale must be in [0, precision=" + p + "], got " + scale, at);
            }
            return new DecimalType((int) p, (int) scale);
        }

        String timeZone(int at) {
            String tz = stringLiteral();
            if (tz == null) {
                throw error("Expected a time zone name as a string literal", at);
            }
            try {
                TimeZones.check(tz);
            } catch (IllegalArgumentException e) {
                throw error("Cannot load time zone " + tz, at);
            }
            return tz;
        }

        DataType dateTime(String name, int start) {
            if (!tryConsume('(')) {
                return new DateTimeType(null);
            }
            if (tryConsume(')')) {
                return new DateTimeType(null);
            }
            skipSpace();
            int at = pos;
            if (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                // DateTime(3[, 'tz']) is DateTime64(3[, 'tz']), as in ClickHouse
                return dateTime64Args(name, at);
            }
            String tz = timeZone(at);
            tryTrailingComma();
            if (!tryConsume(')')) {
                throw error(name + " data type can have only one argument - time zone name", pos);
            }
            return new DateTimeType(tz);
        }

        DataType dateTime64(String name, int start) {
            if (!tryConsume('(')) {
                return new DateTime64Type(3, null);
            }
            if (tryConsume(')')) {
                return new DateTime64Type(3, null);
            }
            skipSpace();
            return dateTime64Args(name, pos);
        }

        /** After {@code DateTime64(}: scale [, 'tz'] ). */
        DataType dateTime64Args(String name, int at) {
            Long scale = unsignedNumber();
            if (scale == null) {
                throw error("Parameter #0 'scale' for " + name + " must be an integer literal", at);
            }
            if (scale > 9) {
                throw error("Scale " + scale + " is too large for DateTime64. Maximum is 9", at);
            }
            String tz = null;
            tryTrailingComma();
            if (tryConsume(',')) {
                skipSpace();
                tz = timeZone(pos);
                tryTrailingComma();
            }
            if (!tryConsume(')')) {
                throw error(
                        "DateTime64 data type can optionally have two arguments - scale and time"
                                + " zone name",
                        pos);
            }
            return new DateTime64Type(scale.intValue(), tz);
        }

        DataType enumType(Family family, String name, int start) {
            expect('(', "after " + name);
            if (peek(')')) {
                throw error("Enum data type cannot be empty", pos);
            }
            // ClickHouse's autoAssignNumberForEnum: an element without a value gets
            // start + (number of valueless elements so far, not counting the first element),
            // where start is the first element's value if it has one, else 1; valueless
            // elements must be all elements or all but the first
            LinkedHashMap<String, Integer> elements = new LinkedHashMap<>();
            long startValue = 1;
            int assignCount = 0;
            int count = 0;
            boolean allExplicit = true;
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            while (true) {
                skipSpace();
                int at = pos;
                String elementName = stringLiteral();
                if (elementName == null) {
                    throw error(
                            "Elements of Enum data type must be of form: 'name' = number or"
                                    + " 'name', found '"
                                    + snippet(s, at)
                                    + "'",
                            at);
                }
                long value;
                if (tryConsume('=')) {
                    skipSpace();
                    int numAt = pos;
                    boolean negative = false;
                    if (tryConsume('-')) {
                        negative = true;
                    } else {
                        tryConsume('+');
                    }
                    Long v = unsignedNumber();
                    if (v == null) {
                        throw error(
                                "Enum element '"
                                        + elementName
                                        + "' must have an integer value, found '"
                                        + snippet(s, numAt)
                                        + "'",
                                numAt);
                    }
                    value = negative ? -v : v;
                    if (count == 0) {
                        startValue = value;
                    }
                } else {
                    allExplicit = false;
                    if (count > 0) {
                        assignCount++;
                    }
                    value = startValue + assignCount;
                }
                count++;
                if (elements.containsKey(elementName)) {
                    throw error("Duplicate names in enum: '" + elementName + "'", at);
                }
                if (value < Short.MIN_VALUE || value > Short.MAX_VALUE) {
                    throw error(
                            "Value "
                                    + value
                                    + " for element '"
                                    + elementName
                                    + "' exceeds range of Enum16",
                            at);
                }
                for (Map.Entry<String, Integer> e : elements.entrySet()) {
                    if (e.getValue() == value) {
                        throw error(
                                "Duplicate values in enum: '"
                                        + elementName
                                        + "' = "
                                        + value
                                        + " and '"
                                        + e.getKey()
                                        + "'",
                                at);
                    }
                }
                elements.put(elementName, (int) value);
                min = Math.min(min, value);
                max = Math.max(max, value);
                tryTrailingComma();
                if (tryConsume(')')) {
                    break;
                }
                expect(',', "between Enum elements");
            }
            if (assignCount != 0 && assignCount != count - 1) {
                throw mixed(start);
            }
            if (!allExplicit
                    && (family == Family.ENUM8 || family == Family.ENUM16)
                    && !name.equals(family == Family.ENUM8 ? "Enum8" : "Enum16")) {
                // only the fully explicit form is parsed case-insensitively by ClickHouse
                throw error("Unknown data type family: " + name, start);
            }
            TypeKind kind;
            if (family == Family.ENUM8) {
                kind = TypeKind.ENUM8;
            } else if (family == Family.ENUM16) {
                kind = TypeKind.ENUM16;
            } else {
                kind =
                        min >= Byte.MIN_VALUE && max <= Byte.MAX_VALUE
                                ? TypeKind.ENUM8
                                : TypeKind.ENUM16;
            }
            if (kind == TypeKind.ENUM8) {
                for (Map.Entry<String, Integer> e : elements.entrySet()) {
                    if (e.getValue() < Byte.MIN_VALUE || e.getValue() > Byte.MAX_VALUE) {
                        throw error(
                                "Value "
                                        + e.getValue()
                                        + " for element '"
                                        + e.getKey()
                                        + "' exceeds range of Enum8",
                                start);
                    }
                }
            }
            return new EnumType(kind, elements);
        }

        TypeParseException mixed(int at) {
            return error(
                    "All elements of Enum data type must be of form: 'name' = number or 'name'"
                            + " (the forms cannot be mixed)",
                    at);
        }

        DataType tuple(int start) {
            expect('(', "after Tuple");
            if (peek(')')) {
                throw error("Empty Tuple() is not supported by this engine", pos);
            }
            List<String> names = new ArrayList<>();
            List<DataType> types = new ArrayList<>();
            Boolean named = null;
            while (true) {
                skipSpace();
                int at = pos;
                // "name Type" or "Type": try the named form first
                int save = pos;
                int saveEnd = lastEnd;
                String elementName = null;
                DataType element = null;
                String ident = identifier();
                if (ident != null) {
                    skipSpace();
                    boolean typeFollows =
                            pos < s.length()
                                    && (identStart(s.charAt(pos))
                                            || s.charAt(pos) == '`'
                                            || s.charAt(pos) == '"');
                    if (typeFollows) {
                        int typeAt = pos;
                        try {
                            element = type();
                            elementName = ident;
                        } catch (TypeParseException e) {
                            if (e.limitExceeded()) {
                                throw e;
                            }
                            // "INT UNSIGNED"-like multi-word names are types, not "name Type"
                            pos = save;
                            lastEnd = saveEnd;
                            element = null;
                            if (typeAt == save) {
                                throw e;
                            }
                        }
                    }
                }
                if (element == null) {
                    pos = save;
                    lastEnd = saveEnd;
                    element = type();
                }
                boolean isNamed = elementName != null;
                if (named != null && named != isNamed) {
                    throw error("Names are specified not for all elements of Tuple type", at);
                }
                named = isNamed;
                if (isNamed) {
                    checkElementName(elementName, at);
                    if (names.contains(elementName)) {
                        throw error(
                                "Names of tuple elements must be unique. Duplicate name: "
                                        + elementName,
                                at);
                    }
                    names.add(elementName);
                }
                types.add(element);
                tryTrailingComma();
                if (tryConsume(')')) {
                    break;
                }
                expect(',', "between Tuple elements");
            }
            return new TupleType(Boolean.TRUE.equals(named) ? names : null, types);
        }

        void checkElementName(String name, int at) {
            boolean plain = !name.isEmpty() && identStart(name.charAt(0));
            for (int i = 0; plain && i < name.length(); i++) {
                char c = name.charAt(i);
                plain = identStart(c) || (c >= '0' && c <= '9');
            }
            String upper = name.toUpperCase(Locale.ROOT);
            if (upper.equals("NULL")) {
                throw error(
                        "Tuple element name 'null' is reserved (it would conflict with the"
                                + " null map subcolumn)",
                        at);
            }
            if (!plain || QUOTED_ELEMENT_NAMES.contains(upper)) {
                throw error(
                        "Tuple element name '"
                                + name
                                + "' needs quoting, which this engine does not support",
                        at);
            }
        }
    }

    private static char unescape(char e) {
        return switch (e) {
            case 'n' -> '\n';
            case 't' -> '\t';
            case 'r' -> '\r';
            case 'b' -> '\b';
            case 'f' -> '\f';
            case '0' -> '\0';
            case 'a' -> '\007';
            case 'v' -> '\013';
            case 'e' -> '\033';
            default -> e;
        };
    }
}
