package io.github.s3mergetree.engine.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A standalone ZooKeeper server (Apache ZooKeeper 3.7, in this JVM) on 127.0.0.1 and a free port,
 * with its snapshots and transaction log under a work directory.
 *
 * <p>Why: replicated ClickHouse tables ({@code ReplicatedMergeTree}) coordinate through ZooKeeper;
 * tests that deliver into them need a real one, and an in-process server starts in milliseconds and
 * ends with the test JVM.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
    /** ZooKeeper's tick: sessions may last 2 to 20 ticks (4 s to 40 s). */
    private static final int TICK_MILLIS = 2000;

    private static final int MAX_CLIENT_CONNECTIONS = 200;

    private final ZooKeeperServer server;
    private final ServerCnxnFactory connections;

    private EmbeddedZooKeeper(ZooKeeperServer server, ServerCnxnFactory connections) {
        this.server = server;
        this.connections = connections;
    }

    /**
     * Starts a server whose data lives under {@code workDir} (created if missing; use a fresh
     * directory per server).
     *
     * @throws UncheckedIOException if the directory cannot be prepared or the port not bound
     */
    public static EmbeddedZooKeeper start(Path workDir) {
        try {
            Path snapshots = Files.createDirectories(workDir.resolve("snapshots"));
            Path log = Files.createDirectories(workDir.resolve("log"));
            ZooKeeperServer server =
                    new ZooKeeperServer(snapshots.toFile(), log.toFile(), TICK_MILLIS);
            ServerCnxnFactory connections =
                    ServerCnxnFactory.createFactory(
                            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                            MAX_CLIENT_CONNECTIONS);
            connections.startup(server);
            return new EmbeddedZooKeeper(server, connections);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start ZooKeeper under " + workDir, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting ZooKeeper", e);
        }
    }

    /** The client port on 127.0.0.1. */
    public int port() {
        return connections.getLocalPort();
    }

    /** {@code 127.0.0.1:<port>}, a ZooKeeper connect string. */
    public String connectString() {
        return "127.0.0.1:" + port();
    }

    /** Stops accepting clients and shuts the server down. Idempotent. */
    @Override
    public void close() {
        connections.shutdown();
        server.shutdown();
    }

    @Override
    public String toString() {
        return "EmbeddedZooKeeper[" + connectString() + "]";
    }
}
