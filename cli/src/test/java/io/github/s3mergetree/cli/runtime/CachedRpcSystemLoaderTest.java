package io.github.s3mergetree.cli.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.rpc.RpcService;
import org.apache.flink.runtime.rpc.RpcSystem;
import org.apache.flink.runtime.rpc.RpcSystemLoader;
import org.apache.flink.runtime.rpc.exceptions.RpcLoaderException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CachedRpcSystemLoader}: the RPC system loads from one cached copy of Flink's RPC jar,
 * equal to the entry in Flink's loader jar, reused by the next load and replaced when damaged; a
 * directory others can write to is refused (Flink's own loader takes over then).
 */
class CachedRpcSystemLoaderTest {
    @TempDir Path tmp;

    private static JarURLConnection entry() throws Exception {
        URL url = RpcSystem.class.getClassLoader().getResource(CachedRpcSystemLoader.RPC_JAR);
        assertThat(url).isNotNull();
        return (JarURLConnection) url.openConnection();
    }

    private static List<Path> jars(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }

    @Test
    void loadsAWorkingRpcSystemFromOneCachedCopyThatTheNextLoadReuses() throws Exception {
        Path dir = tmp.resolve("rpc");
        long size = entry().getJarEntry().getSize();
        try (RpcSystem system = new CachedRpcSystemLoader(dir).loadRpcSystem(new Configuration())) {
            RpcService service = system.localServiceBuilder(new Configuration()).createAndStart();
            assertThat(service.getAddress()).isNotNull();
            service.closeAsync().get();
        }
        List<Path> cached = jars(dir);
        assertThat(cached).hasSize(1);
        assertThat(Files.size(cached.get(0))).isEqualTo(size);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
                .isEqualTo("rwx------");

        FileTime written = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(cached.get(0), written);
        try (RpcSystem system = new CachedRpcSystemLoader(dir).loadRpcSystem(new Configuration())) {
            assertThat(system.getMaximumMessageSizeInBytes(new Configuration())).isPositive();
        }
        assertThat(jars(dir)).containsExactlyElementsOf(cached);
        assertThat(Files.getLastModifiedTime(cached.get(0))).isEqualTo(written);
    }

    @Test
    void everyLoadInTheJvmSharesOneRpcSystemThatClosingAHandleDoesNotClose() throws Exception {
        Path dir = tmp.resolve("rpc");
        RpcSystem first = new CachedRpcSystemLoader(dir).loadRpcSystem(new Configuration());
        RpcService one = first.localServiceBuilder(new Configuration()).createAndStart();
        ClassLoader pekko = one.getClass().getClassLoader();
        assertThat(pekko).isNotSameAs(RpcSystem.class.getClassLoader());
        one.closeAsync().get();
        first.close(); // a MiniCluster's shutdown

        try (RpcSystem second = new CachedRpcSystemLoader(dir).loadRpcSystem(new Configuration())) {
            RpcService two = second.localServiceBuilder(new Configuration()).createAndStart();
            RpcService three = second.localServiceBuilder(new Configuration()).createAndStart();
            try {
                // the classes loaded for the first MiniCluster serve the next ones
                assertThat(two.getClass().getClassLoader()).isSameAs(pekko);
                assertThat(two.getAddress()).isNotNull();
                assertThat(three).isNotSameAs(two);
                assertThat(three.getClass().getClassLoader()).isSameAs(pekko);
            } finally {
                two.closeAsync().get();
                three.closeAsync().get();
            }
        }
        assertThat(jars(dir)).hasSize(1);
    }

    @Test
    void aDamagedCopyOfTheSameSizeIsReplaced() throws Exception {
        Path dir = tmp.resolve("rpc");
        JarURLConnection c = entry();
        Path jar = CachedRpcSystemLoader.cachedCopy(c.getURL(), dir);
        byte[] bytes = Files.readAllBytes(jar);
        bytes[bytes.length / 2] ^= 1;
        Files.write(jar, bytes);

        Path again = CachedRpcSystemLoader.cachedCopy(c.getURL(), dir);
        assertThat(again).isEqualTo(jar);
        byte[] fixed = Files.readAllBytes(again);
        assertThat(fixed).hasSize(bytes.length);
        assertThat(fixed[bytes.length / 2]).isNotEqualTo(bytes[bytes.length / 2]);
        assertThat(jars(dir)).containsExactly(jar); // no temporary file left
    }

    @Test
    void aDirectoryOthersCanWriteToIsRefused() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("rpc"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> new CachedRpcSystemLoader(dir).loadRpcSystem(new Configuration()))
                .isInstanceOf(RpcLoaderException.class)
                .hasRootCauseMessage(
                        dir
                                + " is not a directory of "
                                + System.getProperty("user.name")
                                + " that only they can write to (owner "
                                + Files.getOwner(dir).getName()
                                + ", rwxrwxrwx)");
        assertThat(jars(dir)).isEmpty();
    }

    @Test
    void comesFirstAmongTheRpcSystemLoadersOnTheClasspath() {
        List<RpcSystemLoader> loaders =
                ServiceLoader.load(RpcSystemLoader.class).stream()
                        .map(ServiceLoader.Provider::get)
                        .toList();
        assertThat(loaders).anyMatch(l -> l instanceof CachedRpcSystemLoader);
        int mine =
                loaders.stream()
                        .filter(l -> l instanceof CachedRpcSystemLoader)
                        .findFirst()
                        .orElseThrow()
                        .getLoadPriority();
        assertThat(loaders)
                .filteredOn(l -> !(l instanceof CachedRpcSystemLoader))
                .isNotEmpty()
                .allMatch(l -> l.getLoadPriority() > mine);
    }
}
