package io.github.s3mergetree.sink.mergetree.storage;

import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A table on S3 (or an S3-compatible store) at {@code s3://bucket/prefix}, in ClickHouse's plain
 * layout, so ClickHouse reads it in place ({@code ATTACH TABLE … SETTINGS table_disk = 1, disk =
 * disk(type = s3_plain, endpoint = '…/bucket/prefix/', …)}). The store must enforce conditional
 * writes ({@code If-None-Match} / {@code If-Match}), which the commit log needs: AWS S3 does, as do
 * MinIO, R2 and S3Proxy 2.9+.
 */
@PublicEvolving
public final class S3TableStorage implements TableStorage {
    private static final long serialVersionUID = 1L;

    private final ObjectStoreConfig config;
    private final String prefix;

    /**
     * The table under {@code prefix} (no leading or trailing {@code /}) of {@code config}'s bucket.
     */
    public S3TableStorage(ObjectStoreConfig config, String prefix) {
        this.config = Objects.requireNonNull(config, "config");
        if (config.isLocal()) {
            throw new IllegalArgumentException("not an S3 configuration: " + config);
        }
        if (prefix.startsWith("/") || prefix.endsWith("/") || prefix.contains("//")) {
            throw new IllegalArgumentException("invalid table prefix '" + prefix + "'");
        }
        this.prefix = prefix;
    }

    /** The S3 configuration (never printed with its secret). */
    public ObjectStoreConfig config() {
        return config;
    }

    /** The table's key prefix in the bucket (empty: the bucket's root). */
    public String prefix() {
        return prefix;
    }

    @Override
    public TableStore openStore() {
        return TableStore.of(
                config.createClient(),
                prefix.isEmpty() ? "" : prefix + "/",
                describe(),
                config.retryPolicy());
    }

    @Override
    public boolean isLocal() {
        return false;
    }

    @Override
    public String describe() {
        return "s3://" + config.bucket() + (prefix.isEmpty() ? "" : "/" + prefix);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof S3TableStorage s
                && s.prefix.equals(prefix)
                && s.config.toString().equals(config.toString());
    }

    @Override
    public int hashCode() {
        return Objects.hash(prefix, config.toString());
    }

    @Override
    public String toString() {
        return "S3TableStorage(" + describe() + ", " + config + ")";
    }
}
