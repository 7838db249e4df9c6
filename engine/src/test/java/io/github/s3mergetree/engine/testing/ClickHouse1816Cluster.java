package io.github.s3mergetree.engine.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A replicated ClickHouse 18.16 cluster for tests: an {@link EmbeddedZooKeeper} and {@code shards ×
 * replicas} {@link ClickHouse1816} server processes on 127.0.0.1, each with its own directory and
 * ports (native TCP, HTTP, interserver HTTP for fetching parts from its peers), the {@code
 * <zookeeper>} section, {@code <macros>} ({@code shard} = {@code 01}, {@code 02}, …; {@code
 * replica} = {@code r1}, {@code r2}, … within a shard) and a {@code remote_servers} cluster named
 * {@value #CLUSTER} listing every server by shard (with {@code internal_replication}).
 *
 * <p>Why: delivery into {@code ReplicatedMergeTree} tables is only proven by a real server handing
 * the delivered parts to its replicas through ZooKeeper. A table created on every server with
 * {@code ReplicatedMergeTree('/clickhouse/tables/{shard}/<name>', '{replica}')} is one replicated
 * table per shard.
 *
 * <p>Life cycle: {@link #close()} stops the servers, then ZooKeeper; each server also has the
 * shutdown hook and watchdog of {@link ClickHouse1816}.
 */
public final class ClickHouse1816Cluster implements AutoCloseable {
    /** The name of the {@code remote_servers} cluster. */
    public static final String CLUSTER = "s3mergetree";

    private final EmbeddedZooKeeper zooKeeper;
    private final List<List<ClickHouse1816>> servers;

    private ClickHouse1816Cluster(EmbeddedZooKeeper zooKeeper, List<List<ClickHouse1816>> servers) {
        this.zooKeeper = zooKeeper;
        this.servers = servers;
    }

    /**
     * Starts ZooKeeper and {@code shards × replicas} servers (with HTTP) under {@code workDir}, one
     * after another; fails (stopping what started) if any does not start.
     */
    public static ClickHouse1816Cluster start(Path workDir, int shards, int replicas) {
        if (shards < 1 || replicas < 1) {
            throw new IllegalArgumentException(
                    "a cluster needs at least one shard and one replica, got "
                            + shards
                            + " × "
                            + replicas);
        }
        Path dir = workDir.toAbsolutePath().normalize();
        int[][] tcpPorts = new int[shards][replicas];
        int[][] interserverPorts = new int[shards][replicas];
        try {
            for (int s = 0; s < shards; s++) {
                for (int r = 0; r < replicas; r++) {
                    tcpPorts[s][r] = ClickHouse1816.freePort();
                    interserverPorts[s][r] = ClickHouse1816.freePort();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find free ports on 127.0.0.1", e);
        }
        EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zookeeper"));
        List<List<ClickHouse1816>> started = new ArrayList<>();
        ClickHouse1816Cluster cluster = new ClickHouse1816Cluster(zk, started);
        try {
            String remoteServers = remoteServers(tcpPorts);
            for (int s = 0; s < shards; s++) {
                List<ClickHouse1816> shard = new ArrayList<>();
                started.add(shard);
                for (int r = 0; r < replicas; r++) {
                    String extra =
                            "    <zookeeper>\n"
                                    + "        <node><host>127.0.0.1</host><port>"
                                    + zk.port()
                                    + "</port></node>\n"
                                    + "        <session_timeout_ms>30000</session_timeout_ms>\n"
                                    + "    </zookeeper>\n"
                                    + "    <macros>\n"
                                    + "        <shard>"
                                    + shardMacro(s + 1)
                                    + "</shard>\n"
                                    + "        <replica>"
                                    + replicaMacro(r + 1)
                                    + "</replica>\n"
                                    + "    </macros>\n"
                                    + "    <interserver_http_host>127.0.0.1</interserver_http_host>\n"
                                    + "    <interserver_http_port>"
                                    + interserverPorts[s][r]
                                    + "</interserver_http_port>\n"
                                    + remoteServers;
                    shard.add(
                            ClickHouse1816.start(
                                    dir.resolve("shard" + (s + 1) + "-replica" + (r + 1)),
                                    true,
                                    tcpPorts[s][r],
                                    extra));
                }
            }
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private static String remoteServers(int[][] tcpPorts) {
        StringBuilder b = new StringBuilder("    <remote_servers>\n        <" + CLUSTER + ">\n");
        for (int[] shard : tcpPorts) {
            b.append("            <shard>\n")
                    .append("                <internal_replication>true</internal_replication>\n");
            for (int port : shard) {
                b.append("                <replica><host>127.0.0.1</host><port>")
                        .append(port)
                        .append("</port></replica>\n");
            }
            b.append("            </shard>\n");
        }
        return b.append("        </" + CLUSTER + ">\n    </remote_servers>\n").toString();
    }

    /** The {@code {shard}} macro of shard {@code shard} (1-based): {@code 01}, {@code 02}, … */
    public static String shardMacro(int shard) {
        return String.format("%02d", shard);
    }

    /**
     * The {@code {replica}} macro of replica {@code replica} (1-based): {@code r1}, {@code r2}, …
     */
    public static String replicaMacro(int replica) {
        return "r" + replica;
    }

    /** The number of shards. */
    public int shards() {
        return servers.size();
    }

    /** The number of replicas of each shard. */
    public int replicas() {
        return servers.get(0).size();
    }

    /** The server of {@code shard}'s {@code replica} (both 1-based). */
    public ClickHouse1816 server(int shard, int replica) {
        return servers.get(shard - 1).get(replica - 1);
    }

    /** Every server, shard by shard. */
    public List<ClickHouse1816> servers() {
        List<ClickHouse1816> all = new ArrayList<>();
        servers.forEach(all::addAll);
        return all;
    }

    /** The replicas of {@code shard} (1-based). */
    public List<ClickHouse1816> shard(int shard) {
        return List.copyOf(servers.get(shard - 1));
    }

    /** The ZooKeeper the servers coordinate through. */
    public EmbeddedZooKeeper zooKeeper() {
        return zooKeeper;
    }

    /**
     * Runs {@code sql} on every server (e.g. a {@code CREATE TABLE … ENGINE =
     * ReplicatedMergeTree('/clickhouse/tables/{shard}/t', '{replica}')}).
     */
    public void executeOnEveryServer(String sql) {
        for (ClickHouse1816 server : servers()) {
            server.execute(sql);
        }
    }

    /** Stops every server, then ZooKeeper. Idempotent. */
    @Override
    public void close() {
        for (ClickHouse1816 server : servers()) {
            server.close();
        }
        zooKeeper.close();
    }

    @Override
    public String toString() {
        return "ClickHouse1816Cluster["
                + shards()
                + " × "
                + (servers.isEmpty() ? 0 : replicas())
                + ", "
                + zooKeeper
                + "]";
    }
}
