package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.demo.PostsGenerator;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.delivery.ledger.DeliveryLedger;
import io.github.s3mergetree.delivery.testing.ChDbHttpServer;
import io.github.s3mergetree.engine.store.TableStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 43, item 8: the checks an {@code ingest} with delivery makes before its job starts leave
 * nothing under a table prefix that is not a table yet, so a run refused by a check (a wrong {@code
 * --clickhouse-s3-secret-key}) does not block the corrected one; and what a check writes and
 * removes again, left behind by a run killed in between, does not make the prefix "hold objects",
 * while any other object still does.
 */
class IngestCheckLeftoversTest {
    private static final String TABLE = "s3://" + IngestFixture.BUCKET + "/tables/posts";

    @TempDir Path tmp;

    @Test
    void aRunRefusedByTheTargetCheckLeavesNothingAndTheCorrectedRunDelivers() throws Exception {
        try (IngestFixture fx = new IngestFixture(tmp);
                ChDbHttpServer server = ChDbHttpServer.start(tmp.resolve("chdb"))) {
            ClickHouseHttpClient ch =
                    ClickHouseHttpClient.create(ClickHouseEndpoint.of(server.url()));
            ch.query(
                    Sql.of(
                            PostsGenerator.DDL.replace(
                                    "CREATE TABLE posts", "CREATE TABLE default.live")));
            fx.addFiles(2, 1000);
            // a local checkpoint directory: the Flink 1.20 line has no S3 file system plugin
            List<String> delivery =
                    List.of(
                            "--checkpoint-dir",
                            tmp.resolve("checkpoints").toString(),
                            "--clickhouse-url",
                            server.url(),
                            "--clickhouse-table",
                            "default.live");
            List<String> wrong = new ArrayList<>(delivery);
            wrong.addAll(
                    List.of(
                            "--clickhouse-s3-access-key",
                            IngestFixture.KEY,
                            "--clickhouse-s3-secret-key",
                            "wrong-secret-7"));

            IngestFixture.Result refused =
                    IngestFixture.runInProcess(fx.ingestArgs(TABLE, wrong.toArray(String[]::new)));
            assertThat(refused.code()).as(refused.err()).isNotZero();
            assertThat(refused.err())
                    .contains("cannot read the table's objects")
                    .doesNotContain("wrong-secret-7");
            assertThat(objectsUnder(fx, "tables/posts"))
                    .as("left under the table prefix")
                    .isEmpty();

            IngestFixture.Result corrected =
                    IngestFixture.runInProcess(
                            fx.ingestArgs(TABLE, delivery.toArray(String[]::new)));
            assertThat(corrected.code()).as(corrected.err()).isZero();
            assertThat(ch.value(Sql.of("SELECT count() FROM default.live"))).isEqualTo("2000");
        }
    }

    @Test
    void aPrefixHoldingOnlyACheckLeftoverIsEmptyButAnyOtherObjectIsNot() throws Exception {
        try (IngestFixture fx = new IngestFixture(tmp)) {
            fx.addFiles(1, 500);
            // as a run killed between writing and removing its probe leaves it
            String leftover = DeliveryLedger.probePath("default-live-0123456789");
            assertThat(DeliveryLedger.isCheckLeftover(leftover)).isTrue();
            put(fx, "tables/posts/" + leftover, "s3mergetree probe 1");
            // a local checkpoint directory: the Flink 1.20 line has no S3 file system plugin
            String checkpoints = tmp.resolve("checkpoints").toString();
            IngestFixture.Result accepted =
                    IngestFixture.runInProcess(
                            fx.ingestArgs(TABLE, "--checkpoint-dir", checkpoints));
            assertThat(accepted.code()).as(accepted.err()).isZero();
            assertThat(accepted.field("rows")).isEqualTo(500);

            // anything else under a prefix that is not a table is still refused
            for (String other :
                    List.of(
                            "data.csv",
                            "s3mergetree_metadata/deliveries/default-live-0123456789/notes.txt",
                            "s3mergetree_metadata/deliveries/probe.txt")) {
                String prefix = "tables/other" + Math.abs(other.hashCode());
                put(fx, prefix + "/" + leftover, "s3mergetree probe 2");
                put(fx, prefix + "/" + other, "x");
                IngestFixture.Result refused =
                        IngestFixture.runInProcess(
                                fx.ingestArgs(
                                        "s3://" + IngestFixture.BUCKET + "/" + prefix,
                                        "--checkpoint-dir",
                                        checkpoints));
                assertThat(refused.code()).as(other).isNotZero();
                assertThat(refused.err()).as(other).contains("holds objects but is not a table");
            }
        }
    }

    /** PUTs {@code key} of the bucket through the S3 API, as the killed run did. */
    private static void put(IngestFixture fx, String key, String content) throws Exception {
        try (TableStore bucket = fx.s3TableStore("s3://" + IngestFixture.BUCKET)) {
            bucket.put(key, content.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static List<String> objectsUnder(IngestFixture fx, String prefix) throws Exception {
        Path dir = fx.store.resolve(IngestFixture.BUCKET).resolve(prefix);
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).toList();
        }
    }
}
