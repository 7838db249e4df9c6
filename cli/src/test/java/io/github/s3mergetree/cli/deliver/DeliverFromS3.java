package io.github.s3mergetree.cli.deliver;

import io.github.s3mergetree.cli.s3server.LocalS3Server;
import java.util.List;

/**
 * The deliver tests' embedded S3 server credentials and the arguments of a {@code deliver} of a
 * table it holds into a ClickHouse server's table.
 */
final class DeliverFromS3 {
    static final String KEY = "deliver-key";
    static final String SECRET = "deliver-secret";

    private DeliverFromS3() {}

    /** {@code deliver} of {@code tablePath} on {@code s3} into {@code target} at {@code url}. */
    static List<String> args(LocalS3Server s3, String tablePath, String url, String target) {
        return List.of(
                "deliver",
                "--table-path",
                tablePath,
                "--s3-endpoint",
                s3.endpoint().toString(),
                "--s3-path-style",
                "--s3-access-key",
                KEY,
                "--s3-secret-key",
                SECRET,
                "--clickhouse-url",
                url,
                "--clickhouse-table",
                target);
    }
}
