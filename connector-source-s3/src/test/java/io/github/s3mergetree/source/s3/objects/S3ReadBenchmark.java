package io.github.s3mergetree.source.s3.objects;

import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.objectstore.RetryPolicy;
import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import io.github.s3mergetree.source.s3.testutils.S3TestServer;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Read throughput of one large object over loopback: raw AWS SDK GETs (1 stream and N parallel
 * ranged streams, the machine's loopback GET capacity against S3Proxy) beside the source's {@link
 * ObjectReader} with 1 and {@code max_download_threads} streams. S3Proxy runs over its filesystem
 * store (the object is on local disk, so the page cache serves it). Not part of the default test
 * run: {@code mvn -pl connector-source-s3 test -Dtest=S3ReadBenchmark -Ds3source.benchmark=true}
 * ({@code -Ds3source.benchmark.mib=512} sets the object size).
 */
@EnabledIfSystemProperty(named = "s3source.benchmark", matches = "true")
class S3ReadBenchmark {
    static final int THREADS = 4;
    static final int BUFFER = 10 * 1024 * 1024;
    static final int ROUNDS = Integer.getInteger("s3source.benchmark.rounds", 5);

    @Test
    void largeObject() throws Exception {
        int mib = Integer.getInteger("s3source.benchmark.mib", 512);
        long size = (long) mib * 1024 * 1024;
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("s3bench");
        try (S3TestServer s3 = new S3TestServer(dir)) {
            s3.createBucket("bench");
            byte[] data = new byte[(int) size];
            new Random(1).nextBytes(data);
            long t0 = System.nanoTime();
            s3.put("bench", "big.bin", data);
            System.out.printf(
                    "PUT %d MiB: %.0f MB/s%n", mib, size / 1e6 / ((System.nanoTime() - t0) / 1e9));
            data = null;
            S3Client raw = S3TestServer.newClient(s3.endpoint());
            ObjectStoreClient client =
                    ObjectStoreConfig.s3(
                                    "bench",
                                    s3.endpoint(),
                                    "us-east-1",
                                    true,
                                    S3TestServer.ACCESS_KEY,
                                    S3TestServer.SECRET_KEY,
                                    Duration.ofSeconds(10),
                                    Duration.ofSeconds(60),
                                    16)
                            .createClient();
            String etag = client.head("big.bin").etag();
            S3SourceMetrics m = S3SourceMetrics.unregistered();
            ObjectReader one =
                    new ObjectReader(
                            client,
                            new RetryPolicy(5, 10, 100),
                            RetryPolicy.Sleeper.SYSTEM,
                            GetRateLimiter.unlimited(),
                            m,
                            pool,
                            1,
                            BUFFER);
            ObjectReader many =
                    new ObjectReader(
                            client,
                            new RetryPolicy(5, 10, 100),
                            RetryPolicy.Sleeper.SYSTEM,
                            GetRateLimiter.unlimited(),
                            m,
                            pool,
                            THREADS,
                            BUFFER);
            List<String> lines = new ArrayList<>();
            double[][] all = new double[5][ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                double rawOne =
                        mbps(
                                size,
                                () -> drain(raw.getObject(b -> b.bucket("bench").key("big.bin"))));
                double rawMany = mbps(size, () -> rawParallel(raw, size, pool));
                double srcOne = mbps(size, () -> drain(one.open("big.bin", etag, 0, size)));
                double srcMany = mbps(size, () -> drain(many.open("big.bin", etag, 0, size)));
                double srcFully =
                        mbps(size, () -> many.readFully("big.bin", etag, 0, size).hashCode());
                all[0][round] = rawOne;
                all[1][round] = rawMany;
                all[2][round] = srcOne;
                all[3][round] = srcMany;
                all[4][round] = srcFully;
                lines.add(
                        String.format(
                                "round %d: raw 1 stream %.0f MB/s | raw %d ranged streams %.0f MB/s | source 1 stream %.0f MB/s | source %d threads x %d MiB %.0f MB/s | source readFully %.0f MB/s",
                                round,
                                rawOne,
                                THREADS,
                                rawMany,
                                srcOne,
                                THREADS,
                                BUFFER >> 20,
                                srcMany,
                                srcFully));
            }
            lines.forEach(System.out::println);
            chdbAnchor(s3, dir, size);
            for (double[] a : all) {
                java.util.Arrays.sort(a);
            }
            System.out.printf(
                    "median of %d: raw 1 stream %.0f MB/s | raw %d ranged streams %.0f MB/s | source 1 stream %.0f MB/s (%.0f%% of raw) | source %d threads %.0f MB/s (%.0f%% of raw parallel) | source readFully %.0f MB/s (%.0f%% of raw parallel)%n",
                    ROUNDS,
                    all[0][ROUNDS / 2],
                    THREADS,
                    all[1][ROUNDS / 2],
                    all[2][ROUNDS / 2],
                    100 * all[2][ROUNDS / 2] / all[0][ROUNDS / 2],
                    THREADS,
                    all[3][ROUNDS / 2],
                    100 * all[3][ROUNDS / 2] / all[1][ROUNDS / 2],
                    all[4][ROUNDS / 2],
                    100 * all[4][ROUNDS / 2] / all[1][ROUNDS / 2]);
            client.close();
            raw.close();
        } finally {
            pool.shutdownNow();
            org.apache.flink.util.FileUtils.deleteDirectory(dir.toFile());
        }
    }

    /** chDB (ClickHouse) reading the same object with s3() as RawBLOB into a Null table. */
    static void chdbAnchor(S3TestServer s3, java.nio.file.Path dir, long size) {
        io.github.s3mergetree.engine.testing.ChDb chdb;
        try {
            chdb = io.github.s3mergetree.engine.testing.ChDb.start(dir.resolve("chdb"));
        } catch (IllegalStateException e) {
            System.out.println("chDB not installed: no anchor (" + e.getMessage() + ")");
            return;
        }
        try (chdb) {
            chdb.execute("CREATE TABLE sink (data String) ENGINE = Null");
            double[] t = new double[ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                long t0 = System.nanoTime();
                chdb.execute(
                        "INSERT INTO sink SELECT * FROM s3('"
                                + s3.endpoint()
                                + "/bench/big.bin', '"
                                + S3TestServer.ACCESS_KEY
                                + "', '"
                                + S3TestServer.SECRET_KEY
                                + "', 'RawBLOB') SETTINGS max_download_threads = "
                                + THREADS
                                + ", max_download_buffer_size = "
                                + BUFFER);
                t[round] = size / 1e6 / ((System.nanoTime() - t0) / 1e9);
                System.out.printf(
                        "round %d: chDB s3() RawBLOB -> Null %.0f MB/s%n", round, t[round]);
            }
            java.util.Arrays.sort(t);
            System.out.printf(
                    "median of %d: chDB %s %.0f MB/s%n", ROUNDS, chdb.version(), t[ROUNDS / 2]);
        }
    }

    interface Run {
        void run() throws Exception;
    }

    static double mbps(long bytes, Run r) throws Exception {
        long t0 = System.nanoTime();
        r.run();
        return bytes / 1e6 / ((System.nanoTime() - t0) / 1e9);
    }

    static long drain(InputStream in) throws Exception {
        byte[] buf = new byte[1 << 20];
        long n = 0;
        try (in) {
            int r;
            while ((r = in.read(buf)) >= 0) {
                n += r;
            }
        }
        return n;
    }

    /** THREADS raw ranged GETs of BUFFER bytes in flight, like ClickHouse's parallel download. */
    static void rawParallel(S3Client raw, long size, ExecutorService pool) throws Exception {
        List<Future<Long>> fs = new ArrayList<>();
        long chunks = (size + BUFFER - 1) / BUFFER;
        for (long c = 0; c < chunks; c++) {
            long s = c * BUFFER;
            long e = Math.min(size, s + BUFFER) - 1;
            fs.add(
                    pool.submit(
                            () ->
                                    drain(
                                            raw.getObject(
                                                    b ->
                                                            b.bucket("bench")
                                                                    .key("big.bin")
                                                                    .range(
                                                                            "bytes=" + s + "-"
                                                                                    + e)))));
        }
        for (Future<Long> f : fs) {
            f.get();
        }
    }
}
