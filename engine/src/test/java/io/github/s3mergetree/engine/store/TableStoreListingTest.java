package io.github.s3mergetree.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.testing.TestStores;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One level of a table's keys, alike on both stores (a directory and S3 through S3Proxy, the table
 * under a prefix of the bucket beside another table): {@link TableStore#listFileNames} names the
 * objects directly under a prefix, {@link TableStore#listDirectories} its "directories", neither
 * reaching into the other level or out of the table.
 */
class TableStoreListingTest {
    private static final String BUCKET = "listing";

    @TempDir static Path dir;
    private static S3ProxyServer server;

    @BeforeAll
    static void start() throws Exception {
        server = new S3ProxyServer();
        server.createBucket(BUCKET);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "s3"})
    void filesAndDirectoriesOfOneLevel(String kind) throws Exception {
        try (TableStore neighbour = TestStores.of(kind, dir, server, BUCKET, "t1");
                TableStore store = TestStores.of(kind, dir, server, BUCKET, "t")) {
            neighbour.put("all_1_1_0/other.bin", bytes("not this table's"));
            store.put("format_version.txt", bytes("1"));
            store.put("all_1_1_0/checksums.txt", bytes("c"));
            store.put("all_1_1_0/data.bin", bytes("d"));
            store.put("all_1_1_0/skp_idx_i/x.idx", bytes("nested"));
            store.put("all_2_2_0/count.txt", bytes("3"));

            assertThat(store.listFileNames("")).containsExactly("format_version.txt");
            assertThat(store.listFileNames("all_1_1_0/"))
                    .containsExactly("checksums.txt", "data.bin");
            assertThat(store.listDirectories("")).containsExactly("all_1_1_0", "all_2_2_0");
            assertThat(store.listDirectories("all_1_1_0/")).containsExactly("skp_idx_i");
            assertThat(store.listFileNames("all_1_1_0/skp_idx_i/")).containsExactly("x.idx");
            assertThat(store.listFileNames("all_9_9_0/")).isEmpty();
            assertThat(store.listDirectories("all_9_9_0/")).isEmpty();

            store.delete("all_2_2_0/count.txt");
            assertThat(store.listDirectories(""))
                    .as("a directory goes with its last object, as an S3 prefix does")
                    .containsExactly("all_1_1_0");
        }
    }
}
