package io.github.s3mergetree.delivery.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.delivery.testing.ChDbHttpServer;
import io.github.s3mergetree.engine.testing.ClickHouse1816;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP client against two real implementations of ClickHouse's HTTP interface: ClickHouse 26.x
 * (chDB behind {@code tools/chdb/chdb-http-server.js}, with a password) and Debian's ClickHouse
 * 18.16 server process.
 */
class ClickHouseHttpClientITCase {
    private static final String PASSWORD = "s3cr3t-pw";

    @TempDir static Path dir;
    private static ChDbHttpServer chdb;
    private static ClickHouse1816 old;

    @BeforeAll
    static void start() throws Exception {
        chdb = ChDbHttpServer.start(dir.resolve("chdb"), "deliverer", PASSWORD);
        old = ClickHouse1816.start(dir.resolve("ch1816"), true);
    }

    @AfterAll
    static void stop() throws Exception {
        if (chdb != null) {
            chdb.close();
        }
        if (old != null) {
            old.close();
        }
    }

    private static ClickHouseHttpClient chdbClient() {
        return ClickHouseHttpClient.create(
                ClickHouseEndpoint.of(chdb.url()).withCredentials("deliverer", PASSWORD));
    }

    private static ClickHouseHttpClient oldClient() {
        return ClickHouseHttpClient.create(
                ClickHouseEndpoint.of("http://127.0.0.1:" + old.httpPort()));
    }

    @Test
    void versionOfBothServers() throws Exception {
        assertThat(chdbClient().value(Sql.of("SELECT version()"))).startsWith("26.");
        assertThat(oldClient().value(Sql.of("SELECT version()"))).startsWith("18.16");
    }

    @Test
    void tabSeparatedEscapesAreUndone() throws Exception {
        for (ClickHouseHttpClient c : List.of(chdbClient(), oldClient())) {
            List<List<String>> rows =
                    c.rows(
                            Sql.of(
                                    "SELECT 'a\\tb', 'x\\\\ny', 'l1\\nl2' UNION ALL SELECT '', '', ''"));
            assertThat(rows)
                    .containsExactlyInAnyOrder(
                            List.of("a\tb", "x\\ny", "l1\nl2"), List.of("", "", ""));
        }
    }

    @Test
    void databaseParameterSetsTheCurrentDatabase() throws Exception {
        for (ClickHouseHttpClient c : List.of(chdbClient(), oldClient())) {
            c.query(Sql.of("CREATE DATABASE IF NOT EXISTS dbp"));
            c.query(Sql.of("CREATE TABLE IF NOT EXISTS dbp.t (x UInt8) ENGINE = Memory"));
            c.query(Sql.of("INSERT INTO dbp.t VALUES (1), (2)"));
            assertThat(c.query(Sql.of("SELECT count() FROM t"), "dbp", null).trim()).isEqualTo("2");
            c.query(Sql.of("DROP TABLE dbp.t"));
        }
    }

    @Test
    void unknownTableIsAServerErrorWithItsCode() {
        for (ClickHouseHttpClient c : List.of(chdbClient(), oldClient())) {
            assertThatThrownBy(() -> c.query(Sql.of("SELECT * FROM default.no_such_table")))
                    .isInstanceOfSatisfying(
                            ClickHouseServerException.class,
                            e -> {
                                assertThat(e.code()).isEqualTo(60);
                                assertThat(e.httpStatus()).isNotEqualTo(200);
                                assertThat(e.getMessage()).contains("no_such_table");
                            });
        }
    }

    @Test
    void wrongPasswordNamesTheOptionsButNotThePassword() {
        ClickHouseHttpClient c =
                ClickHouseHttpClient.create(
                        ClickHouseEndpoint.of(chdb.url())
                                .withCredentials("deliverer", "wrong-password-123"));
        assertThatThrownBy(() -> c.query(Sql.of("SELECT 1")))
                .isInstanceOfSatisfying(
                        ClickHouseServerException.class,
                        e -> {
                            assertThat(e.code()).isEqualTo(516);
                            assertThat(e.getMessage())
                                    .contains("--clickhouse-password")
                                    .doesNotContain("wrong-password-123")
                                    .doesNotContain(PASSWORD);
                        });
        ClickHouseHttpClient unknownUser =
                ClickHouseHttpClient.create(
                        ClickHouseEndpoint.of("http://127.0.0.1:" + old.httpPort())
                                .withCredentials("nobody", "x"));
        assertThatThrownBy(() -> unknownUser.query(Sql.of("SELECT 1")))
                .isInstanceOf(ClickHouseServerException.class)
                .hasMessageContaining("--clickhouse-user");
    }

    @Test
    void headerAuthenticationWorksToo() throws Exception {
        ClickHouseHttpClient c =
                ClickHouseHttpClient.create(
                        ClickHouseEndpoint.of(chdb.url())
                                .withCredentials("deliverer", PASSWORD)
                                .withAuthentication(ClickHouseEndpoint.Authentication.HEADERS));
        assertThat(c.value(Sql.of("SELECT 41 + 1"))).isEqualTo("42");
        ClickHouseHttpClient o =
                ClickHouseHttpClient.create(
                        ClickHouseEndpoint.of("http://127.0.0.1:" + old.httpPort())
                                .withAuthentication(ClickHouseEndpoint.Authentication.HEADERS));
        assertThat(o.value(Sql.of("SELECT 41 + 1"))).isEqualTo("42");
    }

    @Test
    void secretsAreRedactedFromMessages() {
        Sql sql =
                Sql.withSecret(
                        "SELECT 'very-secret-key' FROM default.no_such_table", "very-secret-key");
        assertThat(sql.toString()).doesNotContain("very-secret-key").contains("[HIDDEN]");
        assertThatThrownBy(() -> chdbClient().query(sql))
                .isInstanceOf(ClickHouseServerException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("very-secret-key"));
        Sql syntax = Sql.withSecret("SELEKT 'very-secret-key'", "very-secret-key");
        assertThatThrownBy(() -> oldClient().query(syntax))
                .isInstanceOf(ClickHouseServerException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("very-secret-key"));
    }

    @Test
    void aClosedPortIsUnreachable() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ClickHouseHttpClient c =
                ClickHouseHttpClient.create(ClickHouseEndpoint.of("http://127.0.0.1:" + port));
        assertThatThrownBy(() -> c.query(Sql.of("SELECT 1")))
                .isInstanceOf(ClickHouseUnreachableException.class)
                .hasMessageContaining("127.0.0.1:" + port);
    }

    @Test
    void endpointRefusesCredentialsAndQueriesInTheUrl() {
        assertThatThrownBy(() -> ClickHouseEndpoint.of("http://u:pw@host:8123"))
                .hasMessageContaining("--clickhouse-user")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("pw@"));
        assertThatThrownBy(() -> ClickHouseEndpoint.of("http://host:8123/?password=x"))
                .hasMessageContaining("query string");
        assertThatThrownBy(() -> ClickHouseEndpoint.of("tcp://host:9000"))
                .hasMessageContaining("http://host:port");
        assertThat(ClickHouseEndpoint.of("http://host:8123").withCredentials("u", "pw").toString())
                .doesNotContain("pw)")
                .contains("password set");
    }
}
