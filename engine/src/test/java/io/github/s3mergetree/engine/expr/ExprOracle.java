package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DateTime64Type;
import io.github.s3mergetree.engine.types.DateTimeType;
import io.github.s3mergetree.engine.types.FixedStringType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test helper: evaluates an expression with our engine and with chDB over the same typed input rows
 * and reports every difference in result type or value.
 */
final class ExprOracle {
    private final ChDb db;
    private final java.util.Set<String> checkedSources = new java.util.HashSet<>();

    ExprOracle(ChDb db) {
        this.db = db;
    }

    /** One input column: its name, type and per-row raw values. */
    static final class Input {
        final String name;
        final DataType type;
        final long[] raw;
        final String[] strings;
        final boolean[] nulls;

        Input(String name, DataType type, long[] raw) {
            this(name, type, raw, null, null);
        }

        Input(String name, DataType type, String[] strings) {
            this(name, type, null, strings, null);
        }

        Input(String name, DataType type, long[] raw, String[] strings, boolean[] nulls) {
            this.name = name;
            this.type = type;
            this.raw = raw;
            this.strings = strings;
            this.nulls = nulls;
        }

        int rows() {
            return raw != null ? raw.length : strings.length;
        }
    }

    /** The outcome of one comparison. */
    record Outcome(
            String ourType,
            String chType,
            List<String> ours,
            List<String> theirs,
            List<String> mismatches) {}

    Outcome compare(String expr, List<Input> inputs, ZoneId serverZone) {
        int n = inputs.get(0).rows();
        Map<String, DataType> cols = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        List<Column> columns = new ArrayList<>();
        for (Input in : inputs) {
            cols.put(in.name, in.type);
            names.add(in.name);
            types.add(in.type);
            columns.add(buildColumn(in));
        }
        Expr e = ExprParser.parse(expr, cols);
        Block block = new Block(names, types, columns);
        Column result = e.evaluate(block, EvaluationContext.of(serverZone));
        List<String> ours = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ours.add(render(result, e.resultType(), i));
        }
        String src = source(inputs);
        String settings =
                serverZone.getId().equals("UTC") || serverZone.getId().equals("Z")
                        ? ""
                        : " SETTINGS session_timezone = '" + serverZone.getId() + "'";
        // the inputs must have the intended types (checked once per input set)
        for (Input in : checkedSources.add(src + settings) ? inputs : List.<Input>of()) {
            String t =
                    db.query(
                            "SELECT toTypeName("
                                    + in.name
                                    + ") FROM ("
                                    + src
                                    + ") LIMIT 1"
                                    + settings);
            if (!unescape(t).equals(in.type.name())) {
                throw new AssertionError(
                        "test setup: chDB column "
                                + in.name
                                + " has type "
                                + t
                                + ", wanted "
                                + in.type.name());
            }
        }
        String chType =
                unescape(
                        db.query(
                                "SELECT toTypeName("
                                        + expr
                                        + ") FROM ("
                                        + src
                                        + ") LIMIT 1"
                                        + settings));
        List<String> theirs = new ArrayList<>();
        String out =
                db.query(
                        "SELECT "
                                + renderSql(expr, e.resultType())
                                + " FROM ("
                                + src
                                + ") ORDER BY r"
                                + settings);
        for (String line : out.split("\n", -1)) {
            theirs.add(line);
        }
        // the text protocol drops trailing empty lines: rows whose value renders as ''
        while (theirs.size() < n) {
            theirs.add("");
        }
        List<String> mismatches = new ArrayList<>();
        if (!chType.equals(e.resultType().name())) {
            mismatches.add("type: ours " + e.resultType().name() + ", chDB " + chType);
        }
        for (int i = 0; i < n; i++) {
            String t = i < theirs.size() ? theirs.get(i) : "<missing>";
            if (!ours.get(i).equals(t)) {
                StringBuilder b = new StringBuilder("row " + i + " (");
                for (Input in : inputs) {
                    b.append(in.name).append('=').append(rawText(in, i)).append(' ');
                }
                b.append("): ours ").append(ours.get(i)).append(", chDB ").append(t);
                mismatches.add(b.toString());
            }
        }
        return new Outcome(e.resultType().name(), chType, ours, theirs, mismatches);
    }

    /** Runs {@code expr} in chDB over the inputs and returns ClickHouse's error, or null. */
    String chDbError(String expr, List<Input> inputs) {
        try {
            db.query("SELECT " + expr + " FROM (" + source(inputs) + ") ORDER BY r");
            return null;
        } catch (ChDbException e) {
            return e.clickHouseMessage();
        }
    }

    static String unescape(String s) {
        return s.replace("\\'", "'").replace("\\\\", "\\");
    }

    static String rawText(Input in, int i) {
        if (in.nulls != null && in.nulls[i]) {
            return "NULL";
        }
        if (in.strings != null) {
            return "'" + in.strings[i] + "'";
        }
        return in.type.kind() == TypeKind.UINT64
                ? Long.toUnsignedString(in.raw[i])
                : Long.toString(in.raw[i]);
    }

    static Column buildColumn(Input in) {
        int n = in.rows();
        DataType t = Vectors.stripLowCardinality(in.type);
        if (t instanceof NullableType nt) {
            ByteColumn map = new ByteColumn(n);
            for (int i = 0; i < n; i++) {
                map.add((byte) (in.nulls[i] ? 1 : 0));
            }
            Input inner = new Input(in.name, nt.nested(), in.raw, in.strings, null);
            return new NullableColumn(map, buildColumn(inner));
        }
        if (in.strings != null) {
            if (t instanceof FixedStringType ft) {
                FixedBytesColumn c = new FixedBytesColumn(ft.length(), n);
                for (String s : in.strings) {
                    byte[] b = s.getBytes(StandardCharsets.UTF_8);
                    c.addPadded(b, 0, b.length);
                }
                return c;
            }
            StringColumn c = new StringColumn(n);
            for (String s : in.strings) {
                c.add(s);
            }
            return c;
        }
        if (t.kind() == TypeKind.FLOAT64 || t.kind() == TypeKind.FLOAT32) {
            double[] d = new double[n];
            for (int i = 0; i < n; i++) {
                d[i] = Double.longBitsToDouble(in.raw[i]);
            }
            return Vectors.fromDoubles(d, n, t);
        }
        return Vectors.fromLongs(in.raw, n, t);
    }

    private static String literal(Input in, int i) {
        if (in.nulls != null && in.nulls[i]) {
            return "NULL";
        }
        if (in.strings != null) {
            return SqlLexer.quoteString(in.strings[i]);
        }
        DataType t = baseType(in.type);
        if (t.kind() == TypeKind.FLOAT64 || t.kind() == TypeKind.FLOAT32) {
            return "reinterpretAsFloat64(toUInt64(" + Long.toUnsignedString(in.raw[i]) + "))";
        }
        return t.kind() == TypeKind.UINT64
                ? Long.toUnsignedString(in.raw[i])
                : Long.toString(in.raw[i]);
    }

    static DataType baseType(DataType t) {
        t = Vectors.stripLowCardinality(t);
        return t instanceof NullableType n ? n.nested() : t;
    }

    /** The raw (literal) type in the values() table for a column of type t. */
    private static String rawType(DataType t) {
        DataType b = baseType(t);
        String raw =
                switch (b.kind()) {
                    case BOOL -> "UInt8";
                    case DATE -> "UInt16";
                    case DATE32 -> "Int32";
                    case DATETIME -> "UInt32";
                    case DATETIME64 -> "Int64";
                    case ENUM8 -> "Int8";
                    case ENUM16 -> "Int16";
                    case FIXED_STRING, STRING -> "String";
                    case FLOAT32, FLOAT64 -> "Float64";
                    default -> b.name();
                };
        return Vectors.stripLowCardinality(t) instanceof NullableType
                ? "Nullable(" + raw + ")"
                : raw;
    }

    private static String conversion(DataType t, String raw) {
        boolean lc = t instanceof LowCardinalityType;
        DataType inner = Vectors.stripLowCardinality(t);
        boolean nullable = inner instanceof NullableType;
        DataType b = baseType(t);
        String v = nullable ? "assumeNotNull(" + raw + ")" : raw;
        String conv =
                switch (b.kind()) {
                    case BOOL, DATE, DATE32, ENUM8, ENUM16, DATETIME ->
                            "CAST(" + v + ", " + quoteType(b) + ")";
                    case DATETIME64 -> dt64(b, v);
                    case FIXED_STRING ->
                            "toFixedString(" + v + ", " + ((FixedStringType) b).length() + ")";
                    case FLOAT32 -> "toFloat32(" + v + ")";
                    default -> v;
                };
        if (nullable) {
            conv = "if(isNull(" + raw + "), NULL, " + conv + ")";
        }
        if (lc) {
            conv = "toLowCardinality(" + conv + ")";
        }
        return conv;
    }

    private static String quoteType(DataType t) {
        return "'" + t.name().replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    private static String dt64(DataType t, String v) {
        DateTime64Type d = (DateTime64Type) t;
        String tz = d.timeZone().map(z -> ", '" + z + "'").orElse("");
        return switch (d.precision()) {
            case 0 -> "fromUnixTimestamp64Second(" + v + tz + ")";
            case 3 -> "fromUnixTimestamp64Milli(" + v + tz + ")";
            case 6 -> "fromUnixTimestamp64Micro(" + v + tz + ")";
            case 9 -> "fromUnixTimestamp64Nano(" + v + tz + ")";
            default ->
                    "toDateTime64(toDecimal128("
                            + v
                            + ", "
                            + d.precision()
                            + ") / "
                            + (long) Math.pow(10, d.precision())
                            + ", "
                            + d.precision()
                            + tz
                            + ")";
        };
    }

    static String source(List<Input> inputs) {
        StringBuilder structure = new StringBuilder("r UInt32");
        for (Input in : inputs) {
            structure.append(", ").append(in.name).append("_raw ").append(rawType(in.type));
        }
        StringBuilder rows = new StringBuilder();
        int n = inputs.get(0).rows();
        for (int i = 0; i < n; i++) {
            rows.append(", (").append(i);
            for (Input in : inputs) {
                rows.append(", ").append(literal(in, i));
            }
            rows.append(')');
        }
        StringBuilder sel = new StringBuilder("SELECT r");
        for (Input in : inputs) {
            sel.append(", ")
                    .append(conversion(in.type, in.name + "_raw"))
                    .append(" AS ")
                    .append(in.name);
        }
        return sel + " FROM values(" + SqlLexer.quoteString(structure.toString()) + rows + ")";
    }

    /** SQL that renders a value of type t the way {@link #render} renders ours. */
    static String renderSql(String expr, DataType t) {
        DataType inner = Vectors.stripLowCardinality(t);
        if (inner instanceof NullableType nt) {
            String x = "assumeNotNull(" + expr + ")";
            return "if(isNull(" + expr + "), NULL, " + renderSql(x, nt.nested()) + ")";
        }
        return switch (inner.kind()) {
            case DATE, DATE32 -> "toInt32(" + expr + ")";
            case DATETIME -> "toUInt32(" + expr + ")";
            case DATETIME64 -> "toString(toUnixTimestamp64Nano(" + expr + "))";
            case STRING, FIXED_STRING -> "hex(" + expr + ")";
            case FLOAT32, FLOAT64 -> "reinterpretAsUInt64(toFloat64(" + expr + "))";
            case BOOL -> "toUInt8(" + expr + ")";
            case ENUM8, ENUM16 -> "toInt16(" + expr + ")";
            default -> expr;
        };
    }

    static String render(Column c, DataType t, int i) {
        DataType inner = Vectors.stripLowCardinality(t);
        if (inner instanceof NullableType nt) {
            NullableColumn nc = (NullableColumn) c;
            if (nc.isNull(i)) {
                return "\\N";
            }
            return render(nc.nested(), nt.nested(), i);
        }
        switch (inner.kind()) {
            case STRING:
                {
                    StringColumn s = (StringColumn) c;
                    byte[] b = new byte[s.length(i)];
                    System.arraycopy(s.bytes(), s.start(i), b, 0, b.length);
                    return HexFormat.of().withUpperCase().formatHex(b);
                }
            case FIXED_STRING:
                {
                    FixedBytesColumn f = (FixedBytesColumn) c;
                    byte[] b = new byte[f.width()];
                    System.arraycopy(f.data(), i * f.width(), b, 0, b.length);
                    return HexFormat.of().withUpperCase().formatHex(b);
                }
            case FLOAT32:
                return Long.toUnsignedString(
                        Double.doubleToRawLongBits(((FloatColumn) c).data()[i]));
            case FLOAT64:
                return Long.toUnsignedString(
                        Double.doubleToRawLongBits(((DoubleColumn) c).data()[i]));
            case DATETIME64:
                {
                    long v = Vectors.longs(c, inner, i + 1)[i];
                    long scale = ((DateTime64Type) inner).ticksPerSecond();
                    return Long.toString(v * (1_000_000_000L / scale));
                }
            default:
                {
                    long v = Vectors.longs(c, inner, i + 1)[i];
                    return inner.kind() == TypeKind.UINT64
                            ? Long.toUnsignedString(v)
                            : Long.toString(v);
                }
        }
    }

    static DataType dateTime(String tz) {
        return new DateTimeType(tz);
    }
}
