package io.github.s3mergetree.objectstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A ranged GET whose answer does not start at the asked byte is refused, not read: a server or
 * proxy on loopback that ignores the {@code Range} header (200 with the whole object) would
 * otherwise have its first bytes read as the range, wrong values without an error. A 206 with the
 * asked range, and a 200 for a range from byte 0, are read.
 */
class RangedGetAnswerTest {
    static final byte[] OBJECT = "0123456789abcdefghij".getBytes(StandardCharsets.US_ASCII);

    HttpServer server;
    volatile boolean honourRange;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(
                "/",
                exchange -> {
                    String range = exchange.getRequestHeaders().getFirst("Range");
                    exchange.getResponseHeaders().add("ETag", "\"e1\"");
                    if (honourRange && range != null) {
                        String[] se = range.substring("bytes=".length()).split("-");
                        int s = Integer.parseInt(se[0]);
                        int e = Integer.parseInt(se[1]);
                        exchange.getResponseHeaders()
                                .add("Content-Range", "bytes " + s + "-" + e + "/" + OBJECT.length);
                        exchange.sendResponseHeaders(206, e - s + 1);
                        exchange.getResponseBody().write(OBJECT, s, e - s + 1);
                    } else {
                        exchange.sendResponseHeaders(200, OBJECT.length);
                        exchange.getResponseBody().write(OBJECT);
                    }
                    exchange.close();
                });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private ObjectStoreClient client() {
        return ObjectStoreConfig.s3(
                        "b",
                        URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
                        "us-east-1",
                        true,
                        "access",
                        "secret",
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(10),
                        2)
                .createClient();
    }

    private static String read(InputStream in, int n) throws Exception {
        try (in) {
            return new String(in.readNBytes(n), StandardCharsets.US_ASCII);
        }
    }

    @Test
    void aWholeObjectAnswerToARangeFromTheMiddleIsRefused() throws Exception {
        honourRange = false;
        try (ObjectStoreClient c = client()) {
            assertThatThrownBy(() -> c.get("k", "e1", 5, 10))
                    .isInstanceOf(RetryableStoreException.class)
                    .hasMessageContaining("GET bytes 5-9")
                    .hasMessageContaining("without a Content-Range")
                    .hasMessageContaining("does not start at byte 5");
            // from byte 0 the whole object's first bytes are the range
            assertThat(read(c.get("k", "e1", 0, 10), 10)).isEqualTo("0123456789");
        }
    }

    @Test
    void theAskedRangeIsRead() throws Exception {
        honourRange = true;
        try (ObjectStoreClient c = client()) {
            assertThat(read(c.get("k", "e1", 5, 10), 5)).isEqualTo("56789");
        }
    }

    @Test
    void aContentRangeFromAnotherByteIsRefused() {
        assertThat(AwsS3ObjectStoreClient.answersRangeFrom("bytes 5-9/20", 5)).isTrue();
        assertThat(AwsS3ObjectStoreClient.answersRangeFrom("bytes 0-19/20", 5)).isFalse();
        assertThat(AwsS3ObjectStoreClient.answersRangeFrom("bytes 50-59/200", 5)).isFalse();
        assertThat(AwsS3ObjectStoreClient.answersRangeFrom(null, 0)).isTrue();
        assertThat(AwsS3ObjectStoreClient.answersRangeFrom(null, 5)).isFalse();
    }
}
