package io.github.s3mergetree.objectstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.io.FileNotFoundException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The write semantics the MergeTree commit log relies on, for both stores: the POSIX store and S3
 * (S3Proxy 2.9.0 on loopback, which enforces conditional writes like AWS S3): atomic put,
 * create-only ({@code If-None-Match: *}) with exactly one winner among racing writers,
 * compare-and-swap ({@code If-Match}), streamed multipart uploads, copy, delete and listing.
 */
class ObjectStoreClientContractTest {
    @TempDir static Path tmp;
    private static S3ProxyServer server;

    @BeforeAll
    static void start() throws Exception {
        server = new S3ProxyServer();
        server.createBucket("contract");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    static Stream<String> stores() {
        return Stream.of("local", "s3");
    }

    private static int n;

    private static ObjectStoreClient client(String kind) {
        if (kind.equals("local")) {
            return LocalFileObjectStoreClient.of(tmp.resolve("local-" + n++).toString());
        }
        return ObjectStoreConfig.s3(
                        "contract",
                        server.endpoint(),
                        "us-east-1",
                        true,
                        S3ProxyServer.ACCESS_KEY,
                        S3ProxyServer.SECRET_KEY,
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(30),
                        16)
                .withUploadPartSize(5L << 20)
                .createClient();
    }

    private static String prefix() {
        return "t" + (n++) + "/";
    }

    private static byte[] read(ObjectStoreClient c, String key) throws Exception {
        try (InputStream in = c.get(key)) {
            return in.readAllBytes();
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void createOnlyHasOneWinnerAndIfMatchIsACompareAndSwap(String kind) throws Exception {
        try (ObjectStoreClient c = client(kind)) {
            String p = prefix();
            assertThat(c.supportsConditionalWrites()).isTrue();
            String e1 = c.put(p + "log/1", bytes("first"), WriteCondition.IF_ABSENT);
            assertThatThrownBy(() -> c.put(p + "log/1", bytes("second"), WriteCondition.IF_ABSENT))
                    .isInstanceOf(PreconditionFailedException.class);
            assertThat(read(c, p + "log/1")).isEqualTo(bytes("first"));

            String e2 = c.put(p + "log/1", bytes("third"), WriteCondition.ifMatch(e1));
            assertThat(e2).isNotEqualTo(e1);
            assertThatThrownBy(() -> c.put(p + "log/1", bytes("stale"), WriteCondition.ifMatch(e1)))
                    .isInstanceOf(PreconditionFailedException.class);
            assertThat(read(c, p + "log/1")).isEqualTo(bytes("third"));
            assertThat(c.head(p + "log/1").etag()).isEqualTo(e2);

            // writers racing for the same key: exactly one wins
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                for (int round = 0; round < 5; round++) {
                    String key = p + "race/" + round;
                    List<Future<Boolean>> fs = new ArrayList<>();
                    for (int w = 0; w < 4; w++) {
                        byte[] body = bytes("writer " + w);
                        fs.add(
                                pool.submit(
                                        () -> {
                                            try {
                                                c.put(key, body, WriteCondition.IF_ABSENT);
                                                return true;
                                            } catch (PreconditionFailedException e) {
                                                return false;
                                            }
                                        }));
                    }
                    int winners = 0;
                    for (Future<Boolean> f : fs) {
                        winners += f.get() ? 1 : 0;
                    }
                    assertThat(winners).as("winners of round %d", round).isEqualTo(1);
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void uploadsAppearWholeOnCloseAndAbortedOnesNever(String kind) throws Exception {
        try (ObjectStoreClient c = client(kind)) {
            String p = prefix();
            byte[] big = new byte[(12 << 20) + 12345];
            new Random(7).nextBytes(big);
            try (ObjectOutput out = c.upload(p + "part/data.bin", false)) {
                for (int off = 0; off < big.length; off += 100_000) {
                    out.write(big, off, Math.min(100_000, big.length - off));
                }
                assertThat(out.bytesWritten()).isEqualTo(big.length);
            }
            assertThat(read(c, p + "part/data.bin")).isEqualTo(big);
            try (InputStream in = c.get(p + "part/data.bin", "", 5_000_000, 5_000_010)) {
                assertThat(in.readAllBytes())
                        .isEqualTo(java.util.Arrays.copyOfRange(big, 5_000_000, 5_000_010));
            }

            ObjectOutput aborted = c.upload(p + "part/aborted.bin", false);
            aborted.write(big, 0, 6 << 20);
            aborted.abort();
            aborted.close();
            assertThatThrownBy(() -> c.head(p + "part/aborted.bin"))
                    .isInstanceOf(FileNotFoundException.class);

            try (ObjectOutput small = c.upload(p + "part/count.txt", true)) {
                small.write(bytes("42"));
            }
            assertThat(read(c, p + "part/count.txt")).isEqualTo(bytes("42"));
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aPrefixVanishesWithItsLastKeyAlsoBesideAnAbortedUpload(String kind) throws Exception {
        try (ObjectStoreClient c = client(kind)) {
            String p = prefix();
            // a merge abandoned while one of its files is still being uploaded: the files it
            // wrote are deleted first, the running upload is aborted after (locally this left an
            // empty part directory, listed as a prefix ever after)
            ObjectOutput running = c.upload(p + "all_1_2_1/data.bin", false);
            running.write(bytes("partial"));
            c.put(p + "all_1_2_1/data.cmrk2", bytes("m"), WriteCondition.NONE);
            c.deleteAll(List.of(p + "all_1_2_1/data.cmrk2"));
            running.abort();
            running.close();
            // nor does a copy that fails make its target's prefix
            assertThatThrownBy(() -> c.copy(p + "missing", p + "all_3_3_0/x.bin"))
                    .isInstanceOf(FileNotFoundException.class);
            assertThat(c.list(p, "/", null, null, 1000).commonPrefixes()).isEmpty();
            assertThat(c.list(p, null, null, 1000).objects()).isEmpty();
            // and a prefix with a key left is still there
            c.put(p + "all_5_5_0/z.bin", bytes("z"), WriteCondition.NONE);
            ObjectOutput other = c.upload(p + "all_5_5_0/w.bin", false);
            other.abort();
            assertThat(c.list(p, "/", null, null, 1000).commonPrefixes())
                    .containsExactly(p + "all_5_5_0/");
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void copyDeleteAndListing(String kind) throws Exception {
        try (ObjectStoreClient c = client(kind)) {
            String p = prefix();
            c.put(p + "tmp_a/x.bin", bytes("x"), WriteCondition.NONE);
            c.put(p + "tmp_a/checksums.txt", bytes("c"), WriteCondition.NONE);
            c.put(p + "all_1_1_0/y.bin", bytes("y"), WriteCondition.NONE);
            c.put(p + "format_version.txt", bytes("1"), WriteCondition.NONE);
            c.copy(p + "tmp_a/x.bin", p + "all_2_2_0/x.bin");
            assertThat(read(c, p + "all_2_2_0/x.bin")).isEqualTo(bytes("x"));

            ObjectStoreClient.ListPage top = c.list(p, "/", null, null, 1000);
            assertThat(top.commonPrefixes())
                    .containsExactly(p + "all_1_1_0/", p + "all_2_2_0/", p + "tmp_a/");
            assertThat(top.objects())
                    .extracting(ObjectSummary::key)
                    .containsExactly(p + "format_version.txt");
            assertThat(c.list(p + "tmp_a/", null, null, 1000).objects())
                    .extracting(ObjectSummary::key)
                    .containsExactly(p + "tmp_a/checksums.txt", p + "tmp_a/x.bin");

            c.deleteAll(List.of(p + "tmp_a/x.bin", p + "tmp_a/checksums.txt", p + "missing"));
            c.delete(p + "also-missing");
            assertThat(c.list(p, "/", null, null, 1000).commonPrefixes())
                    .containsExactly(p + "all_1_1_0/", p + "all_2_2_0/");
            assertThatThrownBy(() -> c.copy(p + "nothing", p + "all_3_3_0/x"))
                    .isInstanceOf(FileNotFoundException.class);
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aCopyReplacesAnExistingKeyAndDeleteAllDropsNestedPrefixes(String kind) throws Exception {
        try (ObjectStoreClient c = client(kind)) {
            String p = prefix();
            c.put(p + "tmp_1/x.bin", bytes("one"), WriteCondition.NONE);
            c.put(p + "tmp_2/x.bin", bytes("two"), WriteCondition.NONE);
            c.copy(p + "tmp_1/x.bin", p + "all/deep/x.bin"); // a new key in a new prefix
            assertThat(read(c, p + "all/deep/x.bin")).isEqualTo(bytes("one"));
            c.copy(p + "tmp_2/x.bin", p + "all/deep/x.bin"); // onto an existing key
            assertThat(read(c, p + "all/deep/x.bin")).isEqualTo(bytes("two"));
            c.deleteAll(List.of(p + "tmp_1/x.bin", p + "tmp_2/x.bin"));
            assertThat(read(c, p + "all/deep/x.bin"))
                    .as("a copy outlives its source")
                    .isEqualTo(bytes("two"));
            assertThat(c.list(p, "/", null, null, 1000).commonPrefixes())
                    .containsExactly(p + "all/");

            c.put(p + "all/deep/er/y.bin", bytes("y"), WriteCondition.NONE);
            c.put(p + "all/z.bin", bytes("z"), WriteCondition.NONE);
            // shallowest first: emptied prefixes go whatever the order of the keys
            c.deleteAll(List.of(p + "all/z.bin", p + "all/deep/x.bin", p + "all/deep/er/y.bin"));
            assertThat(c.list(p, "/", null, null, 1000).commonPrefixes()).isEmpty();
            assertThat(c.list(p, null, null, 1000).objects()).isEmpty();
            if (c instanceof LocalFileObjectStoreClient local) {
                assertThat(Path.of(local.root()).resolve(p))
                        .as("no directory or temporary file left behind")
                        .doesNotExist();
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
