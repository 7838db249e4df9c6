package io.github.s3mergetree.source.s3.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.objectstore.ObjectChangedException;
import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.objectstore.RetryPolicy;
import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import io.github.s3mergetree.source.s3.testutils.FaultInjectingProxy;
import io.github.s3mergetree.source.s3.testutils.S3TestServer;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Ranged and parallel reads, retries and ETag pinning against S3Proxy, with injected faults. */
class ObjectReaderTest {
    static S3TestServer s3;
    static byte[] data;
    static final String BUCKET = "reader";
    static final ExecutorService POOL = Executors.newFixedThreadPool(4);

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3TestServer();
        s3.createBucket(BUCKET);
        data = new byte[5 * 1024 * 1024 + 123];
        new Random(42).nextBytes(data);
        s3.put(BUCKET, "blob.bin", data);
    }

    @AfterAll
    static void stop() throws Exception {
        POOL.shutdownNow();
        s3.close();
    }

    static ObjectStoreClient client(java.net.URI endpoint) {
        return ObjectStoreConfig.s3(
                        BUCKET,
                        endpoint,
                        "us-east-1",
                        true,
                        S3TestServer.ACCESS_KEY,
                        S3TestServer.SECRET_KEY,
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(10),
                        16)
                .createClient();
    }

    static ObjectReader reader(ObjectStoreClient c, S3SourceMetrics m, int threads, int buffer) {
        return new ObjectReader(
                c,
                new RetryPolicy(30, 1, 10),
                RetryPolicy.Sleeper.SYSTEM,
                GetRateLimiter.unlimited(),
                m,
                POOL,
                threads,
                buffer);
    }

    @Test
    void parallelRangedGetsReturnExactBytes() throws Exception {
        S3SourceMetrics m = S3SourceMetrics.unregistered();
        try (ObjectStoreClient c = client(s3.endpoint())) {
            ObjectSummary o = c.head("blob.bin");
            ObjectReader r = reader(c, m, 4, 256 * 1024);
            assertThat(r.isParallel(data.length)).isTrue();
            byte[] got = r.readFully("blob.bin", o.etag(), 0, data.length);
            assertThat(got).isEqualTo(data);
            assertThat(m.getRequests()).isEqualTo((data.length + 256 * 1024 - 1) / (256 * 1024));
            assertThat(m.bytesDownloaded()).isEqualTo(data.length);
            byte[] mid = r.readFully("blob.bin", o.etag(), 1000, 1100);
            assertThat(mid).isEqualTo(java.util.Arrays.copyOfRange(data, 1000, 1100));
        }
    }

    @Test
    void retriesSlowDownsResetsAndTruncatedBodiesResumingFromTheLastByte() throws Exception {
        S3SourceMetrics m = S3SourceMetrics.unregistered();
        try (FaultInjectingProxy proxy = new FaultInjectingProxy(s3.port(), 4, 7, 3);
                ObjectStoreClient c = client(proxy.endpoint())) {
            proxy.setFaults(0, 0, 0);
            ObjectSummary o = c.head("blob.bin");
            proxy.setFaults(4, 7, 3);
            ObjectReader parallel = reader(c, m, 4, 512 * 1024);
            assertThat(parallel.readFully("blob.bin", o.etag(), 0, data.length)).isEqualTo(data);
            ObjectReader single = reader(c, m, 1, 512 * 1024);
            assertThat(single.readFully("blob.bin", o.etag(), 7, data.length))
                    .isEqualTo(java.util.Arrays.copyOfRange(data, 7, data.length));
            assertThat(proxy.slowDowns.get()).isPositive();
            assertThat(proxy.resets.get()).isPositive();
            assertThat(proxy.truncations.get()).isPositive();
            assertThat(m.retries()).isGreaterThanOrEqualTo(proxy.faults());
            assertThat(m.throttled()).isEqualTo(proxy.slowDowns.get());
        }
    }

    @Test
    void aChangedObjectIsAClearError() throws Exception {
        try (ObjectStoreClient c = client(s3.endpoint())) {
            s3.put(BUCKET, "changing.bin", new byte[] {1, 2, 3});
            ObjectSummary before = c.head("changing.bin");
            s3.put(BUCKET, "changing.bin", new byte[] {4, 5, 6, 7});
            ObjectReader r = reader(c, S3SourceMetrics.unregistered(), 1, 1024);
            assertThatThrownBy(() -> r.readFully("changing.bin", before.etag(), 0, 3))
                    .isInstanceOf(ObjectChangedException.class)
                    .hasMessageContaining("s3://reader/changing.bin")
                    .hasMessageContaining(before.etag());
        }
    }

    @Test
    void listsAllPagesOfIndependentPrefixesInParallel() throws Exception {
        for (int d = 0; d < 3; d++) {
            for (int i = 0; i < 25; i++) {
                s3.put(BUCKET, "list/" + d + "/k" + i, new byte[] {1});
            }
        }
        s3.put(BUCKET, "list/3/k0", new byte[] {1});
        S3SourceMetrics m = S3SourceMetrics.unregistered();
        try (ObjectStoreClient c = client(s3.endpoint());
                ObjectLister lister =
                        new ObjectLister(
                                c,
                                new RetryPolicy(3, 1, 5),
                                RetryPolicy.Sleeper.SYSTEM,
                                m,
                                10,
                                4)) {
            var all = lister.list(GlobPattern.compile("list/{0..2}/k*"), null);
            assertThat(all).hasSize(75);
            assertThat(m.listRequests()).isEqualTo(9); // 3 prefixes x 3 pages of 10
            assertThat(m.objectsListed()).isEqualTo(75);
            var after = lister.list(GlobPattern.compile("list/{0..2}/k*"), "list/1/k5");
            assertThat(after).allMatch(o -> o.key().compareTo("list/1/k5") > 0);
            assertThat(after)
                    .hasSize(4 + 25); // k6..k9 of list/1 (k10..k24 sort before k5), all of list/2
        }
    }
}
