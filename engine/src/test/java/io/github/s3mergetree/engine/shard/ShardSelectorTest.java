package io.github.s3mergetree.engine.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.types.DataTypes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link ShardSlots} and {@link ShardSelector} by ClickHouse's rules, with values worked out by
 * hand; {@link DistributedRoutingClickHouse1816Test} checks the same against a real server.
 */
class ShardSelectorTest {

    @Test
    void slotsFollowWeightsInShardOrder() {
        ShardSlots s = ShardSlots.of(List.of(0, 2, 1));
        assertThat(s.totalWeight()).isEqualTo(3);
        assertThat(List.of(s.shardOfSlot(0), s.shardOfSlot(1), s.shardOfSlot(2)))
                .containsExactly(1, 1, 2);
        assertThatThrownBy(() -> ShardSlots.of(List.of(0, 0))).hasMessageContaining("sum to 0");
        assertThatThrownBy(() -> ShardSlots.of(List.of(1, -1)))
                .hasMessageContaining("weight of shard 2 is -1");
        assertThatThrownBy(() -> ShardSlots.of(List.of()))
                .hasMessageContaining("at least one shard");
    }

    /**
     * Int8 -8 with weights 7,4: sign-extended to 32 bits, 4294967288 % 11 = 7 (the second shard);
     * taken as UInt8 it would be 248 % 11 = 6 (the first).
     */
    @Test
    void smallSignedKeysAreSignExtendedTo32Bits() {
        ByteColumn c = new ByteColumn(2);
        c.add((byte) -8);
        c.add((byte) 3);
        Block b = new Block(List.of("k"), List.of(DataTypes.INT8), List.of(c));
        int[] shards =
                ShardSelector.of("k", Map.of("k", DataTypes.INT8), ShardSlots.of(List.of(7, 4)))
                        .shardOfRows(b, EvaluationContext.utc());
        assertThat(shards).containsExactly(1, 0);
    }

    /** UInt64 values above 2^63 are taken unsigned: 2^64-1 % 3 = 0. */
    @Test
    void wideKeysAreUnsigned64Bit() {
        LongColumn c = new LongColumn(2);
        c.add(-1L);
        c.add(Long.MIN_VALUE);
        Block b = new Block(List.of("k"), List.of(DataTypes.INT64), List.of(c));
        int[] shards =
                ShardSelector.of("k", Map.of("k", DataTypes.INT64), ShardSlots.equalWeights(3))
                        .shardOfRows(b, EvaluationContext.utc());
        // 18446744073709551615 % 3 = 0; 9223372036854775808 % 3 = 2
        assertThat(shards).containsExactly(0, 2);
    }

    @Test
    void keysThatAreNotIntegersAreRefusedAsClickHouseRefusesTheirInserts() {
        assertThatThrownBy(
                        () ->
                                ShardSelector.of(
                                        "d",
                                        Map.of("d", DataTypes.DATE),
                                        ShardSlots.equalWeights(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "Sharding key expression does not evaluate to an integer type")
                .hasMessageContaining("has type Date");
        assertThatThrownBy(
                        () ->
                                ShardSelector.of(
                                        "s",
                                        Map.of("s", DataTypes.STRING_TYPE),
                                        ShardSlots.equalWeights(2)))
                .hasMessageContaining("has type String");
    }
}
