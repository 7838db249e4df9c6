package io.github.s3mergetree.engine.shard;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.expr.Expr;
import io.github.s3mergetree.engine.expr.ExprParser;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.Map;
import java.util.Objects;

/**
 * The shard a row goes to, exactly as ClickHouse's {@code Distributed} INSERT chooses it ({@code
 * StorageDistributed::createSelector} + {@code createBlockSelector}): the sharding key is evaluated
 * per row; its value, taken as unsigned (a signed key of up to 4 bytes sign-extended to 32 bits, an
 * 8-byte key as 64 bits), modulo the total weight is the slot; the slot's owner is the shard. A
 * constant key (no column) is taken as unsigned at its own width, as ClickHouse's constant branch
 * does.
 *
 * <p>Why: queries on a sharded cluster ({@code optimize_skip_unused_shards}, {@code
 * distributed_group_by_no_merge}, co-located JOINs) are only correct if every row sits on the shard
 * ClickHouse's own INSERT would have put it on.
 *
 * <p>The key must evaluate to UInt8…UInt64 or Int8…Int64 (Bool, LowCardinality of these too):
 * ClickHouse accepts a Date, DateTime or Enum key in the DDL but fails every INSERT with "Sharding
 * key expression does not evaluate to an integer type"; this class refuses such a key when built.
 * Immutable and thread-safe.
 */
public final class ShardSelector {
    private final Expr key;
    private final ShardSlots slots;
    private final int width;
    private final boolean signed;

    private ShardSelector(Expr key, ShardSlots slots, int width, boolean signed) {
        this.key = key;
        this.slots = slots;
        this.width = width;
        this.signed = signed;
    }

    /**
     * Parses {@code shardingKey} (SQL, over {@code columns}) and checks its type as ClickHouse
     * does.
     *
     * @throws IllegalArgumentException naming the key and its type if it is not an integer
     * @throws io.github.s3mergetree.engine.expr.ExprException if it does not parse or bind
     */
    public static ShardSelector of(
            String shardingKey, Map<String, DataType> columns, ShardSlots slots) {
        Objects.requireNonNull(shardingKey, "shardingKey");
        return of(ExprParser.parse(shardingKey, columns), slots);
    }

    /** Like {@link #of(String, Map, ShardSlots)} for a parsed key. */
    public static ShardSelector of(Expr key, ShardSlots slots) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(slots, "slots");
        DataType t = key.resultType();
        if (t instanceof LowCardinalityType lc) {
            t = lc.nested();
        }
        TypeKind kind = t.kind();
        int width;
        boolean signed;
        switch (kind) {
            case UINT8, BOOL -> {
                width = 1;
                signed = false;
            }
            case UINT16 -> {
                width = 2;
                signed = false;
            }
            case UINT32 -> {
                width = 4;
                signed = false;
            }
            case UINT64 -> {
                width = 8;
                signed = false;
            }
            case INT8 -> {
                width = 1;
                signed = true;
            }
            case INT16 -> {
                width = 2;
                signed = true;
            }
            case INT32 -> {
                width = 4;
                signed = true;
            }
            case INT64 -> {
                width = 8;
                signed = true;
            }
            default ->
                    throw new IllegalArgumentException(
                            "Sharding key expression does not evaluate to an integer type: "
                                    + key.toSql()
                                    + " has type "
                                    + key.resultType().name()
                                    + " (ClickHouse routes only UInt8..UInt64 and Int8..Int64"
                                    + " keys; wrap it, e.g. toUInt32(...), as the Distributed"
                                    + " table must too)");
        }
        return new ShardSelector(key, slots, width, signed);
    }

    /** The sharding key. */
    public Expr key() {
        return key;
    }

    /** The cluster's slots. */
    public ShardSlots slots() {
        return slots;
    }

    /**
     * The shard (0-based, in the cluster's order) of every row of {@code block}, which holds the
     * key's {@link Expr#requiredColumns() columns}.
     */
    public int[] shardOfRows(Block block, EvaluationContext ctx) {
        int n = block.rows();
        int[] out = new int[n];
        if (n == 0) {
            return out;
        }
        Column c = key.evaluate(block, ctx);
        int total = slots.totalWeight();
        if (key.isConstant()) {
            long v = value(c, 0);
            long unsignedAtWidth = width == 8 ? v : v & ((1L << (8 * width)) - 1);
            int shard = slots.shardOfSlot((int) Long.remainderUnsigned(unsignedAtWidth, total));
            java.util.Arrays.fill(out, shard);
            return out;
        }
        for (int i = 0; i < n; i++) {
            long v = value(c, i);
            long slot;
            if (width == 8) {
                slot = Long.remainderUnsigned(v, total);
            } else {
                // as static_cast<UInt32>: signed values sign-extend, unsigned zero-extend
                slot = (v & 0xFFFFFFFFL) % total;
            }
            out[i] = slots.shardOfSlot((int) slot);
        }
        return out;
    }

    /** The key value of row {@code i}, sign- or zero-extended to 64 bits by the key's type. */
    private long value(Column c, int i) {
        return switch (c.physicalType()) {
            case BYTE -> {
                byte b = ((ByteColumn) c).data()[i];
                yield signed ? b : b & 0xFFL;
            }
            case SHORT -> {
                short s = ((ShortColumn) c).data()[i];
                yield signed ? s : s & 0xFFFFL;
            }
            case INT -> {
                int v = ((IntColumn) c).data()[i];
                yield signed ? v : v & 0xFFFFFFFFL;
            }
            case LONG -> ((LongColumn) c).data()[i];
            default ->
                    throw new IllegalStateException(
                            "sharding key " + key.toSql() + " evaluated to " + c.physicalType());
        };
    }

    @Override
    public String toString() {
        return "ShardSelector[" + key.toSql() + ", " + slots + "]";
    }
}
