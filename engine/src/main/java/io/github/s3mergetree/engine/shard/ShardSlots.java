package io.github.s3mergetree.engine.shard;

import java.util.Arrays;
import java.util.List;

/**
 * The slot table of a ClickHouse cluster ({@code Cluster::slot_to_shard}): shard {@code i} (in the
 * order of {@code remote_servers}, 0-based) owns {@code weight(i)} consecutive slots; a row whose
 * sharding-key value modulo the total weight is {@code s} goes to the shard owning slot {@code s}.
 *
 * <p>Why a table and not arithmetic: ClickHouse's {@code Distributed} INSERT routes exactly this
 * way ({@code createBlockSelector}), so a shard of weight 0 receives nothing and weights 1,2 send
 * slot 0 to the first shard and slots 1 and 2 to the second.
 */
public final class ShardSlots {
    /** A bound on the total weight (ClickHouse keeps one table entry per unit of weight). */
    public static final long MAX_TOTAL_WEIGHT = 1 << 20;

    private final int[] weights;
    private final int[] slotToShard;

    private ShardSlots(int[] weights, int[] slotToShard) {
        this.weights = weights;
        this.slotToShard = slotToShard;
    }

    /**
     * The slots of shards with these weights, in shard order.
     *
     * @throws IllegalArgumentException if there is no shard, a weight is negative, or the weights
     *     sum to 0 or more than {@link #MAX_TOTAL_WEIGHT}
     */
    public static ShardSlots of(List<Integer> weights) {
        if (weights.isEmpty()) {
            throw new IllegalArgumentException("a cluster needs at least one shard");
        }
        long total = 0;
        int[] w = new int[weights.size()];
        for (int i = 0; i < w.length; i++) {
            Integer weight = weights.get(i);
            if (weight == null || weight < 0) {
                throw new IllegalArgumentException(
                        "weight of shard " + (i + 1) + " is " + weight + ": it must be >= 0");
            }
            w[i] = weight;
            total += weight;
        }
        if (total == 0) {
            throw new IllegalArgumentException(
                    "the shard weights " + weights + " sum to 0: no shard would receive a row");
        }
        if (total > MAX_TOTAL_WEIGHT) {
            throw new IllegalArgumentException(
                    "the shard weights "
                            + weights
                            + " sum to "
                            + total
                            + ", more than "
                            + MAX_TOTAL_WEIGHT);
        }
        int[] slots = new int[(int) total];
        int next = 0;
        for (int shard = 0; shard < w.length; shard++) {
            Arrays.fill(slots, next, next + w[shard], shard);
            next += w[shard];
        }
        return new ShardSlots(w, slots);
    }

    /** {@code shards} shards of weight 1 (ClickHouse's default weight). */
    public static ShardSlots equalWeights(int shards) {
        Integer[] w = new Integer[shards];
        Arrays.fill(w, 1);
        return of(Arrays.asList(w));
    }

    /** The number of shards. */
    public int shards() {
        return weights.length;
    }

    /** The sum of the weights (the number of slots). */
    public int totalWeight() {
        return slotToShard.length;
    }

    /** The shard (0-based) owning {@code slot} ({@code 0 <= slot < totalWeight()}). */
    public int shardOfSlot(int slot) {
        return slotToShard[slot];
    }

    /** The weight of {@code shard} (0-based). */
    public int weight(int shard) {
        return weights[shard];
    }

    @Override
    public String toString() {
        return "ShardSlots" + Arrays.toString(weights);
    }
}
