package io.github.s3mergetree.engine.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.testing.ClickHouse1816;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ShardSelector} against a real ClickHouse's Distributed INSERT: one ClickHouse 18.16 server
 * whose {@code remote_servers} declares clusters of several weight sets (1,1; 1,2,3; 0,3,5; 7,4)
 * whose shards are databases of the same server ({@code default_database} per shard, reached over
 * TCP with {@code prefer_localhost_replica = 0}). The same rows are inserted through a {@code
 * Distributed} table per cluster and sharding key with {@code insert_distributed_sync = 1}; every
 * row must sit in the shard our selector chose for it.
 *
 * <p>Keys: plain UInt64/Int8/Int16/Int32/Int64 columns (negative values, where ClickHouse's
 * sign-extension to 32 bits matters for weight 11), {@code cityHash64}, {@code sipHash64}, {@code
 * intHash64}, {@code intHash32}, several arguments, arithmetic, a constant.
 */
class DistributedRoutingClickHouse1816Test {
    @TempDir static Path dir;
    static ClickHouse1816 server;

    static final Map<String, List<Integer>> CLUSTERS = new LinkedHashMap<>();

    static {
        CLUSTERS.put("w11", List.of(1, 1));
        CLUSTERS.put("w123", List.of(1, 2, 3));
        CLUSTERS.put("w035", List.of(0, 3, 5));
        CLUSTERS.put("w74", List.of(7, 4));
    }

    static final List<String> KEYS =
            List.of(
                    "id",
                    "u64",
                    "i8",
                    "i16",
                    "i32",
                    "i64",
                    "cityHash64(s)",
                    "cityHash64(s, i8)",
                    "sipHash64(s)",
                    "intHash64(i32)",
                    "intHash32(u64)",
                    "i8 + 1",
                    "toInt8(-3)");

    static final int ROWS = 2000;
    static Block rows;

    @BeforeAll
    static void start() throws Exception {
        int port = ClickHouse1816.freePort();
        server = ClickHouse1816.start(dir.resolve("server"), false, port, remoteServers(port));
        rows = generate();
        server.execute(
                "CREATE TABLE default.src (id UInt32, u64 UInt64, i8 Int8, i16 Int16, i32 Int32,"
                        + " i64 Int64, s String) ENGINE = MergeTree ORDER BY id");
        server.query("INSERT INTO default.src FORMAT TabSeparated", tsv(rows));
        for (var c : CLUSTERS.entrySet()) {
            for (int shard = 1; shard <= c.getValue().size(); shard++) {
                String db = database(c.getKey(), shard);
                server.execute("CREATE DATABASE " + db);
                server.execute("CREATE TABLE " + db + ".t AS default.src");
            }
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void everyRowSitsOnTheShardOurSelectorChose() {
        Map<String, DataType> columns = new LinkedHashMap<>();
        for (int i = 0; i < rows.names().size(); i++) {
            columns.put(rows.names().get(i), rows.types().get(i));
        }
        List<String> failures = new ArrayList<>();
        int table = 0;
        for (var c : CLUSTERS.entrySet()) {
            ShardSlots slots = ShardSlots.of(c.getValue());
            for (String key : KEYS) {
                String dist = "dist" + table++;
                server.execute(
                        "CREATE TABLE default."
                                + dist
                                + " AS default.src ENGINE = Distributed("
                                + c.getKey()
                                + ", '', t, "
                                + key
                                + ")");
                for (int shard = 1; shard <= slots.shards(); shard++) {
                    server.execute("TRUNCATE TABLE " + database(c.getKey(), shard) + ".t");
                }
                server.query(
                        "INSERT INTO default." + dist + " SELECT * FROM default.src",
                        Map.of("insert_distributed_sync", "1", "prefer_localhost_replica", "0"));
                int[] ours =
                        ShardSelector.of(key, columns, slots)
                                .shardOfRows(rows, EvaluationContext.utc());
                int[] theirs = new int[ROWS];
                java.util.Arrays.fill(theirs, -1);
                long total = 0;
                for (int shard = 1; shard <= slots.shards(); shard++) {
                    String ids =
                            server.query(
                                    "SELECT id FROM "
                                            + database(c.getKey(), shard)
                                            + ".t ORDER BY id");
                    for (String id : ids.isEmpty() ? new String[0] : ids.split("\n")) {
                        theirs[Integer.parseInt(id)] = shard - 1;
                        total++;
                    }
                }
                if (total != ROWS) {
                    failures.add(
                            c.getKey() + " / " + key + ": ClickHouse holds " + total + " rows");
                    continue;
                }
                int wrong = 0;
                String first = null;
                for (int i = 0; i < ROWS; i++) {
                    if (ours[i] != theirs[i]) {
                        wrong++;
                        if (first == null) {
                            first = "row " + i + ": ours " + ours[i] + ", ClickHouse " + theirs[i];
                        }
                    }
                }
                if (wrong > 0) {
                    failures.add(
                            c.getKey() + " / " + key + ": " + wrong + " rows differ, " + first);
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    /** Weights 0, 3, 5 over consecutive ids: nothing on the first shard, 3/8 and 5/8 elsewhere. */
    @Test
    void weightsSpreadRowsAsDeclared() {
        ShardSlots slots = ShardSlots.of(List.of(0, 3, 5));
        int[] shards =
                ShardSelector.of("id", Map.of("id", DataTypes.UINT32), slots)
                        .shardOfRows(rows, EvaluationContext.utc());
        int[] counts = new int[3];
        for (int s : shards) {
            counts[s]++;
        }
        assertThat(counts[0]).isZero();
        assertThat(counts[1]).isEqualTo(ROWS * 3 / 8);
        assertThat(counts[2]).isEqualTo(ROWS * 5 / 8);
    }

    static String database(String cluster, int shard) {
        return "d_" + cluster + "_" + shard;
    }

    static String remoteServers(int port) {
        StringBuilder b = new StringBuilder("    <remote_servers>\n");
        for (var c : CLUSTERS.entrySet()) {
            b.append("        <").append(c.getKey()).append(">\n");
            for (int shard = 1; shard <= c.getValue().size(); shard++) {
                b.append("            <shard><weight>")
                        .append(c.getValue().get(shard - 1))
                        .append("</weight><replica><host>127.0.0.1</host><port>")
                        .append(port)
                        .append("</port><default_database>")
                        .append(database(c.getKey(), shard))
                        .append("</default_database></replica></shard>\n");
            }
            b.append("        </").append(c.getKey()).append(">\n");
        }
        return b.append("    </remote_servers>\n").toString();
    }

    static Block generate() {
        Random r = new Random(45);
        IntColumn id = new IntColumn(ROWS);
        LongColumn u64 = new LongColumn(ROWS);
        ByteColumn i8 = new ByteColumn(ROWS);
        ShortColumn i16 = new ShortColumn(ROWS);
        IntColumn i32 = new IntColumn(ROWS);
        LongColumn i64 = new LongColumn(ROWS);
        StringColumn s = new StringColumn(ROWS, ROWS * 8);
        long[] edges = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 127, -128, 255, 32767, -32768};
        for (int i = 0; i < ROWS; i++) {
            id.add(i);
            long v = i < edges.length ? edges[i] : r.nextLong();
            u64.add(v);
            i8.add((byte) (i < edges.length ? edges[i] : r.nextInt()));
            i16.add((short) (i < edges.length ? edges[i] : r.nextInt()));
            i32.add(i < edges.length ? (int) edges[i] : r.nextInt());
            i64.add(i < edges.length ? edges[i] : r.nextLong() >> r.nextInt(64));
            s.add(i % 50 == 0 ? "" : "s" + Long.toHexString(r.nextLong()).repeat(1 + i % 5));
        }
        return new Block(
                List.of("id", "u64", "i8", "i16", "i32", "i64", "s"),
                List.of(
                        DataTypes.UINT32,
                        DataTypes.UINT64,
                        DataTypes.INT8,
                        DataTypes.INT16,
                        DataTypes.INT32,
                        DataTypes.INT64,
                        DataTypes.STRING_TYPE),
                List.<Column>of(id, u64, i8, i16, i32, i64, s));
    }

    static byte[] tsv(Block b) {
        StringBuilder out = new StringBuilder();
        IntColumn id = (IntColumn) b.column(0);
        LongColumn u64 = (LongColumn) b.column(1);
        ByteColumn i8 = (ByteColumn) b.column(2);
        ShortColumn i16 = (ShortColumn) b.column(3);
        IntColumn i32 = (IntColumn) b.column(4);
        LongColumn i64 = (LongColumn) b.column(5);
        StringColumn s = (StringColumn) b.column(6);
        for (int i = 0; i < b.rows(); i++) {
            out.append(id.get(i))
                    .append('\t')
                    .append(Long.toUnsignedString(u64.get(i)))
                    .append('\t')
                    .append(i8.data()[i])
                    .append('\t')
                    .append(i16.data()[i])
                    .append('\t')
                    .append(i32.get(i))
                    .append('\t')
                    .append(i64.get(i))
                    .append('\t')
                    .append(s.getString(i))
                    .append('\n');
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
