package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.SqlLexer;
import java.util.Objects;
import java.util.Optional;

/**
 * The replication facts of a {@code Replicated…MergeTree} or {@code Shared…MergeTree} table engine:
 * the prefix of its name and the ZooKeeper path and replica name it was given, kept verbatim
 * (macros such as {@code {shard}}, {@code {replica}}, {@code {uuid}} are the server's to expand).
 *
 * <p>Why: the parts are the same as the replicated engine's plain counterpart writes, so the table
 * is written (and read in place) as that plain engine; these facts travel with the table definition
 * so that the statements made for a ClickHouse server (the user's {@code CREATE TABLE}) name the
 * engine the user declared, and so that delivery can tell replication apart from the row-merging
 * rules, which must match.
 *
 * @param family {@code Replicated} or {@code Shared} (ClickHouse Cloud)
 * @param zooKeeperPath the path in ZooKeeper as written, or null when the engine was given no path
 *     and replica name (the server then takes its {@code default_replica_path} and {@code
 *     default_replica_name})
 * @param replicaName the replica name as written, or null exactly when {@code zooKeeperPath} is
 */
public record EngineReplication(Family family, String zooKeeperPath, String replicaName) {

    /** The engine name prefixes that replicate a MergeTree-family engine. */
    public enum Family {
        /** {@code Replicated…MergeTree} (ZooKeeper or ClickHouse Keeper). */
        REPLICATED("Replicated"),
        /** {@code Shared…MergeTree} (ClickHouse Cloud). */
        SHARED("Shared");

        private final String prefix;

        Family(String prefix) {
            this.prefix = prefix;
        }

        /** The prefix of the engine name, e.g. {@code Replicated}. */
        public String prefix() {
            return prefix;
        }
    }

    public EngineReplication {
        Objects.requireNonNull(family, "family");
        if ((zooKeeperPath == null) != (replicaName == null)) {
            throw new IllegalArgumentException(
                    "the ZooKeeper path and the replica name are given together or not at all,"
                            + " got path "
                            + zooKeeperPath
                            + " and replica name "
                            + replicaName);
        }
    }

    /** Replication with the server's default path and replica name (no engine arguments). */
    public static EngineReplication serverDefaults(Family family) {
        return new EngineReplication(family, null, null);
    }

    /** The ZooKeeper path as written, if the engine was given one. */
    public Optional<String> path() {
        return Optional.ofNullable(zooKeeperPath);
    }

    /** The replica name as written, if the engine was given one. */
    public Optional<String> replica() {
        return Optional.ofNullable(replicaName);
    }

    /** The leading engine arguments: {@code '<path>', '<replica>'}, or empty for the defaults. */
    String argumentsSql() {
        if (zooKeeperPath == null) {
            return "";
        }
        return SqlLexer.quoteString(zooKeeperPath) + ", " + SqlLexer.quoteString(replicaName);
    }
}
