package io.github.s3mergetree.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.testing.TestStores;
import io.github.s3mergetree.objectstore.ObjectOutput;
import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.objectstore.RetryPolicy;
import io.github.s3mergetree.objectstore.RetryableStoreException;
import io.github.s3mergetree.objectstore.WriteCondition;
import io.github.s3mergetree.objectstore.testing.OutageProxy;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A table's store through an S3 outage (S3Proxy behind a proxy that resets connections while the
 * outage lasts): every kind of request — list, get, head, put, conditional put, copy, delete,
 * streamed upload — is retried and succeeds once the store is back; with the default policy an
 * outage of more attempts than the old default (8) allowed is outlasted. A conditional put whose
 * answer is lost and whose retry meets 412 on its own bytes counts as made, not as a conflict.
 */
class TableStoreOutageTest {
    private static final String BUCKET = "outage";

    private static S3ProxyServer server;
    private static OutageProxy proxy;
    private static int tables;

    @BeforeAll
    static void start() throws Exception {
        server = new S3ProxyServer();
        server.createBucket(BUCKET);
        proxy = new OutageProxy(server.port());
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
        server.close();
    }

    private static TableStore throughProxy(RetryPolicy retry) {
        ObjectStoreConfig c = TestStores.s3Config(proxy.endpoint(), BUCKET).withRetryPolicy(retry);
        String prefix = "t" + tables++ + "/";
        return TableStore.of(c.createClient(), prefix, "s3://" + BUCKET + "/" + prefix, retry);
    }

    private interface Op<T> {
        T run() throws IOException;
    }

    /** Runs {@code op} through an outage of {@code connections} reset connections. */
    private static <T> T duringOutage(int connections, Op<T> op) throws IOException {
        int before = proxy.refused();
        proxy.outage(connections);
        T result = op.run();
        assertThat(proxy.outageLeft()).as("the outage ended before the call returned").isZero();
        assertThat(proxy.refused() - before).isEqualTo(connections);
        return result;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void everyKindOfRequestIsRetriedThroughAnOutage() throws Exception {
        // a fast policy: what is tested here is that each request kind is retried at all
        try (TableStore s = throughProxy(new RetryPolicy(30, 1, 20))) {
            duringOutage(5, () -> s.put("a.json", bytes("a")));
            assertThat(duringOutage(5, () -> s.read("a.json"))).isEqualTo(bytes("a"));
            assertThat(duringOutage(5, () -> s.stat("a.json")).orElseThrow().size()).isEqualTo(1);
            assertThat(duringOutage(5, () -> s.list("")))
                    .extracting(ObjectSummary::key)
                    .containsExactly("a.json");
            assertThat(duringOutage(5, () -> s.listDirectories(""))).isEmpty();
            assertThat(duringOutage(5, () -> s.createIfAbsent("log/1.json", bytes("one"))))
                    .isTrue();
            assertThat(duringOutage(5, () -> s.createIfAbsent("log/1.json", bytes("two"))))
                    .as("a real conflict stays one")
                    .isFalse();
            String etag = s.stat("a.json").orElseThrow().etag();
            assertThat(duringOutage(5, () -> s.replaceIfMatch("a.json", bytes("b"), etag)))
                    .isPresent();
            assertThat(duringOutage(5, () -> s.replaceIfMatch("a.json", bytes("c"), etag)))
                    .as("a stale ETag stays a conflict")
                    .isEmpty();
            duringOutage(
                    5,
                    () -> {
                        s.copy("a.json", "copy.json");
                        return null;
                    });
            duringOutage(
                    5,
                    () -> {
                        try (ObjectOutput out = s.create("stream.bin", true)) {
                            out.write(bytes("streamed"));
                        }
                        return null;
                    });
            duringOutage(
                    5,
                    () -> {
                        s.delete("copy.json");
                        return null;
                    });
            assertThat(s.read("a.json")).isEqualTo(bytes("b"));
            assertThat(s.read("stream.bin")).isEqualTo(bytes("streamed"));
            assertThat(s.exists("copy.json")).isFalse();
            assertThat(s.read("log/1.json")).isEqualTo(bytes("one"));
        }
    }

    @Test
    void theDefaultPolicyOutlastsAnOutageOfTwelveFailedAttempts() throws Exception {
        ObjectStoreConfig c = TestStores.s3Config(proxy.endpoint(), BUCKET);
        assertThat(c.retryPolicy()).isSameAs(RetryPolicy.STORE_DEFAULT);
        try (TableStore s =
                TableStore.of(
                        c.createClient(),
                        "default/",
                        "s3://" + BUCKET + "/default",
                        c.retryPolicy())) {
            s.put("s3mergetree_metadata/log/0001.json", bytes("{}"));
            // 12 attempts in a row fail (about 10 s of backoff); the old default gave up after 8
            assertThat(duringOutage(12, () -> s.list("s3mergetree_metadata/")))
                    .extracting(ObjectSummary::key)
                    .containsExactly("s3mergetree_metadata/log/0001.json");
        }
    }

    /** A client whose next conditional put is made but answered with a connection error. */
    private static final class LostAnswers implements ObjectStoreClient {
        private final ObjectStoreClient real;
        int loseNext;

        LostAnswers(ObjectStoreClient real) {
            this.real = real;
        }

        @Override
        public String put(String key, byte[] content, WriteCondition condition) throws IOException {
            String etag = real.put(key, content, condition);
            if (loseNext > 0) {
                loseNext--;
                throw new RetryableStoreException(
                        "PUT " + key + ": connection reset after the write", false, null);
            }
            return etag;
        }

        @Override
        public ListPage list(
                String prefix, String startAfter, String continuationToken, int maxKeys)
                throws IOException {
            return real.list(prefix, startAfter, continuationToken, maxKeys);
        }

        @Override
        public ListPage list(
                String prefix,
                String delimiter,
                String startAfter,
                String continuationToken,
                int maxKeys)
                throws IOException {
            return real.list(prefix, delimiter, startAfter, continuationToken, maxKeys);
        }

        @Override
        public ObjectSummary head(String key) throws IOException {
            return real.head(key);
        }

        @Override
        public InputStream get(String key, String etag, long start, long endExclusive)
                throws IOException {
            return real.get(key, etag, start, endExclusive);
        }

        @Override
        public boolean supportsConditionalWrites() {
            return real.supportsConditionalWrites();
        }

        @Override
        public String describe(String key) {
            return real.describe(key);
        }

        @Override
        public void close() {
            real.close();
        }
    }

    @Test
    void aConditionalPutWhoseAnswerWasLostIsRecognisedAsOwnSuccessOnTheRetrys412()
            throws Exception {
        LostAnswers client =
                new LostAnswers(TestStores.s3Config(server.endpoint(), BUCKET).createClient());
        try (TableStore s =
                TableStore.of(
                        client, "lost/", "s3://" + BUCKET + "/lost", new RetryPolicy(5, 1, 5))) {
            client.loseNext = 1;
            assertThat(s.createIfAbsent("log/1.json", bytes("mine"))).isTrue();
            assertThat(client.loseNext).isZero();
            // a key holding other bytes is a conflict
            s.put("taken.json", bytes("theirs"));
            assertThat(s.createIfAbsent("taken.json", bytes("mine"))).isFalse();

            String etag = s.stat("log/1.json").orElseThrow().etag();
            client.loseNext = 1;
            Optional<String> replaced = s.replaceIfMatch("log/1.json", bytes("mine, v2"), etag);
            assertThat(replaced).isPresent();
            assertThat(replaced.get()).isEqualTo(s.stat("log/1.json").orElseThrow().etag());
            assertThat(s.read("log/1.json")).isEqualTo(bytes("mine, v2"));
            // and a stale ETag is a conflict even when the answer of a retried attempt was lost
            assertThat(s.replaceIfMatch("log/1.json", bytes("stale"), etag)).isEmpty();
        }
    }
}
