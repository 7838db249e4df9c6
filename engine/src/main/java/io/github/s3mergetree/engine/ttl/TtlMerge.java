package io.github.s3mergetree.engine.ttl;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.part.TtlInfos;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * TTL in one merge, as ClickHouse's {@code MergeTask} and {@code TTLTransform} apply it: the merged
 * part's {@code ttl.txt} starts as the union of its sources'; if its smallest TTL time is at or
 * before the time of the merge (or a source lacks the times of a TTL, which forces them to be
 * recalculated) the merge applies TTL to every merged row: rows past the row TTL are removed, rows
 * past a TTL with {@code WHERE} for which the condition holds are removed, values past a column TTL
 * are reset to the column's default (its DEFAULT expression, else the type's default), and the
 * times of the rows that remain become the part's.
 *
 * <p>Why here and not in the merger: the same decisions (which TTL has expired, which times a
 * finished TTL keeps) are ClickHouse's {@code TTLDeleteAlgorithm} and {@code TTLColumnAlgorithm},
 * independent of how rows are merged. A time of 0 never expires.
 */
public final class TtlMerge {
    private final TableTtl ttl;
    private final TtlInfos union;
    private final long now;
    private final boolean force;
    private final boolean applies;
    private final EvaluationContext ctx;

    private final TtlInfos.Info rowsInfo;
    private final Map<String, TtlInfos.Info> whereInfos = new HashMap<>();
    private final Map<String, TtlInfos.Info> columnInfos = new HashMap<>();
    private long rowsRemoved;

    private TtlMerge(TableTtl ttl, TtlInfos union, long now, boolean force, EvaluationContext ctx) {
        this.ttl = ttl;
        this.union = union;
        this.now = now;
        this.force = force;
        this.ctx = ctx;
        this.applies = force || (union.partMinTtl() != 0 && union.partMinTtl() <= now);
        this.rowsInfo = ttl.rows() == null ? null : start(union.table());
        for (TableTtl.WhereRule r : ttl.where()) {
            whereInfos.put(r.key(), start(union.rowsWhere().getOrDefault(r.key(), empty())));
        }
        for (TableTtl.ColumnRule c : ttl.columns()) {
            columnInfos.put(c.column(), start(union.columns().getOrDefault(c.column(), empty())));
        }
    }

    /**
     * Plans TTL for a merge of parts with {@code sources} infos (null for a source without {@code
     * ttl.txt}) at {@code now} (epoch seconds).
     *
     * @return null for a table without TTL
     */
    public static TtlMerge plan(
            TableTtl ttl, List<TtlInfos> sources, long now, EvaluationContext ctx) {
        if (ttl.isEmpty()) {
            return null;
        }
        TtlInfos union = new TtlInfos();
        boolean force = false;
        for (TtlInfos s : sources) {
            TtlInfos infos = s == null ? new TtlInfos() : s;
            union.update(infos);
            force |= !allCalculated(ttl, infos);
        }
        return new TtlMerge(ttl, union, now, force, ctx);
    }

    /**
     * ClickHouse's {@code checkAllTTLCalculated}: a part must have the times of every TTL (a row
     * TTL whose times are all 0 has none, and is recalculated, which changes nothing).
     */
    private static boolean allCalculated(TableTtl ttl, TtlInfos infos) {
        if (ttl.rows() != null && infos.table().min() == 0 && infos.table().max() == 0) {
            return false;
        }
        for (TableTtl.WhereRule r : ttl.where()) {
            if (!infos.rowsWhere().containsKey(r.key())) {
                return false;
            }
        }
        for (TableTtl.ColumnRule c : ttl.columns()) {
            if (!infos.columns().containsKey(c.column())) {
                return false;
            }
        }
        return true;
    }

    private static TtlInfos.Info empty() {
        return new TtlInfos.Info();
    }

    /** The info a TTL algorithm starts with: the old one unless its minimum expired. */
    private TtlInfos.Info start(TtlInfos.Info old) {
        TtlInfos.Info info = minExpired(old) ? new TtlInfos.Info() : old.copy();
        if (maxExpired(old)) {
            info.setFinished(true);
        }
        return info;
    }

    private boolean minExpired(TtlInfos.Info i) {
        return force || (i.min() != 0 && i.min() <= now);
    }

    private boolean maxExpired(TtlInfos.Info i) {
        return i.max() != 0 && i.max() <= now;
    }

    private boolean expired(long t) {
        return t != 0 && t <= now;
    }

    /** Whether the merge applies TTL (it must then be a horizontal merge: all columns at once). */
    public boolean applies() {
        return applies;
    }

    /** Rows removed so far. */
    public long rowsRemoved() {
        return rowsRemoved;
    }

    /** Applies TTL to a block of merged rows (all columns); returns the rows that remain. */
    public Block apply(Block block) {
        if (!applies || block.rows() == 0) {
            return block;
        }
        block = TableTtl.materialized(block);
        if (ttl.rows() != null && minExpired(union.table())) {
            long[] t = TableTtl.times(ttl.rows(), block, ctx);
            block = filter(block, t, null, rowsInfo);
        }
        for (TableTtl.WhereRule r : ttl.where()) {
            if (block.rows() == 0) {
                break;
            }
            if (minExpired(union.rowsWhere().getOrDefault(r.key(), empty()))) {
                long[] t = TableTtl.times(r.expression(), block, ctx);
                boolean[] cond = TableTtl.truth(r.where(), block, ctx);
                block = filter(block, t, cond, whereInfos.get(r.key()));
            }
        }
        for (TableTtl.ColumnRule c : ttl.columns()) {
            TtlInfos.Info old = union.columns().getOrDefault(c.column(), empty());
            int idx = block.indexOf(c.column());
            if (block.rows() == 0 || !c.stored() || idx < 0 || !minExpired(old)) {
                continue;
            }
            block = resetExpired(block, idx, c, old, columnInfos.get(c.column()));
        }
        return block;
    }

    /**
     * Removes the expired rows (with a condition: those it holds for); {@code info} gets the times
     * of the remaining rows (with a condition: of those it holds for, as on insert).
     */
    private Block filter(Block block, long[] t, boolean[] cond, TtlInfos.Info info) {
        int n = block.rows();
        int[] keep = new int[n];
        int kept = 0;
        for (int i = 0; i < n; i++) {
            boolean holds = cond == null || cond[i];
            if (!expired(t[i]) || !holds) {
                if (holds) {
                    info.update(t[i]);
                }
                keep[kept++] = i;
            }
        }
        rowsRemoved += n - kept;
        return kept == n ? block : block.permute(keep, kept);
    }

    /** Resets the expired values of column {@code idx} to the column's default. */
    private Block resetExpired(
            Block block, int idx, TableTtl.ColumnRule c, TtlInfos.Info old, TtlInfos.Info info) {
        int n = block.rows();
        Column values = block.column(idx);
        Column defaults =
                c.defaultExpression() == null ? null : c.defaultExpression().evaluate(block, ctx);
        Column out = values.newEmpty(n);
        // the whole block is past the TTL: every value is reset, epoch times included
        boolean all = maxExpired(old);
        long[] t = all ? null : TableTtl.times(c.expression(), block, ctx);
        for (int i = 0; i < n; i++) {
            if (all || expired(t[i])) {
                if (defaults != null) {
                    out.appendFrom(defaults, i);
                } else {
                    Columns.appendDefault(c.type(), out);
                }
            } else {
                info.update(t[i]);
                out.appendFrom(values, i);
            }
        }
        List<Column> cols = new ArrayList<>(block.columns());
        cols.set(idx, out);
        return new Block(block.names(), block.types(), cols);
    }

    /** The merged part's {@code ttl.txt} times, after every block went through {@link #apply}. */
    public TtlInfos finish() {
        if (!applies) {
            return union;
        }
        TtlInfos out = union.copy();
        if (rowsInfo != null) {
            out.setTable(rowsInfo);
        }
        whereInfos.forEach(out::setRowsWhere);
        columnInfos.forEach(out::setColumn);
        return out;
    }
}
