package io.github.s3mergetree.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Flink's SQL Client with the relocated SQL connector jar ({@code
 * flink-sql-connector-s3-mergetree}, {@code -j}) on the standalone cluster, as a SQL user runs it:
 * one script creates a {@code 's3-objects'} table over Parquet objects on the S3 server and a
 * {@code 'mergetree'} table, and {@code INSERT INTO posts SELECT * FROM posts_src} runs on the
 * cluster; the parts equal ClickHouse's own ingestion of the same objects (rows and {@code
 * RowsHash}) and pass {@code CHECK TABLE}.
 */
@ExtendWith({PackagedBuild.class, FlinkClusterExtension.class})
class SqlClientE2ECase {
    static final int MONTHS = 4;
    static final int ROWS_PER_MONTH = 1_000;

    /** The Flink columns of {@code posts} (the ClickHouse ones are in posts.sql). */
    static final String FLINK_COLUMNS =
            "Id INT NOT NULL, PostTypeId STRING NOT NULL, AcceptedAnswerId BIGINT NOT NULL,"
                    + " CreationDate TIMESTAMP_LTZ(3) NOT NULL, Score INT NOT NULL, ViewCount BIGINT NOT NULL,"
                    + " Body STRING NOT NULL, OwnerUserId INT NOT NULL, OwnerDisplayName STRING NOT NULL,"
                    + " LastEditorUserId INT NOT NULL, LastEditorDisplayName STRING NOT NULL,"
                    + " LastEditDate TIMESTAMP_LTZ(3) NOT NULL, LastActivityDate TIMESTAMP_LTZ(3) NOT NULL,"
                    + " Title STRING NOT NULL, Tags STRING NOT NULL, AnswerCount INT NOT NULL,"
                    + " CommentCount SMALLINT NOT NULL, FavoriteCount SMALLINT NOT NULL,"
                    + " ContentLicense STRING NOT NULL, ParentId STRING NOT NULL,"
                    + " CommunityOwnedDate TIMESTAMP_LTZ(3) NOT NULL, ClosedDate TIMESTAMP_LTZ(3) NOT NULL";

    /** The SQL connector jar this build made. */
    static Path sqlConnectorJar() {
        Path jar =
                E2E.projectRoot()
                        .resolve(
                                "sql-connector/target/flink-sql-connector-s3-mergetree-"
                                        + E2E.projectVersion()
                                        + ".jar");
        assertThat(jar)
                .as("the SQL connector jar (its module's package phase makes it)")
                .isRegularFile();
        return jar;
    }

    /** The column list of posts.sql (between the first '(' and the ')' before ENGINE). */
    static String clickHouseColumns() {
        String ddl = Posts.ddl();
        return ddl.substring(ddl.indexOf('(') + 1, ddl.lastIndexOf(')', ddl.indexOf("ENGINE")))
                .strip();
    }

    static String sqlString(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    @Test
    void sqlClientInsertsFromS3IntoMergeTreeWithTheSqlConnectorJar(FlinkStandaloneCluster cluster)
            throws IOException {
        Path dir = E2E.newDir("sql-client");
        List<Path> files = Posts.generate(MONTHS, ROWS_PER_MONTH, 3);
        try (S3ServerProcess s3 = S3ServerProcess.start(dir.resolve("s3"), dir)) {
            s3.createBucket("posts");
            Posts.upload(s3, "posts", "2008/", files);
            Path table = dir.resolve("table");
            String script =
                    String.join(
                            "\n",
                            "SET 'execution.runtime-mode' = 'batch';",
                            "SET 'table.dml-sync' = 'true';",
                            "SET 'parallelism.default' = '2';",
                            "CREATE TABLE posts_src (" + FLINK_COLUMNS + ") WITH (",
                            "  'connector' = 's3-objects',",
                            "  'path' = 's3://posts/2008/*.parquet',",
                            "  'format' = 'Parquet',",
                            "  'endpoint' = '" + s3.endpoint() + "',",
                            "  'access-key' = '" + S3ServerProcess.ACCESS_KEY + "',",
                            "  'secret-key' = '" + S3ServerProcess.SECRET_KEY + "',",
                            "  'columns' = " + sqlString(clickHouseColumns()),
                            ");",
                            "CREATE TABLE posts (" + FLINK_COLUMNS + ") WITH (",
                            "  'connector' = 'mergetree',",
                            "  'path' = '" + table + "',",
                            "  'ddl-file' = '" + Posts.ddlFile() + "',",
                            "  'min_insert_block_size_rows' = '1500'",
                            ");",
                            "INSERT INTO posts SELECT * FROM posts_src;",
                            "");
            Path scriptFile = dir.resolve("ingest.sql");
            Files.writeString(scriptFile, script);
            ManagedProcess sql = cluster.startSqlClient(sqlConnectorJar(), scriptFile, dir);
            int code = sql.waitFor(Duration.ofMinutes(5));
            assertThat(code).as("%s\n%s", sql.describe(), cluster.describe()).isZero();
            assertThat(sql.stdout() + sql.stderr())
                    .as(sql.describe())
                    .doesNotContain("[ERROR]")
                    .doesNotContain("Exception");

            Judge.Verdict v =
                    Judge.assertEqualToClickHouse(
                            table, s3.endpoint() + "/posts/2008/*.parquet", dir.resolve("chdb"));
            assertThat(v.actualRows()).isEqualTo((long) MONTHS * ROWS_PER_MONTH);
            assertThat(v.parts()).isGreaterThanOrEqualTo(1);
        }
    }
}
