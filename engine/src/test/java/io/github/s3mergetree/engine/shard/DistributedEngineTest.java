package io.github.s3mergetree.engine.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.types.DataTypes;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link DistributedEngine}: the engine clause as users write it and servers print it. */
class DistributedEngineTest {

    @Test
    void readsTheClauseOfAWholeStatementAsServersPrintIt() {
        DistributedEngine e =
                DistributedEngine.parse(
                        "CREATE TABLE default.events_all (`id` UInt64, `s` String)"
                                + " ENGINE = Distributed('prod', 'default', 'events_local',"
                                + " cityHash64(s, id))");
        assertThat(e)
                .isEqualTo(
                        new DistributedEngine(
                                "prod",
                                "default",
                                "events_local",
                                Optional.of("cityHash64(s, id)"),
                                Optional.empty()));
    }

    @Test
    void namesMayBeIdentifiersAndKeyAndPolicyAreOptional() {
        assertThat(DistributedEngine.parse("Distributed(c, db, t)"))
                .isEqualTo(
                        new DistributedEngine("c", "db", "t", Optional.empty(), Optional.empty()));
        DistributedEngine e =
                DistributedEngine.parse(
                        "ENGINE = Distributed(`my cluster`, '', t, rand(), 'hot') SETTINGS"
                                + " fsync_after_insert = 0");
        assertThat(e.cluster()).isEqualTo("my cluster");
        assertThat(e.database()).isEmpty();
        assertThat(e.shardingKey()).contains("rand()");
        assertThat(e.policyName()).contains("hot");
    }

    @Test
    void wrongDefinitionsAreRefusedNamingTheProblem() {
        assertThatThrownBy(
                        () ->
                                DistributedEngine.parse(
                                        "CREATE TABLE t (a UInt8) ENGINE = MergeTree ORDER BY a"))
                .hasMessageContaining("no ENGINE = Distributed(...)");
        assertThatThrownBy(() -> DistributedEngine.parse("Distributed(c, db)"))
                .hasMessageContaining("requires from 3 to 5 parameters");
        assertThatThrownBy(() -> DistributedEngine.parse("Distributed(c, currentDatabase(), t)"))
                .hasMessageContaining("database name of the Distributed engine must be a name");
        assertThatThrownBy(() -> DistributedEngine.parse("Distributed(c, db, t, k, 'p', extra)"))
                .hasMessageContaining("requires from 3 to 5 parameters");
    }

    @Test
    void withoutAKeyOnlyAOneShardClusterCanBeWritten() {
        DistributedEngine e = DistributedEngine.parse("Distributed(c, db, t)");
        Map<String, io.github.s3mergetree.engine.types.DataType> cols =
                Map.of("a", DataTypes.UINT8);
        assertThat(e.selector(cols, ShardSlots.equalWeights(1))).isNotNull();
        assertThatThrownBy(() -> e.selector(cols, ShardSlots.equalWeights(2)))
                .hasMessageContaining(
                        "Method write is not supported by storage Distributed with more than one"
                                + " shard and no sharding key provided");
    }
}
