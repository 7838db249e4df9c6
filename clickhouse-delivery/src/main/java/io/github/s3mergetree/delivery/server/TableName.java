package io.github.s3mergetree.delivery.server;

import java.io.Serializable;
import java.util.Objects;

/**
 * A ClickHouse table name {@code database.table} (as {@code --clickhouse-table} takes it), with the
 * quoting ClickHouse's SQL needs.
 */
public record TableName(String database, String table) implements Serializable {
    public TableName {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
        if (database.isEmpty() || table.isEmpty()) {
            throw new IllegalArgumentException("database and table must not be empty");
        }
    }

    /**
     * Parses {@code db.table} (either part may be back-quoted); a name without a database means
     * {@code default}.
     *
     * @throws IllegalArgumentException naming the value if it is not such a name
     */
    public static TableName parse(String name) {
        return parse("--clickhouse-table", name);
    }

    /**
     * {@link #parse(String)}, with messages that name the table's option as its caller calls it
     * ({@code --clickhouse-table} on the command line, {@code clickhouse.table} in a SQL table's
     * options).
     */
    public static TableName parse(String option, String name) {
        Objects.requireNonNull(name, option);
        String s = name.trim();
        String first;
        String rest;
        int i;
        if (s.startsWith("`")) {
            int end = s.indexOf('`', 1);
            if (end < 0) {
                throw bad(option, name);
            }
            first = s.substring(1, end);
            i = end + 1;
        } else {
            int dot = s.indexOf('.');
            first = dot < 0 ? s : s.substring(0, dot);
            i = dot < 0 ? s.length() : dot;
        }
        if (i == s.length()) {
            return checked(option, "default", first, name);
        }
        if (s.charAt(i) != '.') {
            throw bad(option, name);
        }
        rest = s.substring(i + 1);
        if (rest.startsWith("`") && rest.endsWith("`") && rest.length() >= 2) {
            rest = rest.substring(1, rest.length() - 1);
        }
        return checked(option, first, rest, name);
    }

    private static TableName checked(
            String option, String database, String table, String original) {
        TableName t;
        try {
            t = new TableName(database, table);
        } catch (IllegalArgumentException e) {
            throw bad(option, original);
        }
        if (t.database.isEmpty()
                || t.table.isEmpty()
                || t.table.contains("`")
                || t.database.contains("`")) {
            throw bad(option, original);
        }
        return t;
    }

    private static IllegalArgumentException bad(String option, String name) {
        return new IllegalArgumentException(
                option + " must be database.table (e.g. default.posts), got: " + name);
    }

    /** {@code `db`.`table`} for SQL. */
    public String sql() {
        return quote(database) + "." + quote(table);
    }

    /** A back-quoted identifier. */
    public static String quote(String identifier) {
        return "`" + identifier.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }

    /** A single-quoted string literal. */
    public static String literal(String value) {
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    @Override
    public String toString() {
        return database + "." + table;
    }
}
