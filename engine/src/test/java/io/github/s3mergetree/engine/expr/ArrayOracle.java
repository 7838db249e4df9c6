package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Test helper: evaluates an expression over columns of Array, Map and scalar types with our engine
 * and with chDB over the same rows and reports every difference in result type or value.
 *
 * <p>Values are Java objects: {@code null} for NULL, {@link String} for String values, {@link Long}
 * for integers (UInt64 as its bit pattern), {@link List} for arrays, and a list of two-element
 * lists ({@code [key, value]}) for maps. Results are rendered on both sides as text ({@code [..]},
 * hex strings in quotes, decimal integers, {@code N} for NULL) so that no text escaping can hide or
 * invent a difference.
 */
final class ArrayOracle {
    private final ChDb db;
    private final Set<String> checkedSources = new HashSet<>();

    ArrayOracle(ChDb db) {
        this.db = db;
    }

    /** One input column. */
    record Input(String name, DataType type, List<Object> values) {}

    /** Compares {@code expr}; returns the differences (empty if none). */
    List<String> compare(String expr, List<Input> inputs) {
        int n = inputs.get(0).values().size();
        Map<String, DataType> cols = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        List<Column> columns = new ArrayList<>();
        for (Input in : inputs) {
            cols.put(in.name(), in.type());
            names.add(in.name());
            types.add(in.type());
            Column c = Columns.create(in.type(), n);
            for (Object v : in.values()) {
                append(in.type(), c, v);
            }
            columns.add(c);
        }
        Expr e = ExprParser.parse(expr, cols);
        Column result = e.evaluate(new Block(names, types, columns), EvaluationContext.utc());
        String src = source(inputs);
        if (checkedSources.add(src)) {
            for (Input in : inputs) {
                String t =
                        db.query("SELECT toTypeName(" + in.name() + ") FROM (" + src + ") LIMIT 1");
                if (!ExprOracle.unescape(t).equals(in.type().name())) {
                    throw new AssertionError(
                            "test setup: chDB column " + in.name() + " has type " + t);
                }
            }
        }
        List<String> mismatches = new ArrayList<>();
        String chType =
                ExprOracle.unescape(
                        db.query("SELECT toTypeName(" + expr + ") FROM (" + src + ") LIMIT 1"));
        if (!chType.equals(e.resultType().name())) {
            mismatches.add(expr + ": type: ours " + e.resultType().name() + ", chDB " + chType);
        }
        String out =
                db.query(
                        "SELECT r, "
                                + renderSql(expr, e.resultType(), 0)
                                + " FROM ("
                                + src
                                + ") ORDER BY r");
        String[] lines = out.split("\n", -1);
        for (int i = 0; i < n; i++) {
            String ours = render(result, e.resultType(), i);
            String theirs = i < lines.length ? lines[i].substring(lines[i].indexOf('\t') + 1) : "?";
            if (!ours.equals(theirs)) {
                StringBuilder b = new StringBuilder(expr + ": row " + i + " (");
                for (Input in : inputs) {
                    b.append(in.name())
                            .append('=')
                            .append(literal(in.values().get(i), in.type()))
                            .append(' ');
                }
                mismatches.add(b + "): ours " + ours + ", chDB " + theirs);
            }
        }
        return mismatches;
    }

    /** Appends the value {@code v} of type {@code t} to {@code c}. */
    static void append(DataType t, Column c, Object v) {
        if (t instanceof LowCardinalityType lc) {
            append(lc.nested(), c, v);
            return;
        }
        if (t instanceof NullableType nt) {
            NullableColumn nc = (NullableColumn) c;
            if (v == null) {
                nc.addNull();
            } else {
                append(nt.nested(), nc.nested(), v);
                nc.addNotNull();
            }
            return;
        }
        if (t instanceof ArrayType at) {
            ArrayColumn ac = (ArrayColumn) c;
            for (Object e : (List<?>) v) {
                append(at.element(), ac.elements(), e);
            }
            ac.endRow();
            return;
        }
        if (t instanceof MapType mt) {
            ArrayColumn ac = (ArrayColumn) c;
            TupleColumn tc = (TupleColumn) ac.elements();
            for (Object e : (List<?>) v) {
                List<?> kv = (List<?>) e;
                append(mt.key(), tc.element(0), kv.get(0));
                append(mt.value(), tc.element(1), kv.get(1));
            }
            ac.endRow();
            return;
        }
        if (t.kind() == TypeKind.STRING) {
            ((StringColumn) c).add((String) v);
            return;
        }
        if (v instanceof Double d) {
            if (c instanceof FloatColumn f) {
                f.add((float) (double) d);
            } else {
                ((DoubleColumn) c).add(d);
            }
            return;
        }
        long x = (Long) v;
        if (c instanceof ByteColumn b) {
            b.add((byte) x);
        } else if (c instanceof ShortColumn s) {
            s.add((short) x);
        } else if (c instanceof IntColumn i) {
            i.add((int) x);
        } else if (c instanceof LongColumn l) {
            l.add(x);
        } else {
            throw new IllegalArgumentException("unsupported test type " + t.name());
        }
    }

    /** The SQL literal of value {@code v} of type {@code t} (a Map as its tuple array). */
    static String literal(Object v, DataType t) {
        t = Vectors.stripLowCardinality(t);
        if (v == null) {
            return "NULL";
        }
        if (t instanceof NullableType nt) {
            return literal(v, nt.nested());
        }
        if (v instanceof String s) {
            return SqlLexer.quoteString(s);
        }
        if (v instanceof Double d) {
            return d.isNaN()
                    ? "nan"
                    : d.isInfinite() ? (d > 0 ? "inf" : "-inf") : Double.toString(d);
        }
        if (v instanceof Long l) {
            return t.kind() == TypeKind.UINT64 ? Long.toUnsignedString(l) : Long.toString(l);
        }
        List<?> list = (List<?>) v;
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < list.size(); i++) {
            b.append(i > 0 ? ", " : "");
            if (t instanceof MapType m) {
                List<?> kv = (List<?>) list.get(i);
                b.append('(')
                        .append(literal(kv.get(0), m.key()))
                        .append(", ")
                        .append(literal(kv.get(1), m.value()))
                        .append(')');
            } else {
                b.append(literal(list.get(i), ((ArrayType) t).element()));
            }
        }
        return b.append(']').toString();
    }

    /** The literal structure type of a column (no LowCardinality, a Map as its tuple array). */
    static String rawType(DataType t) {
        DataType s = ComparableValues.stripLowCardinalityDeep(t);
        if (s instanceof MapType m) {
            return "Array(Tuple(" + m.key().name() + ", " + m.value().name() + "))";
        }
        return s.name();
    }

    static String source(List<Input> inputs) {
        StringBuilder structure = new StringBuilder("r UInt32");
        StringBuilder sel = new StringBuilder("SELECT r");
        for (Input in : inputs) {
            structure.append(", ").append(in.name()).append("_raw ").append(rawType(in.type()));
            sel.append(", CAST(")
                    .append(in.name())
                    .append("_raw, ")
                    .append(SqlLexer.quoteString(in.type().name()))
                    .append(") AS ")
                    .append(in.name());
        }
        StringBuilder rows = new StringBuilder();
        int n = inputs.get(0).values().size();
        for (int i = 0; i < n; i++) {
            rows.append(", (").append(i);
            for (Input in : inputs) {
                Object v = in.values().get(i);
                rows.append(", ").append(literal(v, in.type()));
            }
            rows.append(')');
        }
        return sel + " FROM values(" + SqlLexer.quoteString(structure.toString()) + rows + ")";
    }

    static String renderSql(String x, DataType t, int depth) {
        t = Vectors.stripLowCardinality(t);
        if (t instanceof NullableType nt) {
            return "if(isNull("
                    + x
                    + "), 'N', "
                    + renderSql("assumeNotNull(" + x + ")", nt.nested(), depth)
                    + ")";
        }
        if (t instanceof ArrayType at) {
            String v = "e" + depth;
            return "concat('[', arrayStringConcat(arrayMap("
                    + v
                    + " -> "
                    + renderSql(v, at.element(), depth + 1)
                    + ", "
                    + x
                    + "), ','), ']')";
        }
        if (t.kind() == TypeKind.STRING || t.kind() == TypeKind.FIXED_STRING) {
            return "concat('\"', hex(" + x + "), '\"')";
        }
        if (t.kind() == TypeKind.FLOAT32 || t.kind() == TypeKind.FLOAT64) {
            return "toString(reinterpretAsUInt64(toFloat64(" + x + ")))";
        }
        return "toString(" + x + ")";
    }

    static String render(Column c, DataType t, int i) {
        t = Vectors.stripLowCardinality(t);
        if (t instanceof NullableType nt) {
            NullableColumn nc = (NullableColumn) c;
            return nc.isNull(i) ? "N" : render(nc.nested(), nt.nested(), i);
        }
        if (t instanceof ArrayType at) {
            ArrayColumn ac = (ArrayColumn) c;
            StringBuilder b = new StringBuilder("[");
            for (int j = ac.start(i); j < ac.end(i); j++) {
                b.append(j > ac.start(i) ? "," : "").append(render(ac.elements(), at.element(), j));
            }
            return b.append(']').toString();
        }
        if (t.kind() == TypeKind.STRING) {
            StringColumn s = (StringColumn) c;
            byte[] b = new byte[s.length(i)];
            System.arraycopy(s.bytes(), s.start(i), b, 0, b.length);
            return "\"" + HexFormat.of().withUpperCase().formatHex(b) + "\"";
        }
        if (t.kind() == TypeKind.FLOAT32 || t.kind() == TypeKind.FLOAT64) {
            double d = Vectors.doubles(c, t, i + 1)[i];
            return Long.toUnsignedString(Double.doubleToRawLongBits(d));
        }
        long v = Vectors.longs(c, t, i + 1)[i];
        return t.kind() == TypeKind.UINT64 ? Long.toUnsignedString(v) : Long.toString(v);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
