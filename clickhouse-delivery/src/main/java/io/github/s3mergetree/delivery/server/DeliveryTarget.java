package io.github.s3mergetree.delivery.server;

import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.ClickHouseServerException;
import io.github.s3mergetree.delivery.http.Sql;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * A table on a ClickHouse server that receives the written table's parts, and the key under which
 * the written table's ledger tracks what it received: readable ({@code db-table}, or {@code
 * host-port-db-table}) plus a hash of the table's identity, so each server (and each table on it)
 * is tracked on its own.
 *
 * <p>The identity is the table's UUID on the server where it has one (Atomic databases, the default
 * since ClickHouse 20.10), so the same table reached by two URLs (a host name and an address, a
 * load balancer) is one target, and a table dropped and created again is a new one that gets every
 * part again. Without a UUID (Ordinary databases, ClickHouse 18.16) it is the URL and the table
 * name: then always address the server by the same URL.
 */
public final class DeliveryTarget {
    private final ClickHouseEndpoint endpoint;
    private final TableName table;
    private final String key;
    private final String identity;

    /**
     * The target {@code table} on the server {@code client} talks to, identified by the table's
     * UUID if the server gives it one, else by the URL and the name.
     *
     * @throws io.github.s3mergetree.delivery.errors.DeliveryException if the table does not exist
     */
    public static DeliveryTarget resolve(ClickHouseHttpClient client, TableName table)
            throws IOException {
        List<List<String>> rows;
        try {
            rows =
                    client.rows(
                            Sql.of(
                                    "SELECT toString(uuid) FROM system.tables WHERE database = "
                                            + TableName.literal(table.database())
                                            + " AND name = "
                                            + TableName.literal(table.table())));
        } catch (ClickHouseServerException e) {
            // no uuid column (ClickHouse before 20.x): the URL identifies the target
            List<List<String>> exists =
                    client.rows(
                            Sql.of(
                                    "SELECT name FROM system.tables WHERE database = "
                                            + TableName.literal(table.database())
                                            + " AND name = "
                                            + TableName.literal(table.table())));
            if (exists.isEmpty()) {
                throw missing(client, table);
            }
            return new DeliveryTarget(client.endpoint(), table);
        }
        if (rows.isEmpty()) {
            throw missing(client, table);
        }
        String uuid = rows.get(0).get(0);
        if (uuid.isEmpty() || uuid.equals("00000000-0000-0000-0000-000000000000")) {
            return new DeliveryTarget(client.endpoint(), table);
        }
        return new DeliveryTarget(client.endpoint(), table, "uuid:" + uuid);
    }

    private static io.github.s3mergetree.delivery.errors.DeliveryException missing(
            ClickHouseHttpClient client, TableName table) {
        return new io.github.s3mergetree.delivery.errors.DeliveryException(
                "the target table "
                        + table
                        + " does not exist on "
                        + client.endpoint().url()
                        + ": create it first (with the written table's columns, engine and keys)");
    }

    /** What identifies the target: {@code uuid:<table uuid>} or {@code url:<url>|<db>|<table>}. */
    public String identity() {
        return identity;
    }

    /** A target identified by the URL and the table name (see {@link #resolve} for the UUID). */
    public DeliveryTarget(ClickHouseEndpoint endpoint, TableName table) {
        this(
                endpoint,
                table,
                "url:" + endpoint.url() + "|" + table.database() + "|" + table.table());
    }

    private DeliveryTarget(ClickHouseEndpoint endpoint, TableName table, String id) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.table = Objects.requireNonNull(table, "table");
        this.identity = id;
        // a table known by its UUID is the same target whatever URL reaches it
        String readable =
                (id.startsWith("uuid:")
                                ? table.database() + "-" + table.table()
                                : endpoint.url().getHost()
                                        + "-"
                                        + endpoint.hostAndPort()
                                                .substring(
                                                        endpoint.hostAndPort().lastIndexOf(':') + 1)
                                        + "-"
                                        + table.database()
                                        + "-"
                                        + table.table())
                        .replaceAll("[^A-Za-z0-9_.]", "_");
        if (readable.length() > 80) {
            readable = readable.substring(0, 80);
        }
        this.key = readable + "-" + hex(id).substring(0, 10);
    }

    public ClickHouseEndpoint endpoint() {
        return endpoint;
    }

    public TableName table() {
        return table;
    }

    /** The ledger key: {@code [A-Za-z0-9_.-]+}, stable for the same URL and table. */
    public String key() {
        return key;
    }

    private static String hex(String s) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256")
                                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return table + " on " + endpoint.url();
    }
}
