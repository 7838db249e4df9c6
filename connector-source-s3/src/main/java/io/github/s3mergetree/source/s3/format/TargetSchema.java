package io.github.s3mergetree.source.s3.format;

import io.github.s3mergetree.engine.ddl.ColumnDefinition;
import io.github.s3mergetree.engine.ddl.DefaultKind;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The columns the consumer wants, in its order: names and ClickHouse types, typically the columns
 * of the target table's {@code CREATE TABLE}. Input columns are matched by name; a column missing
 * from an object gets its type's default value.
 *
 * <p>Serializable as names and canonical type names, so it can travel inside a {@link
 * org.apache.flink.api.common.typeinfo.TypeInformation}.
 */
@PublicEvolving
public final class TargetSchema implements Serializable {
    private static final long serialVersionUID = 1L;

    private final List<String> names;
    private final List<String> typeNames;
    private transient List<DataType> types;

    private TargetSchema(List<String> names, List<DataType> types) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("a target schema needs at least one column");
        }
        if (names.size() != types.size()) {
            throw new IllegalArgumentException(
                    names.size() + " column names but " + types.size() + " types");
        }
        HashSet<String> seen = new HashSet<>();
        for (String n : names) {
            if (n == null || n.isEmpty()) {
                throw new IllegalArgumentException("column names must not be empty: " + names);
            }
            if (!seen.add(n)) {
                throw new IllegalArgumentException("duplicate column name '" + n + "'");
            }
        }
        this.names = List.copyOf(names);
        this.types = List.copyOf(types);
        List<String> tn = new ArrayList<>();
        for (DataType t : types) {
            tn.add(t.name());
        }
        this.typeNames = List.copyOf(tn);
    }

    /** A schema of the given names and types. */
    public static TargetSchema of(List<String> names, List<DataType> types) {
        return new TargetSchema(names, types);
    }

    /**
     * Parses a column list as in {@code CREATE TABLE t (a UInt64, b LowCardinality(String), ...)}
     * (without the parentheses). Clauses after a type ({@code DEFAULT}, {@code CODEC}, comments)
     * are ignored; names may be back-quoted.
     */
    public static TargetSchema parse(String columns) {
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        for (String def : splitTopLevel(columns)) {
            String d = def.strip();
            if (d.isEmpty()) {
                continue;
            }
            String name;
            int rest;
            if (d.startsWith("`") || d.startsWith("\"")) {
                char q = d.charAt(0);
                int close = d.indexOf(q, 1);
                if (close < 0) {
                    throw new IllegalArgumentException("unclosed quote in column '" + d + "'");
                }
                name = d.substring(1, close);
                rest = close + 1;
            } else {
                int i = 0;
                while (i < d.length() && !Character.isWhitespace(d.charAt(i))) {
                    i++;
                }
                name = d.substring(0, i);
                rest = i;
            }
            if (rest >= d.length()) {
                throw new IllegalArgumentException("column '" + name + "' has no type");
            }
            try {
                types.add(DataTypeParser.parsePrefix(d, rest).type());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("column '" + name + "': " + e.getMessage(), e);
            }
            names.add(name);
        }
        return new TargetSchema(names, types);
    }

    /**
     * The columns an {@code INSERT} into the table of {@code CREATE TABLE} statement {@code ddl}
     * may write: every column but {@code MATERIALIZED} and {@code ALIAS} ones, in table order.
     *
     * @throws IllegalArgumentException when the DDL does not parse
     */
    public static TargetSchema forTable(String ddl) {
        TableSchema table;
        try {
            table = TableSchema.parse(ddl);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid table DDL: " + e.getMessage(), e);
        }
        return insertableColumns(table);
    }

    /** The columns an {@code INSERT} into {@code table} may write (see {@link #forTable}). */
    public static TargetSchema insertableColumns(TableSchema table) {
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        for (ColumnDefinition c : table.columns()) {
            if (c.defaultKind() != DefaultKind.MATERIALIZED
                    && c.defaultKind() != DefaultKind.ALIAS) {
                names.add(c.name());
                types.add(c.type());
            }
        }
        return new TargetSchema(names, types);
    }

    /** The columns named {@code keep}, in that order. */
    public TargetSchema project(List<String> keep) {
        List<DataType> t = new ArrayList<>(keep.size());
        for (String n : keep) {
            int i = indexOf(n);
            if (i < 0) {
                throw new IllegalArgumentException("no column '" + n + "' in " + this);
            }
            t.add(types().get(i));
        }
        return new TargetSchema(keep, t);
    }

    private static List<String> splitTopLevel(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        char quote = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '`' || c == '"') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }

    public List<String> names() {
        return names;
    }

    public List<DataType> types() {
        if (types == null) {
            List<DataType> t = new ArrayList<>();
            for (String n : typeNames) {
                t.add(DataTypeParser.parse(n));
            }
            types = List.copyOf(t);
        }
        return types;
    }

    public int size() {
        return names.size();
    }

    /** The index of column {@code name}, or -1. */
    public int indexOf(String name) {
        return names.indexOf(name);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TargetSchema s
                && s.names.equals(names)
                && s.typeNames.equals(typeNames);
    }

    @Override
    public int hashCode() {
        return Objects.hash(names, typeNames);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) {
                b.append(", ");
            }
            b.append(names.get(i)).append(' ').append(typeNames.get(i));
        }
        return b.toString();
    }
}
