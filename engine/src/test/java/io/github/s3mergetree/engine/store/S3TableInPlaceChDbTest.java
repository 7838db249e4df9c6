package io.github.s3mergetree.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.AttachStatements;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.RowsHash;
import io.github.s3mergetree.engine.testing.TestStores;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table written to S3 (S3Proxy 2.9.0 on loopback) is read in place by ClickHouse (chDB 26.x):
 * {@code ATTACH TABLE … SETTINGS table_disk = 1, disk = disk(type = s3_plain, …)} on the table's
 * prefix sees exactly the active parts — not the merged-away ones still in the bucket, not a
 * temporary part of an unfinished insert, not the commit log — CHECK TABLE passes, and the rows
 * equal ClickHouse's own insert of the same rows.
 */
class S3TableInPlaceChDbTest {
    private static final String DDL =
            "CREATE TABLE posts (id UInt64, created DateTime, title String, score Int32,"
                    + " tags Array(String), note Nullable(String)) ENGINE = MergeTree"
                    + " PARTITION BY toYYYYMM(created) ORDER BY (id, created)";

    @TempDir Path tmp;

    private static Block rows(TableLayout l, int from, int n) {
        RowBlockBuilder b =
                new RowBlockBuilder("posts", l.columnNames(), l.columnTypes(), ZoneOffset.UTC);
        for (int i = from; i < from + n; i++) {
            b.addRow(
                    (long) i,
                    LocalDateTime.of(2024, 1 + i % 3, 1 + i % 27, i % 24, 0),
                    "title '" + i + "' \\ " + (i % 7 == 0 ? "ü" : ""),
                    i % 1000 - 500,
                    java.util.List.of("t" + (i % 5), "x"),
                    i % 4 == 0 ? null : "n" + i);
        }
        return b.build();
    }

    @Test
    void clickHouseAttachesTheS3TableInPlace() throws Exception {
        try (S3ProxyServer s3 = new S3ProxyServer(tmp.resolve("s3"));
                ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
            s3.createBucket("bkt");
            TableLayout l = TableLayouts.fromDdl(DDL);
            TableStore store = TestStores.s3(s3.endpoint(), "bkt", "tables/posts/");
            MergeTreeTable t = MergeTreeTable.open(store, l, Clock.systemUTC());
            for (int b = 0; b < 6; b++) {
                Block block = rows(l, b * 1000, 1000);
                t.commit(t.writeTemporaryParts(block), "batch-" + b);
            }
            t.optimizeFinal(false); // merged-away parts stay in the bucket (old_parts_lifetime)
            t.insert(rows(l, 6000, 500));
            t.writeTemporaryParts(rows(l, 9000, 10)); // an insert that never commits: tmp_*
            assertThat(store.listDirectories("")).anyMatch(d -> d.startsWith("tmp_"));
            for (ActivePart p : t.activeParts()) {
                PartReader.open(store, p.name().toString()).verify();
            }
            // the reference: the same rows computed by ClickHouse itself (below)
            long expected = 6500;

            String attach =
                    AttachStatements.s3Plain(
                            l.ddl(),
                            s3.endpoint() + "/bkt/tables/posts/",
                            S3ProxyServer.ACCESS_KEY,
                            S3ProxyServer.SECRET_KEY,
                            UUID.randomUUID());
            assertThat(attach).startsWith("ATTACH TABLE `posts` UUID '");
            ch.execute(attach);
            ch.assertCheckTablePasses("posts");
            assertThat(ch.queryLong("SELECT count() FROM posts")).isEqualTo(expected);
            assertThat(
                            ch.queryLong(
                                    "SELECT count() FROM system.parts WHERE table = 'posts' AND active"))
                    .isEqualTo(t.activeParts().size());
            assertThat(ch.queryLong("SELECT uniqExact(id) FROM posts")).isEqualTo(expected);
            assertThat(ch.queryLong("SELECT max(id) FROM posts")).isEqualTo(6499);
            // every value equals what ClickHouse computes for the same rows
            assertThat(
                            ch.query(
                                    "SELECT "
                                            + RowsHash.of("id, created, title, score, tags, note")
                                            + " FROM posts",
                                    "TSV"))
                    .isEqualTo(
                            ch.query(
                                    "SELECT "
                                            + RowsHash.of("id, created, title, score, tags, note")
                                            + " FROM (SELECT number AS id, makeDateTime(2024, 1 +"
                                            + " number % 3, 1 + number % 27, number % 24, 0, 0,"
                                            + " 'UTC') AS created, concat('title \\'',"
                                            + " toString(number), '\\' \\\\ ', if(number % 7 = 0,"
                                            + " 'ü', '')) AS title, toInt32(number % 1000 - 500)"
                                            + " AS score, ['t' || toString(number % 5), 'x'] AS"
                                            + " tags, if(number % 4 = 0, NULL, 'n' ||"
                                            + " toString(number)) AS note FROM numbers(6500))",
                                    "TSV"));
            t.close();
            store.close();
        }
    }

    /**
     * A {@code ReplicatedMergeTree} table writes exactly the parts of its plain counterpart (same
     * part names, same checksums.txt), keeps its engine in the stored DDL, and is attached in place
     * as the plain engine (the one copy on its own store).
     */
    @Test
    void aReplicatedTableWritesThePlainEnginesPartsAndAttachesAsIt() throws Exception {
        String replicatedDdl =
                DDL.replace(
                        "ENGINE = MergeTree",
                        "ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}',"
                                + " '{replica}')");
        try (S3ProxyServer s3 = new S3ProxyServer(tmp.resolve("s3"));
                ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
            s3.createBucket("bkt");
            java.util.Map<String, TableStore> stores = new java.util.LinkedHashMap<>();
            java.util.Map<String, String> ddls =
                    java.util.Map.of("tables/plain/", DDL, "tables/replicated/", replicatedDdl);
            for (java.util.Map.Entry<String, String> e : ddls.entrySet()) {
                String prefix = e.getKey();
                TableLayout l = TableLayouts.fromDdl(e.getValue());
                TableStore store = TestStores.s3(s3.endpoint(), "bkt", prefix);
                MergeTreeTable t =
                        MergeTreeTable.open(
                                store,
                                l,
                                Clock.fixed(
                                        java.time.Instant.parse("2026-01-01T00:00:00Z"),
                                        ZoneOffset.UTC));
                for (int b = 0; b < 3; b++) {
                    t.commit(t.writeTemporaryParts(rows(l, b * 1000, 1000)), "batch-" + b);
                }
                t.close();
                stores.put(prefix, store);
            }
            TableStore plain = stores.get("tables/plain/");
            TableStore replicated = stores.get("tables/replicated/");
            java.util.List<String> parts =
                    plain.listDirectories("").stream()
                            .filter(d -> d.matches("\\d+_\\d+_\\d+_\\d+/?"))
                            .sorted()
                            .toList();
            assertThat(parts).isNotEmpty();
            assertThat(
                            replicated.listDirectories("").stream()
                                    .filter(d -> d.matches("\\d+_\\d+_\\d+_\\d+/?"))
                                    .sorted()
                                    .toList())
                    .isEqualTo(parts);
            for (String part : parts) {
                String dir = part.endsWith("/") ? part : part + "/";
                assertThat(replicated.read(dir + "checksums.txt"))
                        .as(part)
                        .isEqualTo(plain.read(dir + "checksums.txt"));
            }
            TableLayout l = TableLayouts.fromDdl(replicatedDdl);
            assertThat(l.ddl()).contains("ENGINE = ReplicatedMergeTree('/clickhouse/tables/");
            String attach =
                    AttachStatements.s3Plain(
                            l.ddl(),
                            s3.endpoint() + "/bkt/tables/replicated/",
                            S3ProxyServer.ACCESS_KEY,
                            S3ProxyServer.SECRET_KEY,
                            UUID.randomUUID());
            assertThat(attach).contains("ENGINE = MergeTree").doesNotContain("Replicated");
            ch.execute(attach);
            ch.assertCheckTablePasses("posts");
            assertThat(ch.queryLong("SELECT count() FROM posts")).isEqualTo(3000);
            for (TableStore store : stores.values()) {
                store.close();
            }
        }
    }
}
