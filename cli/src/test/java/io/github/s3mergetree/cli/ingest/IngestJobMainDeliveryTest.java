package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.demo.PostsGenerator;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.delivery.testing.ChDbHttpServer;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job jar's entry point ({@code IngestJobMain}, what {@code flink run} starts) with the
 * delivery options: the sink's delivery operator inside the job delivers every commit into a live
 * ClickHouse 26.x table (chDB behind its HTTP interface) that already has rows; afterwards the live
 * table equals its earlier rows plus ClickHouse's own insert of the same objects (count, RowsHash).
 */
class IngestJobMainDeliveryTest {
    @TempDir Path tmp;

    @Test
    void theJobJarDeliversEveryCommitIntoALiveTable() throws Exception {
        try (IngestFixture fx = new IngestFixture(tmp);
                ChDbHttpServer server = ChDbHttpServer.start(tmp.resolve("chdb"))) {
            ClickHouseHttpClient ch =
                    ClickHouseHttpClient.create(ClickHouseEndpoint.of(server.url()));
            for (String t : List.of("live", "ref")) {
                ch.query(
                        Sql.of(
                                PostsGenerator.DDL.replace(
                                        "CREATE TABLE posts", "CREATE TABLE default." + t)));
            }
            fx.addFiles(3, 2000);
            List<Path> objects;
            try (Stream<Path> files =
                    Files.list(fx.store.resolve(IngestFixture.BUCKET).resolve("posts"))) {
                objects = files.sorted().toList();
            }
            // earlier rows in the live table (and the same in the reference)
            for (String t : List.of("live", "ref")) {
                ch.query(
                        Sql.of(
                                "INSERT INTO default."
                                        + t
                                        + " SELECT * FROM file('"
                                        + objects.get(0)
                                        + "', Parquet) LIMIT 100"));
            }
            List<String> args =
                    fx.ingestArgs(
                            tmp.resolve("table"),
                            "--checkpoint-interval",
                            "1s",
                            "--clickhouse-url",
                            server.url(),
                            "--clickhouse-table",
                            "default.live");
            IngestJobMain.main(args.subList(1, args.size()).toArray(String[]::new));
            for (Path f : objects) {
                ch.query(
                        Sql.of("INSERT INTO default.ref SELECT * FROM file('" + f + "', Parquet)"));
            }
            assertThat(
                            ch.query(
                                            Sql.of(
                                                    "SELECT count(), "
                                                            + RowsHash.ALL_COLUMNS
                                                            + " FROM default.live"))
                                    .trim())
                    .isEqualTo(
                            ch.query(
                                            Sql.of(
                                                    "SELECT count(), "
                                                            + RowsHash.ALL_COLUMNS
                                                            + " FROM default.ref"))
                                    .trim())
                    .startsWith("6100\t");
            assertThat(
                            ch.query(
                                            Sql.of(
                                                    "CHECK TABLE default.live SETTINGS check_query_single_value_result = 1"))
                                    .trim())
                    .isEqualTo("1");
        }
    }
}
