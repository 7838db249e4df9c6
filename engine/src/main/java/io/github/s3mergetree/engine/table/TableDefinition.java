package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.Objects;

/**
 * A table's {@code CREATE TABLE} statement together with its parsed and validated {@link
 * TableSchema}: the DDL parsed once where it enters (a sink builder, a SQL factory, a command, a
 * job's main) and passed on parsed to everything that needs the table, instead of a string every
 * consumer parses again (a parse tokenizes and validates the whole statement on a thread of its
 * own).
 *
 * <p>Serializable as the statement's text alone: a copy that crosses a serialization boundary
 * (Flink ships a sink to each of its tasks) parses the text again, once, the first time its schema
 * is asked for, so each task that uses the table parses it once, whatever uses it there, and a copy
 * nothing uses (Flink deserializes a job's functions in more places than its tasks) parses nothing.
 */
public final class TableDefinition implements Serializable {
    @Serial private static final long serialVersionUID = 1L;

    private final String ddl;
    private transient TableSchema schema;
    private transient TableLayout utcLayout;

    private TableDefinition(String ddl, TableSchema schema) {
        this.ddl = Objects.requireNonNull(ddl, "ddl");
        this.schema = Objects.requireNonNull(schema, "schema");
    }

    /**
     * Parses and validates {@code ddl} ({@link TableSchema#parse}).
     *
     * @throws io.github.s3mergetree.engine.ddl.DdlParseException if the statement is malformed or
     *     ClickHouse would reject it
     * @throws io.github.s3mergetree.engine.ddl.UnsupportedDdlException if it uses something this
     *     engine cannot honour
     */
    public static TableDefinition parse(String ddl) {
        return new TableDefinition(ddl, TableSchema.parse(ddl));
    }

    /** The statement as it was given (not the canonical form: see {@link #storedDdl()}). */
    public String ddl() {
        return ddl;
    }

    /** The parsed table (parsed here the first time in a deserialized copy). */
    public synchronized TableSchema schema() {
        if (schema == null) {
            schema = TableSchema.parse(ddl);
        }
        return schema;
    }

    /**
     * The canonical statement the engine stores with the table and compares a reopened table's DDL
     * with ({@link TableSchema#toCreateTableSql()}, the {@link TableLayout#ddl()} of every layout
     * of this table).
     */
    public String storedDdl() {
        return schema().toCreateTableSql();
    }

    /**
     * The table's layout with UTC as the server time zone and {@code optimize_on_insert = 1}
     * ({@link TableLayouts#fromDdl}), resolved once.
     *
     * @throws IllegalArgumentException if the engine cannot write the table (see {@link
     *     TableLayouts#fromSchema})
     */
    public synchronized TableLayout utcLayout() {
        if (utcLayout == null) {
            utcLayout = TableLayouts.fromSchema(schema(), EvaluationContext.utc(), true);
        }
        return utcLayout;
    }

    @Serial
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        if (ddl == null) {
            throw new java.io.InvalidObjectException("a table definition without its DDL");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableDefinition d && d.ddl.equals(ddl);
    }

    @Override
    public int hashCode() {
        return ddl.hashCode();
    }
}
