package io.github.s3mergetree.engine.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import io.github.s3mergetree.engine.testing.ChDbSession;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code Replicated…MergeTree} and {@code Shared…MergeTree} engines in {@link DdlParser}: accepted
 * as ClickHouse 26.7 accepts them (chDB, which has no ZooKeeper, gets past the engine arguments and
 * stops at "Can't create replicated table without ZooKeeper"), refused with ClickHouse's messages
 * where chDB refuses them, and kept in the {@link EngineDefinition} so the canonical DDL names the
 * replicated engine while the in-place ATTACH names the plain one.
 */
class ReplicatedEngineDdlTest {
    @ChDbSession static ChDb db;
    static int tableCounter;

    private static final String COLUMNS =
            "(k UInt32, ver UInt64, del UInt8, sign Int8, x Int64, s String)";

    private static TableSchema parse(String engine) {
        return DdlParser.parse("CREATE TABLE t " + COLUMNS + " ENGINE = " + engine + " ORDER BY k");
    }

    /**
     * chDB's verdict on the engine clause: null if it stops only for want of ZooKeeper or of the
     * {@code <macros>} of a server's config (both the server's business, not the DDL's); else the
     * first line of its message without the error code and spelling hints.
     */
    private static String chDbRefusal(String engine) {
        String table = "r_" + (++tableCounter);
        try {
            db.execute(
                    "CREATE TABLE "
                            + table
                            + " "
                            + COLUMNS
                            + " ENGINE = "
                            + engine
                            + " ORDER BY k");
            return "accepted without ZooKeeper?";
        } catch (ChDbException e) {
            String m = e.clickHouseMessage();
            if (m.contains("NO_ZOOKEEPER") || m.contains("No macro '")) {
                return null;
            }
            m = m.substring(m.indexOf("DB::Exception: ") + "DB::Exception: ".length());
            int cut = m.indexOf('\n');
            m = cut < 0 ? m : m.substring(0, cut);
            cut = m.indexOf(". Maybe you meant");
            m = cut < 0 ? m : m.substring(0, cut);
            return m.replaceAll("\\. \\([A-Z_]+\\)$", "").replaceAll(" \\([A-Z_]+\\)$", "").trim();
        }
    }

    @Test
    void replicatedMergeTreeKeepsPathAndReplicaVerbatim() {
        TableSchema s =
                parse(
                        "ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}',"
                                + " '{replica}')");
        EngineDefinition e = s.engine();
        assertThat(e.kind()).isEqualTo(EngineDefinition.Kind.MERGE_TREE);
        assertThat(e.name()).isEqualTo("ReplicatedMergeTree");
        EngineReplication r = e.replication().orElseThrow();
        assertThat(r.family()).isEqualTo(EngineReplication.Family.REPLICATED);
        assertThat(r.path()).contains("/clickhouse/tables/{shard}/{database}/{table}");
        assertThat(r.replica()).contains("{replica}");
        assertThat(e.withoutReplication()).isEqualTo(EngineDefinition.mergeTree());
        assertThat(s.toCreateTableSql())
                .contains(
                        "ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}',"
                                + " '{replica}')");
        assertThat(DdlParser.parse(s.toCreateTableSql())).isEqualTo(s);
        assertThat(s.toAttachSql("00000000-0000-0000-0000-000000000001", "table_disk = 1"))
                .contains("ENGINE = MergeTree\n")
                .doesNotContain("Replicated");
    }

    @Test
    void theRestAreThePlainEnginesArguments() {
        EngineDefinition replacing =
                parse("ReplicatedReplacingMergeTree('/p', '{replica}', ver, del)").engine();
        assertThat(replacing.withoutReplication())
                .isEqualTo(EngineDefinition.replacingMergeTree("ver", "del"));
        assertThat(replacing.toSql())
                .isEqualTo("ReplicatedReplacingMergeTree('/p', '{replica}', `ver`, `del`)");
        assertThat(
                        parse("ReplicatedSummingMergeTree('/p', 'r1', (x))")
                                .engine()
                                .withoutReplication())
                .isEqualTo(EngineDefinition.summingMergeTree(List.of("x")));
        assertThat(
                        parse("ReplicatedCollapsingMergeTree('/p', 'r1', sign)")
                                .engine()
                                .withoutReplication())
                .isEqualTo(EngineDefinition.collapsingMergeTree("sign"));
    }

    @Test
    void withoutPathAndReplicaTheServerDefaultsApply() {
        EngineDefinition plain = parse("ReplicatedMergeTree").engine();
        assertThat(plain.replication().orElseThrow().path()).isEmpty();
        assertThat(plain.toSql()).isEqualTo("ReplicatedMergeTree");
        EngineDefinition replacing = parse("ReplicatedReplacingMergeTree(ver)").engine();
        assertThat(replacing.replication().orElseThrow().replica()).isEmpty();
        assertThat(replacing.withoutReplication())
                .isEqualTo(EngineDefinition.replacingMergeTree("ver", null));
        assertThat(replacing.toSql()).isEqualTo("ReplicatedReplacingMergeTree(`ver`)");
        TableSchema s = parse("ReplicatedReplacingMergeTree(ver)");
        assertThat(DdlParser.parse(s.toCreateTableSql())).isEqualTo(s);
    }

    @Test
    void sharedEnginesOfClickHouseCloud() {
        EngineDefinition e =
                parse(
                                "SharedReplacingMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}', ver)")
                        .engine();
        assertThat(e.replication().orElseThrow().family())
                .isEqualTo(EngineReplication.Family.SHARED);
        assertThat(e.withoutReplication())
                .isEqualTo(EngineDefinition.replacingMergeTree("ver", null));
        assertThat(e.toSql())
                .isEqualTo(
                        "SharedReplacingMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}',"
                                + " `ver`)");
        assertThat(parse("SharedMergeTree").engine().name()).isEqualTo("SharedMergeTree");
    }

    /** chDB gets past these engine clauses (and stops for want of ZooKeeper); so do we. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')",
                "ReplicatedMergeTree('/p', 'r1')",
                "ReplicatedReplacingMergeTree('/p', '{replica}', ver)",
                "ReplicatedReplacingMergeTree('/p', '{replica}', ver, del)",
                "ReplicatedReplacingMergeTree('/p', 'r')",
                "ReplicatedSummingMergeTree('/p', 'r', (x))",
                "ReplicatedSummingMergeTree('/p', 'r', x)",
                "ReplicatedCollapsingMergeTree('/p', 'r', sign)",
                "ReplicatedMergeTree('zookeeper2:/clickhouse/tables/t', 'r')",
                "ReplicatedVersionedCollapsingMergeTree('/p', 'r', sign, ver)",
            })
    void acceptedAsClickHouseAcceptsThem(String engine) {
        assertThat(chDbRefusal(engine)).as("chDB on %s", engine).isNull();
        TableSchema s = parse(engine);
        assertThat(s.engine().replication()).isPresent();
        assertThat(DdlParser.parse(s.toCreateTableSql())).isEqualTo(s);
        assertThat(chDbRefusal(s.engine().toSql())).as("chDB on our %s", s.engine()).isNull();
    }

    /** chDB refuses these engine clauses; we refuse them with its message. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "ReplicatedCollapsingMergeTree('/p', sign)",
                "ReplicatedMergeTree('/p')",
                "ReplicatedMergeTree(1, 'r')",
                "ReplicatedMergeTree('/p', 2)",
                "ReplicatedMergeTree('/p', '')",
                "ReplicatedCollapsingMergeTree('/p', 'r', sign, k)",
                "ReplicatedCollapsingMergeTree",
                "ReplicatedMergeTree('/p', 'r', k)",
                "ReplicatedReplacingMergeTree('/p', 'r', ver, del, k)",
                "ReplicatedReplacingMergeTree('/p', 'r', s)",
                "ReplicatedCollapsingMergeTree('/p', 'r', x)",
                "ReplicatedSummingMergeTree('/p', 'r', k)",
                "ReplicatedFooMergeTree('/p', 'r')",
                "ReplicatedVersionedCollapsingMergeTree('/p', 'r', sign)",
                "ReplicatedVersionedCollapsingMergeTree('/p', 'r')",
                "ReplicatedCollapsingMergeTree('/p', 'r')",
                "ReplicatedVersionedCollapsingMergeTree('/p', 'r', sign, s)",
            })
    void refusedWithClickHousesMessage(String engine) {
        String theirs = chDbRefusal(engine);
        assertThat(theirs).as("chDB on %s", engine).isNotNull();
        assertThatThrownBy(() -> parse(engine))
                .as(engine)
                .isInstanceOf(DdlParseException.class)
                .hasMessageContaining(theirs);
    }

    @Test
    void replicatedEnginesThisEngineDoesNotWriteAreUnsupported() {
        assertThatThrownBy(() -> parse("ReplicatedGraphiteMergeTree('/p', 'r', 'rollup')"))
                .isInstanceOf(UnsupportedDdlException.class)
                .hasMessageContaining("ENGINE ReplicatedGraphiteMergeTree is not supported");
        assertThatThrownBy(() -> parse("ReplicatedMergeTree(concat('/p/', 'x'), 'r')"))
                .isInstanceOf(UnsupportedDdlException.class)
                .hasMessageContaining("concat('/p/', 'x')");
    }

    @Test
    void tableReadonlyIsRefusedForReplicated() {
        assertThatThrownBy(
                        () ->
                                DdlParser.parse(
                                        "CREATE TABLE t (k UInt32) ENGINE ="
                                                + " ReplicatedMergeTree('/p', 'r') ORDER BY k"
                                                + " SETTINGS table_readonly = 1"))
                .isInstanceOf(DdlParseException.class)
                .hasMessageContaining(
                        "The `table_readonly` setting is not supported for ReplicatedMergeTree");
    }
}
