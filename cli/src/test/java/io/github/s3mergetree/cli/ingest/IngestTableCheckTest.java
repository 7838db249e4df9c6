package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ingest} checks an {@code s3://} table's store before anything is written, in seconds and
 * with one line: an unreachable table endpoint is not waited out through the table store's retries
 * (which let a running job outlast an outage), and a wrong table secret says to check the
 * credentials.
 */
class IngestTableCheckTest {
    @TempDir Path tmp;

    private static String deadEndpoint() throws Exception {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return "http://127.0.0.1:" + s.getLocalPort();
        }
    }

    private static void refusedFastWithOneLine(
            IngestFixture fx, List<String> args, String... parts) {
        long start = System.nanoTime();
        IngestFixture.Result r = IngestFixture.runInProcess(args);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        List<String> errors = r.err().lines().filter(l -> l.contains("error:")).toList();
        assertThat(errors).as(r.err()).hasSize(1);
        assertThat(errors.get(0)).contains(parts).doesNotContain(IngestFixture.SECRET);
        assertThat(took).as(r.err()).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void anUnreachableTableEndpointAndAWrongTableSecretFailInSecondsWithOneLine() throws Exception {
        try (IngestFixture fx = new IngestFixture(tmp)) {
            fx.addFiles(1, 100);
            String table = "s3://" + IngestFixture.BUCKET + "/tables/posts";
            refusedFastWithOneLine(
                    fx,
                    fx.ingestArgs(table, "--table-s3-endpoint", deadEndpoint()),
                    "cannot reach the object store of " + table,
                    "check the endpoint");
            refusedFastWithOneLine(
                    fx,
                    fx.ingestArgs(
                            table,
                            "--table-s3-access-key",
                            IngestFixture.KEY,
                            "--table-s3-secret-key",
                            "not-the-secret"),
                    "cannot list " + table,
                    "check the credentials");
        }
    }
}
