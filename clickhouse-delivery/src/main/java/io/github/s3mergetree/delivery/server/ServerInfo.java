package io.github.s3mergetree.delivery.server;

import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.Sql;
import java.io.IOException;
import java.util.List;

/**
 * The server's version and clock: {@code version()}, {@code now()} and {@code uptime()}, read in
 * one statement so that {@link #startSeconds()} (when the server process started, on the server's
 * clock) is consistent with {@link #nowSeconds()}.
 */
public record ServerInfo(
        String version, int major, int minor, long nowSeconds, long uptimeSeconds) {

    /** Reads the server's version and clock. */
    public static ServerInfo read(ClickHouseHttpClient client) throws IOException {
        List<List<String>> rows =
                client.rows(
                        Sql.of(
                                "SELECT version(), toUInt64(toUnixTimestamp(now())), toUInt64(uptime())"));
        if (rows.size() != 1 || rows.get(0).size() != 3) {
            throw new IOException(
                    "unexpected answer to SELECT version(), now(), uptime() from "
                            + client.endpoint().url()
                            + ": "
                            + rows);
        }
        String version = rows.get(0).get(0);
        String[] parts = version.split("\\.");
        int major = parts.length > 0 ? parseOr(parts[0]) : 0;
        int minor = parts.length > 1 ? parseOr(parts[1]) : 0;
        return new ServerInfo(
                version,
                major,
                minor,
                Long.parseLong(rows.get(0).get(1)),
                Long.parseLong(rows.get(0).get(2)));
    }

    private static int parseOr(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** When the server process started, in epoch seconds of the server's clock. */
    public long startSeconds() {
        return nowSeconds - uptimeSeconds;
    }

    /** Whether the server is at least {@code major.minor}. */
    public boolean atLeast(int maj, int min) {
        return major > maj || (major == maj && minor >= min);
    }

    /**
     * Whether the server reads parts with adaptive granularity ({@code .mrk2}, ClickHouse 19.6 and
     * later); older servers (18.16) need the portable profile, {@code index_granularity_bytes = 0}.
     */
    public boolean readsAdaptiveGranularity() {
        return atLeast(19, 6);
    }

    /** Whether the server has table and column {@code TTL} (ClickHouse 19.6 and later). */
    public boolean hasTtl() {
        return atLeast(19, 6);
    }

    /**
     * Whether the server reads parts with projections ({@code <name>.proj/} sub-parts listed in
     * {@code checksums.txt}; ClickHouse 21.6 and later): older servers (18.16) take the listed
     * projection for a missing file and cannot declare the table's {@code PROJECTION}s.
     */
    public boolean readsProjections() {
        return atLeast(21, 6);
    }

    /**
     * Whether the server knows column codecs beyond its compression setting (ClickHouse 19.1 and
     * later): older servers (18.16) read only blocks compressed with NONE, LZ4/LZ4HC or ZSTD, not
     * codec chains nor Delta, DoubleDelta, Gorilla, T64 or FPC.
     */
    public boolean readsColumnCodecs() {
        return atLeast(19, 1);
    }
}
