package io.github.s3mergetree.engine.ttl;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.GatheredFixedColumn;
import io.github.s3mergetree.engine.column.GatheredStringColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.ddl.ColumnDefinition;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.ddl.TtlRule;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.expr.Expr;
import io.github.s3mergetree.engine.part.TtlInfos;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DateTime64Type;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * A table's TTL rules, typed: the row TTL (a rule without {@code WHERE}), the rules with {@code
 * WHERE} and the column TTLs, and how to compute a part's {@code ttl.txt} times from its rows.
 *
 * <p>Why one class: inserts ({@link #infosOf}) and merges ({@link TtlMerge}) evaluate the same
 * expressions and convert their values to epoch seconds the same way ClickHouse does: a {@code
 * DateTime} as it is, a {@code Date} or {@code Date32} as the start of the day in the server time
 * zone, a {@code DateTime64} truncated towards zero to whole seconds.
 */
public final class TableTtl {
    /** The TTL of a table that has none. */
    public static final TableTtl NONE = new TableTtl(null, List.of(), List.of(), 14400, false);

    /** A rule with {@code WHERE}, keyed in {@code ttl.txt} by its printed expression. */
    public record WhereRule(String key, Expr expression, Expr where) {}

    /**
     * A column TTL.
     *
     * @param defaultExpression the column's DEFAULT / MATERIALIZED expression, typed as the column,
     *     or null (then the type's default)
     * @param stored whether the column is stored in parts (not an ALIAS)
     */
    public record ColumnRule(
            String column,
            DataType type,
            Expr expression,
            Expr defaultExpression,
            boolean stored) {}

    private final Expr rows;
    private final List<WhereRule> where;
    private final List<ColumnRule> columns;
    private final long mergeWithTtlTimeout;
    private final boolean onlyDropParts;

    TableTtl(
            Expr rows,
            List<WhereRule> where,
            List<ColumnRule> columns,
            long mergeWithTtlTimeout,
            boolean onlyDropParts) {
        this.rows = rows;
        this.where = List.copyOf(where);
        this.columns = List.copyOf(columns);
        this.mergeWithTtlTimeout = mergeWithTtlTimeout;
        this.onlyDropParts = onlyDropParts;
    }

    /**
     * {@code merge_with_ttl_timeout} (default 14400): the least seconds between two TTL merges of
     * one partition.
     */
    public long mergeWithTtlTimeoutSeconds() {
        return mergeWithTtlTimeout;
    }

    /**
     * {@code ttl_only_drop_parts}: TTL merges are chosen only for parts whose rows have all expired
     * (their largest TTL time has passed).
     */
    public boolean onlyDropParts() {
        return onlyDropParts;
    }

    /** The TTL rules of {@code schema}. */
    public static TableTtl of(TableSchema schema) {
        if (!schema.hasAnyTtl()) {
            return NONE;
        }
        Expr rows = null;
        List<WhereRule> where = new ArrayList<>();
        for (TtlRule r : schema.ttl()) {
            if (r.where().isEmpty()) {
                rows = r.expression();
            } else {
                where.add(new WhereRule(r.expression().toSql(), r.expression(), r.where().get()));
            }
        }
        List<ColumnRule> cols = new ArrayList<>();
        for (ColumnDefinition c : schema.columns()) {
            if (c.ttl().isPresent()) {
                cols.add(
                        new ColumnRule(
                                c.name(),
                                c.type(),
                                c.ttl().get(),
                                c.defaultExpression().orElse(null),
                                c.isStored()));
            }
        }
        return new TableTtl(
                rows,
                where,
                cols,
                schema.settings().getLong("merge_with_ttl_timeout", 14400),
                schema.settings().getBoolean("ttl_only_drop_parts", false));
    }

    /** Whether the table has no TTL at all. */
    public boolean isEmpty() {
        return rows == null && where.isEmpty() && columns.isEmpty();
    }

    /** The row TTL expression, or null. */
    public Expr rows() {
        return rows;
    }

    public List<WhereRule> where() {
        return where;
    }

    public List<ColumnRule> columns() {
        return columns;
    }

    /**
     * The {@code ttl.txt} times of a part written from {@code block} on insert (ClickHouse's {@code
     * updateTTL} in {@code MergeTreeDataWriter}): the row TTL and each column TTL over every row,
     * each rule with {@code WHERE} over the rows its condition holds for. Rows are never removed on
     * insert, expired or not: the next merge that applies TTL removes them.
     *
     * @return null for a table without TTL
     */
    public TtlInfos infosOf(Block block, EvaluationContext ctx) {
        if (isEmpty()) {
            return null;
        }
        block = materialized(block);
        TtlInfos infos = new TtlInfos();
        if (rows != null) {
            for (long t : times(rows, block, ctx)) {
                infos.table().update(t);
            }
            infos.updatePartMinMax(infos.table());
        }
        for (WhereRule r : where) {
            long[] t = times(r.expression(), block, ctx);
            boolean[] cond = truth(r.where(), block, ctx);
            TtlInfos.Info info = infos.rowsWhere(r.key());
            for (int i = 0; i < t.length; i++) {
                if (cond[i]) {
                    info.update(t[i]);
                }
            }
            infos.updatePartMinMax(info);
        }
        for (ColumnRule c : columns) {
            TtlInfos.Info info = infos.column(c.column());
            for (long t : times(c.expression(), block, ctx)) {
                info.update(t);
            }
            infos.updatePartMinMax(info);
        }
        return infos;
    }

    /**
     * {@code block} with the lazily gathered columns of an insert ({@link GatheredFixedColumn},
     * {@link GatheredStringColumn}) materialized, which expressions read as plain arrays.
     */
    static Block materialized(Block block) {
        List<Column> cols = null;
        for (int i = 0; i < block.columnCount(); i++) {
            Column c = block.column(i);
            Column m =
                    c instanceof GatheredFixedColumn g
                            ? g.materialize()
                            : c instanceof GatheredStringColumn s ? s.materialize() : c;
            if (m != c && cols == null) {
                cols = new ArrayList<>(block.columns());
            }
            if (cols != null) {
                cols.set(i, m);
            }
        }
        return cols == null ? block : new Block(block.names(), block.types(), cols);
    }

    /** The TTL times (epoch seconds) of {@code e} for each row of {@code block}. */
    static long[] times(Expr e, Block block, EvaluationContext ctx) {
        Column c = e.evaluate(block, ctx);
        DataType t = e.resultType();
        int n = block.rows();
        long[] out = new long[n];
        switch (t.kind()) {
            case DATE -> {
                short[] d = ((ShortColumn) c).data();
                for (int i = 0; i < n; i++) {
                    out[i] = dayStart(d[i] & 0xFFFFL, ctx);
                }
            }
            case DATE32 -> {
                int[] d = ((IntColumn) c).data();
                for (int i = 0; i < n; i++) {
                    out[i] = dayStart(d[i], ctx);
                }
            }
            case DATETIME -> {
                int[] d = ((IntColumn) c).data();
                for (int i = 0; i < n; i++) {
                    out[i] = d[i] & 0xFFFFFFFFL;
                }
            }
            case DATETIME64 -> {
                long[] d = ((LongColumn) c).data();
                long scale = ((DateTime64Type) t).ticksPerSecond();
                for (int i = 0; i < n; i++) {
                    out[i] = d[i] / scale;
                }
            }
            default ->
                    throw new IllegalStateException(
                            "TTL expression " + e.toSql() + " is of type " + t.name());
        }
        return out;
    }

    private static long dayStart(long day, EvaluationContext ctx) {
        return LocalDate.ofEpochDay(day).atStartOfDay(ctx.serverTimeZone()).toEpochSecond();
    }

    /** Whether a {@code WHERE} condition holds for each row: not zero and not NULL. */
    static boolean[] truth(Expr e, Block block, EvaluationContext ctx) {
        Column c = e.evaluate(block, ctx);
        int n = block.rows();
        boolean[] out = new boolean[n];
        Column values = c instanceof NullableColumn nc ? nc.nested() : c;
        for (int i = 0; i < n; i++) {
            boolean v =
                    switch (values.physicalType()) {
                        case BYTE -> ((ByteColumn) values).data()[i] != 0;
                        case SHORT -> ((ShortColumn) values).data()[i] != 0;
                        case INT -> ((IntColumn) values).data()[i] != 0;
                        case LONG -> ((LongColumn) values).data()[i] != 0;
                        case FLOAT -> ((FloatColumn) values).data()[i] != 0;
                        case DOUBLE -> ((DoubleColumn) values).data()[i] != 0;
                        default ->
                                throw new IllegalStateException(
                                        "TTL WHERE "
                                                + e.toSql()
                                                + " is of type "
                                                + e.resultType().name());
                    };
            out[i] = v && !(c instanceof NullableColumn nc && nc.isNull(i));
        }
        return out;
    }
}
