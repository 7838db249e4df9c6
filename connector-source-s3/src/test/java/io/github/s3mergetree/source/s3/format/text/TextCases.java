package io.github.s3mergetree.source.s3.format.text;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Generates text inputs for the differential test against ClickHouse: well-formed rows of a few
 * schemas written in each format (with the variations real writers produce: quoting, spacing,
 * escapes, CRLF, BOM, headers) and then damaged in the ways real files are damaged: a missing or an
 * extra field, a quote left open or in the wrong place, a bad escape, CR/LF mixes, empty lines, a
 * cut at an arbitrary byte, a value of the wrong type.
 */
final class TextCases {
    /** One input: a format, a ClickHouse structure, the bytes, a description. */
    record Case(String name, TextParser.Format format, String structure, byte[] data) {
        @Override
        public String toString() {
            return name
                    + " ["
                    + format.clickHouseName()
                    + "] "
                    + TextCursor.escape(data, 0, Math.min(data.length, 300));
        }
    }

    /** A schema and how to write one random valid value of each column. */
    record Schema(String structure, String[] names, Kind[] kinds) {}

    enum Kind {
        INT32,
        UINT8,
        INT64,
        FLOAT64,
        STRING,
        NSTRING,
        NINT,
        DATE,
        DATETIME,
        DATETIME64,
        BOOL,
        DECIMAL,
        ENUM,
        FIXED3,
        ARRAY_STRING,
        ARRAY_INT,
        MAP,
        UUID,
        LC,
        INT8,
        UINT64,
        FLOAT32,
        DATE32,
        IPV4,
        IPV6,
        TUPLE,
        NFLOAT,
        ENUM16,
        LCN,
        INT128
    }

    static final List<Schema> SCHEMAS =
            List.of(
                    new Schema(
                            "id Int32, name String, score Float64, d Date, ts DateTime",
                            new String[] {"id", "name", "score", "d", "ts"},
                            new Kind[] {
                                Kind.INT32, Kind.STRING, Kind.FLOAT64, Kind.DATE, Kind.DATETIME
                            }),
                    new Schema(
                            "u UInt8, ns Nullable(String), n Nullable(Int64), flag Bool, dec"
                                    + " Decimal(9, 2), big Int64",
                            new String[] {"u", "ns", "n", "flag", "dec", "big"},
                            new Kind[] {
                                Kind.UINT8,
                                Kind.NSTRING,
                                Kind.NINT,
                                Kind.BOOL,
                                Kind.DECIMAL,
                                Kind.INT64
                            }),
                    new Schema(
                            "e Enum8('a' = 1, 'b' = 2), fs FixedString(3), t64 DateTime64(3),"
                                    + " tags Array(String), nums Array(Int32), lc"
                                    + " LowCardinality(String)",
                            new String[] {"e", "fs", "t64", "tags", "nums", "lc"},
                            new Kind[] {
                                Kind.ENUM,
                                Kind.FIXED3,
                                Kind.DATETIME64,
                                Kind.ARRAY_STRING,
                                Kind.ARRAY_INT,
                                Kind.LC
                            }),
                    new Schema(
                            "s String, m Map(String, Int32), id UUID",
                            new String[] {"s", "m", "id"},
                            new Kind[] {Kind.STRING, Kind.MAP, Kind.UUID}),
                    new Schema(
                            "i8 Int8, u64 UInt64, f32 Float32, d32 Date32, ip IPv4, ip6 IPv6, t"
                                    + " Tuple(Int32, String), nf Nullable(Float64), e16"
                                    + " Enum16('x' = -1000, 'y' = 1000), lcn"
                                    + " LowCardinality(Nullable(String)), i128 Int128",
                            new String[] {
                                "i8", "u64", "f32", "d32", "ip", "ip6", "t", "nf", "e16", "lcn",
                                "i128"
                            },
                            new Kind[] {
                                Kind.INT8,
                                Kind.UINT64,
                                Kind.FLOAT32,
                                Kind.DATE32,
                                Kind.IPV4,
                                Kind.IPV6,
                                Kind.TUPLE,
                                Kind.NFLOAT,
                                Kind.ENUM16,
                                Kind.LCN,
                                Kind.INT128
                            }));

    private final Random r;

    TextCases(long seed) {
        this.r = new Random(seed);
    }

    // ---------------------------------------------------------------- values (abstract)

    /** A value in a neutral form: a String, a Long/Double/Boolean, null, or a list/map. */
    private Object value(Kind k) {
        return switch (k) {
            case INT32 -> (long) (r.nextInt(3) == 0 ? r.nextInt() : r.nextInt(2000) - 1000);
            case UINT8 -> (long) r.nextInt(256);
            case INT64 -> r.nextInt(3) == 0 ? r.nextLong() : (long) r.nextInt(100000);
            case FLOAT64 ->
                    r.nextInt(4) == 0
                            ? (double) r.nextInt(1000)
                            : Math.round(r.nextGaussian() * 1e6) / 1000.0;
            case STRING, LC -> string();
            case NSTRING -> r.nextInt(4) == 0 ? null : string();
            case NINT -> r.nextInt(4) == 0 ? null : (long) r.nextInt(1_000_000) - 500_000;
            case DATE ->
                    String.format(
                            "%04d-%02d-%02d",
                            1971 + r.nextInt(120), 1 + r.nextInt(12), 1 + r.nextInt(28));
            case DATETIME -> dateTime(false);
            case DATETIME64 -> dateTime(true);
            case BOOL -> r.nextBoolean();
            case DECIMAL ->
                    String.format("%d.%02d", r.nextInt(2_000_000) - 1_000_000, r.nextInt(100));
            case ENUM -> r.nextBoolean() ? "a" : "b";
            case FIXED3 -> new String[] {"abc", "x", "", "é"}[r.nextInt(4)];
            case ARRAY_STRING -> {
                List<Object> l = new ArrayList<>();
                for (int i = r.nextInt(3); i > 0; i--) {
                    l.add(string());
                }
                yield l;
            }
            case ARRAY_INT -> {
                List<Object> l = new ArrayList<>();
                for (int i = r.nextInt(4); i > 0; i--) {
                    l.add((long) r.nextInt(100) - 50);
                }
                yield l;
            }
            case MAP -> {
                java.util.Map<Object, Object> m = new java.util.LinkedHashMap<>();
                for (int i = r.nextInt(3); i > 0; i--) {
                    m.put("k" + r.nextInt(10), (long) r.nextInt(1000));
                }
                yield m;
            }
            case UUID ->
                    java.util.UUID.nameUUIDFromBytes(new byte[] {(byte) r.nextInt()}).toString();
            case INT8 -> (long) (r.nextInt(256) - 128);
            case UINT64 ->
                    r.nextInt(3) == 0
                            ? Long.toUnsignedString(r.nextLong())
                            : String.valueOf(r.nextInt(1000));
            case FLOAT32 ->
                    r.nextInt(3) == 0
                            ? (double) r.nextInt(100)
                            : (double) (float) (r.nextGaussian() * 1000);
            case DATE32 ->
                    String.format(
                            "%04d-%02d-%02d",
                            1900 + r.nextInt(400), 1 + r.nextInt(12), 1 + r.nextInt(28));
            case IPV4 ->
                    r.nextInt(256)
                            + "."
                            + r.nextInt(256)
                            + "."
                            + r.nextInt(256)
                            + "."
                            + r.nextInt(256);
            case IPV6 ->
                    new String[] {
                                "::1",
                                "2001:db8::ff00:42:8329",
                                "::ffff:10.1.2.3",
                                "fe80::1:2:3:4",
                                "1.2.3.4"
                            }
                            [r.nextInt(5)];
            case TUPLE -> List.of((long) r.nextInt(1000) - 500, string());
            case NFLOAT -> r.nextInt(3) == 0 ? null : Math.round(r.nextGaussian() * 1e4) / 100.0;
            case ENUM16 -> r.nextBoolean() ? "x" : "y";
            case LCN -> r.nextInt(3) == 0 ? null : string();
            case INT128 ->
                    new java.math.BigInteger(100, r)
                            .subtract(java.math.BigInteger.ONE.shiftLeft(99))
                            .toString();
        };
    }

    private String dateTime(boolean fraction) {
        String base =
                String.format(
                        "%04d-%02d-%02d%s%02d:%02d:%02d",
                        1971 + r.nextInt(120),
                        1 + r.nextInt(12),
                        1 + r.nextInt(28),
                        r.nextInt(4) == 0 ? "T" : " ",
                        r.nextInt(24),
                        r.nextInt(60),
                        r.nextInt(60));
        if (fraction && r.nextBoolean()) {
            base += "." + (100 + r.nextInt(900));
        }
        return switch (r.nextInt(6)) {
            case 0 -> base + "Z";
            case 1 -> base + "+00";
            case 2 -> base + "+05:30";
            case 3 -> base + "-0800";
            default -> base;
        };
    }

    private static final String[] PIECES = {
        "plain",
        "with space",
        "comma,inside",
        "quote\"inside",
        "tab\tinside",
        "new\nline",
        "cr\rinside",
        "crlf\r\ninside",
        "back\\slash",
        "uni ✓ ü",
        "\\N",
        "NULL",
        "'single'",
        " padded ",
        "",
        "{\"json\":1}",
        "[1,2]",
        "x"
    };

    private String string() {
        if (r.nextInt(12) == 0) {
            return "\u0000latin1:\u00ff\u00e9"; // marker: written as raw non-UTF-8 bytes
        }
        return PIECES[r.nextInt(PIECES.length)]
                + (r.nextInt(3) == 0 ? String.valueOf(r.nextInt(99)) : "");
    }

    /** Raw bytes of a generated string (the latin1 marker becomes non-UTF-8 bytes). */
    private static byte[] bytes(String s) {
        if (s.startsWith("\u0000latin1:")) {
            return s.substring(8).getBytes(StandardCharsets.ISO_8859_1);
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- writers

    private void csvValue(ByteArrayOutputStream o, Kind k, Object v) {
        if (v == null) {
            o.writeBytes("\\N".getBytes(StandardCharsets.US_ASCII));
            return;
        }
        switch (k) {
            case TUPLE -> {
                List<?> t = (List<?>) v;
                csvValue(o, Kind.INT32, t.get(0));
                o.write(',');
                csvValue(o, Kind.STRING, t.get(1));
            }
            case STRING, NSTRING, LC, LCN, FIXED3, ENUM, ENUM16, IPV6 -> {
                String s = (String) v;
                byte[] b = bytes(s);
                boolean needs =
                        s.isEmpty()
                                || s.equals("\\N")
                                || s.startsWith(" ")
                                || s.endsWith(" ")
                                || s.contains(",")
                                || s.contains("\"")
                                || s.contains("\n")
                                || s.contains("\r")
                                || s.contains("\t")
                                || r.nextInt(4) == 0;
                if (needs) {
                    o.write('"');
                    for (byte x : b) {
                        if (x == '"') {
                            o.write('"');
                        }
                        o.write(x);
                    }
                    o.write('"');
                } else {
                    o.writeBytes(b);
                }
            }
            case ARRAY_STRING, ARRAY_INT, MAP -> {
                o.write('"');
                o.writeBytes(literal(k, v).replace("\"", "\"\"").getBytes(StandardCharsets.UTF_8));
                o.write('"');
            }
            case BOOL -> o.writeBytes(bool((Boolean) v));
            default -> {
                String s = String.valueOf(v);
                if (r.nextInt(5) == 0) {
                    s = "\"" + s + "\"";
                } else if (r.nextInt(8) == 0) {
                    s = " " + s + " ";
                }
                o.writeBytes(s.getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    private byte[] bool(boolean b) {
        String[] t = {"true", "1", "yes", "True"};
        String[] f = {"false", "0", "no", "FALSE"};
        return (b ? t : f)[r.nextInt(4)].getBytes(StandardCharsets.US_ASCII);
    }

    /** ClickHouse's literal of an Array/Map value (quoted strings, backslash escapes). */
    private static String literal(Kind k, Object v) {
        StringBuilder b = new StringBuilder();
        if (k == Kind.MAP) {
            b.append('{');
            boolean first = true;
            for (var e : ((java.util.Map<?, ?>) v).entrySet()) {
                b.append(first ? "" : ",")
                        .append(quote((String) e.getKey()))
                        .append(':')
                        .append(e.getValue());
                first = false;
            }
            return b.append('}').toString();
        }
        b.append('[');
        boolean first = true;
        for (Object e : (List<?>) v) {
            b.append(first ? "" : ",");
            b.append(k == Kind.ARRAY_STRING ? quote((String) e) : String.valueOf(e));
            first = false;
        }
        return b.append(']').toString();
    }

    private static String quote(String s) {
        if (s.startsWith("\u0000latin1:")) {
            s = "latin1";
        }
        StringBuilder b = new StringBuilder("'");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '\'' -> b.append("\\'");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> b.append(c);
            }
        }
        return b.append('\'').toString();
    }

    private void tsvValue(ByteArrayOutputStream o, Kind k, Object v) {
        if (v == null) {
            o.writeBytes("\\N".getBytes(StandardCharsets.US_ASCII));
            return;
        }
        switch (k) {
            case TUPLE -> {
                List<?> t = (List<?>) v;
                o.writeBytes(
                        ("(" + t.get(0) + ", " + quote((String) t.get(1)) + ")")
                                .replace("\\", "\\\\")
                                .replace("\t", "\\t")
                                .getBytes(StandardCharsets.UTF_8));
            }
            case STRING, NSTRING, LC, LCN, FIXED3, ENUM, ENUM16 -> {
                for (byte x : bytes((String) v)) {
                    switch (x) {
                        case '\t' -> o.writeBytes("\\t".getBytes(StandardCharsets.US_ASCII));
                        case '\n' ->
                                o.writeBytes(
                                        r.nextInt(4) == 0
                                                ? new byte[] {'\\', '\n'}
                                                : "\\n".getBytes(StandardCharsets.US_ASCII));
                        case '\r' -> o.writeBytes("\\r".getBytes(StandardCharsets.US_ASCII));
                        case '\\' -> o.writeBytes("\\\\".getBytes(StandardCharsets.US_ASCII));
                        default -> o.write(x);
                    }
                }
            }
            case ARRAY_STRING, ARRAY_INT, MAP ->
                    o.writeBytes(
                            literal(k, v)
                                    .replace("\\", "\\\\")
                                    .replace("\t", "\\t")
                                    .getBytes(StandardCharsets.UTF_8));
            case BOOL -> o.writeBytes(bool((Boolean) v));
            default -> o.writeBytes(String.valueOf(v).getBytes(StandardCharsets.UTF_8));
        }
    }

    private void jsonValue(ByteArrayOutputStream o, Kind k, Object v) {
        if (v == null) {
            o.writeBytes("null".getBytes(StandardCharsets.US_ASCII));
            return;
        }
        switch (k) {
            case TUPLE -> {
                List<?> t = (List<?>) v;
                o.writeBytes(("[" + t.get(0) + ",").getBytes(StandardCharsets.US_ASCII));
                jsonString(o, (String) t.get(1));
                o.write(']');
            }
            case STRING,
                    NSTRING,
                    LC,
                    LCN,
                    FIXED3,
                    ENUM,
                    ENUM16,
                    DATE,
                    DATE32,
                    DATETIME,
                    DATETIME64,
                    DECIMAL,
                    UUID,
                    IPV4,
                    IPV6,
                    INT128,
                    UINT64 -> {
                if ((k == Kind.INT128 || k == Kind.UINT64) && r.nextBoolean()) {
                    o.writeBytes(((String) v).getBytes(StandardCharsets.US_ASCII));
                    return;
                }
                if (k == Kind.DECIMAL && r.nextBoolean()) {
                    o.writeBytes(((String) v).getBytes(StandardCharsets.US_ASCII));
                    return;
                }
                jsonString(o, (String) v);
            }
            case ARRAY_STRING, ARRAY_INT -> {
                o.write('[');
                boolean first = true;
                for (Object e : (List<?>) v) {
                    if (!first) {
                        o.writeBytes(
                                (r.nextBoolean() ? ", " : ",").getBytes(StandardCharsets.US_ASCII));
                    }
                    first = false;
                    if (e instanceof String s) {
                        jsonString(o, s);
                    } else {
                        o.writeBytes(String.valueOf(e).getBytes(StandardCharsets.US_ASCII));
                    }
                }
                o.write(']');
            }
            case MAP -> {
                o.write('{');
                boolean first = true;
                for (var e : ((java.util.Map<?, ?>) v).entrySet()) {
                    if (!first) {
                        o.write(',');
                    }
                    first = false;
                    jsonString(o, (String) e.getKey());
                    o.write(':');
                    o.writeBytes(String.valueOf(e.getValue()).getBytes(StandardCharsets.US_ASCII));
                }
                o.write('}');
            }
            case BOOL ->
                    o.writeBytes(
                            (((Boolean) v) ? "true" : "false").getBytes(StandardCharsets.US_ASCII));
            default -> {
                String s = String.valueOf(v);
                if (r.nextInt(6) == 0) {
                    s = "\"" + s + "\"";
                }
                o.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
            }
        }
    }

    private void jsonString(ByteArrayOutputStream o, String s) {
        o.write('"');
        for (byte x : bytes(s)) {
            switch (x) {
                case '"' -> o.writeBytes("\\\"".getBytes(StandardCharsets.US_ASCII));
                case '\\' -> o.writeBytes("\\\\".getBytes(StandardCharsets.US_ASCII));
                case '\n' ->
                        o.writeBytes(
                                r.nextInt(5) == 0
                                        ? new byte[] {'\n'}
                                        : "\\n".getBytes(StandardCharsets.US_ASCII));
                case '\r' -> o.writeBytes("\\r".getBytes(StandardCharsets.US_ASCII));
                case '\t' -> o.writeBytes("\\t".getBytes(StandardCharsets.US_ASCII));
                default -> {
                    if (x == 'u' && r.nextInt(10) == 0) {
                        o.writeBytes("\\u0075".getBytes(StandardCharsets.US_ASCII));
                    } else {
                        o.write(x);
                    }
                }
            }
        }
        o.write('"');
    }

    /** A well-formed input of {@code rows} rows; lines as separate byte arrays (for mutations). */
    private List<byte[]> lines(TextParser.Format f, Schema s, int rows, String eol) {
        List<byte[]> out = new ArrayList<>();
        boolean names =
                f == TextParser.Format.CSV_WITH_NAMES
                        || f == TextParser.Format.TAB_SEPARATED_WITH_NAMES;
        char sep = f == TextParser.Format.CSV || f == TextParser.Format.CSV_WITH_NAMES ? ',' : '\t';
        if (names) {
            ByteArrayOutputStream o = new ByteArrayOutputStream();
            for (int i = 0; i < s.names().length; i++) {
                if (i > 0) {
                    o.write(sep);
                }
                o.writeBytes(s.names()[i].getBytes(StandardCharsets.UTF_8));
            }
            out.add(o.toByteArray());
        }
        for (int row = 0; row < rows; row++) {
            ByteArrayOutputStream o = new ByteArrayOutputStream();
            if (f == TextParser.Format.JSON_EACH_ROW) {
                o.write('{');
                int n = s.names().length;
                Integer[] order = new Integer[n];
                for (int i = 0; i < n; i++) {
                    order[i] = i;
                }
                if (r.nextInt(3) == 0) {
                    java.util.Collections.shuffle(java.util.Arrays.asList(order), r);
                }
                boolean first = true;
                for (int i : order) {
                    if (r.nextInt(8) == 0) {
                        continue; // a missing key: the default
                    }
                    if (!first) {
                        o.writeBytes(
                                (r.nextInt(3) == 0 ? ", " : ",")
                                        .getBytes(StandardCharsets.US_ASCII));
                    }
                    first = false;
                    jsonString(o, s.names()[i]);
                    o.writeBytes(
                            (r.nextInt(3) == 0 ? ": " : ":").getBytes(StandardCharsets.US_ASCII));
                    jsonValue(o, s.kinds()[i], value(s.kinds()[i]));
                }
                o.write('}');
            } else {
                for (int i = 0; i < s.kinds().length; i++) {
                    if (i > 0) {
                        o.write(sep);
                    }
                    Object v = value(s.kinds()[i]);
                    if (sep == ',') {
                        csvValue(o, s.kinds()[i], v);
                    } else {
                        tsvValue(o, s.kinds()[i], v);
                    }
                }
            }
            out.add(o.toByteArray());
        }
        return out;
    }

    private static byte[] join(List<byte[]> lines, String eol, boolean finalEol) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        byte[] e = eol.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < lines.size(); i++) {
            o.writeBytes(lines.get(i));
            if (i < lines.size() - 1 || finalEol) {
                o.writeBytes(e);
            }
        }
        return o.toByteArray();
    }

    // ---------------------------------------------------------------- mutations

    private static final String[] WRONG = {
        "abc",
        "1.5",
        "12x",
        "--1",
        "+",
        "1e5",
        "9999999999999999999999",
        "2020-13-45",
        "2021-02-30 25:61:61",
        "nan",
        "inf",
        "true",
        "\"unclosed",
        "x\"y",
        "0x1F",
        "",
        " ",
        "\\N",
        "NULL",
        "null",
        "1,2",
        "[1,",
        "{'a':",
        "'q'",
        "2021-10-13 10:58:45Z",
        "-0",
        "١٢",
        "\u00ff\u00fe",
        "\\x4",
        "\\",
        "ab\\"
    };

    /** All cases: valid inputs, then each kind of damage, for every format and schema. */
    List<Case> generate(int perFormatAndSchema) {
        List<Case> out = new ArrayList<>();
        for (TextParser.Format f : TextParser.Format.values()) {
            for (Schema s : SCHEMAS) {
                for (int i = 0; i < perFormatAndSchema; i++) {
                    out.add(one(f, s, i));
                }
            }
        }
        return out;
    }

    private Case one(TextParser.Format f, Schema s, int i) {
        int rows = r.nextInt(6) == 0 ? 20 + r.nextInt(30) : 1 + r.nextInt(5);
        String eol = r.nextInt(6) == 0 ? "\r\n" : "\n";
        List<byte[]> lines = lines(f, s, rows, eol);
        boolean header =
                f == TextParser.Format.CSV_WITH_NAMES
                        || f == TextParser.Format.TAB_SEPARATED_WITH_NAMES;
        int first = header ? 1 : 0;
        int target = first + r.nextInt(lines.size() - first);
        String what;
        byte[] data;
        switch (i % 14) {
            case 0 -> {
                what = "valid";
                if (!header && f != TextParser.Format.JSON_EACH_ROW && r.nextInt(3) == 0) {
                    what = "valid with a header row";
                    List<String> names = new ArrayList<>(List.of(s.names()));
                    if (r.nextBoolean()) {
                        java.util.Collections.reverse(names);
                    }
                    if (r.nextBoolean()) {
                        names.remove(names.size() - 1);
                    }
                    lines.add(0, String.join(sep(f), names).getBytes(StandardCharsets.UTF_8));
                }
                data = join(lines, eol, r.nextBoolean());
            }
            case 1 -> {
                what = "missing field";
                lines.set(target, dropField(f, lines.get(target)));
                data = join(lines, eol, true);
            }
            case 2 -> {
                what = "extra field";
                lines.set(
                        target,
                        concat(
                                lines.get(target),
                                f == TextParser.Format.JSON_EACH_ROW ? "" : (sep(f) + "extra")));
                if (f == TextParser.Format.JSON_EACH_ROW) {
                    lines.set(
                            target,
                            jsonInsert(
                                    lines.get(target),
                                    r.nextBoolean()
                                            ? "\"zz\":[1,{\"a\":\"}\"}],"
                                            : "\"zz\":1 \"y\":2,"));
                }
                data = join(lines, eol, true);
            }
            case 3 -> {
                what = "open quote";
                lines.set(target, insertAt(lines.get(target), "\"", r));
                data = join(lines, eol, r.nextBoolean());
            }
            case 4 -> {
                what = "bad escape";
                String[] esc = {
                    "\\", "\\x4", "\\q", "\\%", "\\x", "\\u12", "\\ud800", "\\'", "\\\t"
                };
                lines.set(target, insertAt(lines.get(target), esc[r.nextInt(esc.length)], r));
                data = join(lines, eol, r.nextBoolean());
            }
            case 5 -> {
                what = "CR/LF mix";
                String[] eols = {"\r", "\n\r", "\r\n", "\r\r\n"};
                ByteArrayOutputStream o = new ByteArrayOutputStream();
                for (int k = 0; k < lines.size(); k++) {
                    o.writeBytes(lines.get(k));
                    o.writeBytes(
                            (r.nextBoolean() ? eols[r.nextInt(eols.length)] : "\n")
                                    .getBytes(StandardCharsets.US_ASCII));
                }
                data = o.toByteArray();
            }
            case 6 -> {
                what = "BOM";
                data =
                        concat(
                                new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                                join(lines, eol, true));
            }
            case 7 -> {
                what = "empty lines";
                int at = r.nextInt(lines.size() + 1);
                lines.add(at, new byte[0]);
                if (r.nextBoolean()) {
                    lines.add(new byte[0]);
                }
                data = join(lines, eol, r.nextBoolean());
            }
            case 8, 9 -> {
                what = "truncated";
                byte[] all = join(lines, eol, true);
                data = java.util.Arrays.copyOf(all, r.nextInt(all.length + 1));
            }
            case 10, 11, 12 -> {
                what = "wrong type";
                lines.set(target, replaceValue(f, s, lines.get(target)));
                data = join(lines, eol, true);
            }
            default -> {
                what = "mixed damage";
                byte[] all = join(lines, eol, true);
                for (int k = 0; k < 2; k++) {
                    int p = all.length == 0 ? 0 : r.nextInt(all.length);
                    byte[] junk = {
                        '"', ',', '\t', '\n', '\\', '{', '}', '[', ']', ' ', (byte) 0xC3
                    };
                    all =
                            insertAt(
                                    all,
                                    new String(
                                            new byte[] {junk[r.nextInt(junk.length)]},
                                            StandardCharsets.ISO_8859_1),
                                    p);
                }
                data = all;
            }
        }
        return new Case(what + " #" + i + " of " + s.structure(), f, s.structure(), data);
    }

    private static String sep(TextParser.Format f) {
        return f == TextParser.Format.CSV || f == TextParser.Format.CSV_WITH_NAMES ? "," : "\t";
    }

    private byte[] dropField(TextParser.Format f, byte[] line) {
        if (f == TextParser.Format.JSON_EACH_ROW) {
            String s = new String(line, StandardCharsets.ISO_8859_1);
            int close = s.lastIndexOf('}');
            return close > 1 && r.nextBoolean()
                    ? s.substring(0, close).getBytes(StandardCharsets.ISO_8859_1) // a missing brace
                    : s.replaceFirst(":", "").getBytes(StandardCharsets.ISO_8859_1); // no colon
        }
        String s = new String(line, StandardCharsets.ISO_8859_1);
        int cut = s.lastIndexOf(sep(f));
        return cut < 0 ? new byte[0] : s.substring(0, cut).getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] jsonInsert(byte[] line, String member) {
        String s = new String(line, StandardCharsets.ISO_8859_1);
        return ("{" + member + s.substring(1)).getBytes(StandardCharsets.ISO_8859_1);
    }

    private byte[] replaceValue(TextParser.Format f, Schema s, byte[] line) {
        String w = WRONG[r.nextInt(WRONG.length)];
        String text = new String(line, StandardCharsets.ISO_8859_1);
        String wBytes = new String(w.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        if (f == TextParser.Format.JSON_EACH_ROW) {
            int c = s.names().length;
            String key = "\"" + s.names()[r.nextInt(c)] + "\"";
            int at = text.indexOf(key);
            if (at < 0) {
                return line;
            }
            int v = text.indexOf(':', at) + 1;
            int end = v;
            int depth = 0;
            boolean q = false;
            while (end < text.length()) {
                char ch = text.charAt(end);
                if (ch == '\\' && q) {
                    end += 2;
                    continue;
                }
                if (ch == '"') {
                    q = !q;
                } else if (!q && (ch == '[' || ch == '{')) {
                    depth++;
                } else if (!q && (ch == ']' || ch == '}')) {
                    if (depth == 0) {
                        break;
                    }
                    depth--;
                } else if (!q && depth == 0 && ch == ',') {
                    break;
                }
                end++;
            }
            String repl = r.nextBoolean() ? wBytes : "\"" + wBytes + "\"";
            return (text.substring(0, v) + repl + text.substring(Math.min(end, text.length())))
                    .getBytes(StandardCharsets.ISO_8859_1);
        }
        String sp = sep(f);
        String[] parts = text.split(java.util.regex.Pattern.quote(sp), -1);
        int k = r.nextInt(parts.length);
        parts[k] = wBytes;
        return String.join(sp, parts).getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] insertAt(byte[] b, String s, Random r) {
        return insertAt(b, s, b.length == 0 ? 0 : r.nextInt(b.length + 1));
    }

    private static byte[] insertAt(byte[] b, String s, int p) {
        byte[] x = s.getBytes(StandardCharsets.ISO_8859_1);
        byte[] out = new byte[b.length + x.length];
        System.arraycopy(b, 0, out, 0, p);
        System.arraycopy(x, 0, out, p, x.length);
        System.arraycopy(b, p, out, p + x.length, b.length - p);
        return out;
    }

    private static byte[] concat(byte[] a, String s) {
        return concat(a, s.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
