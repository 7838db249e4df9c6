package io.github.s3mergetree.cli.args;

import io.github.s3mergetree.delivery.DeliveryMethod;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.server.TableName;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.sink.mergetree.MergeTreeSinkBuilder;
import io.github.s3mergetree.sink.mergetree.delivery.DeliveryCoordinator;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.Configuration;

/**
 * The delivery options {@code ingest} (and the job jar) take besides their own ({@code
 * --clickhouse-url}, {@code --clickhouse-table}, {@code --clickhouse-user}, {@code
 * --clickhouse-password} or {@code CLICKHOUSE_PASSWORD}, {@code --deliver restore|attach}, {@code
 * --clickhouse-table-dir} for ATTACH, {@code --clickhouse-s3-url} and {@code
 * --clickhouse-s3-access-key}/{@code --clickhouse-s3-secret-key} for RESTORE: where and with which
 * keys the server reads an {@code s3://} table, by default the table's endpoint and keys): with
 * them, every commit of the ingest is delivered into that server's table while the job runs, and
 * once more after it ends. The method defaults to {@code restore} for an {@code s3://} table and
 * {@code attach} for a directory; the options are the sink's ({@link MergeTreeSinkOptions}), so the
 * CLI, the job jar and the sink decide alike ({@link DeliveryCoordinator#open}).
 *
 * @param method {@code restore}, {@code attach}, or null for the table's default
 */
public record DeliveryCliOptions(
        String url,
        String table,
        String user,
        String password,
        String method,
        String tableDir,
        String s3Url,
        String s3AccessKey,
        String s3SecretKey) {
    static final Set<String> VALUED =
            Set.of(
                    "--clickhouse-url",
                    "--clickhouse-table",
                    "--clickhouse-user",
                    "--clickhouse-password",
                    "--deliver",
                    "--clickhouse-table-dir",
                    "--clickhouse-s3-url",
                    "--clickhouse-s3-access-key",
                    "--clickhouse-s3-secret-key");

    /** One usage fragment. */
    public static final String USAGE =
            "[--clickhouse-url URL --clickhouse-table DB.TABLE [--clickhouse-user U]"
                    + " [--clickhouse-password P] [--deliver restore|attach]"
                    + " [--clickhouse-table-dir DIR] [--clickhouse-s3-url URL]"
                    + " [--clickhouse-s3-access-key K --clickhouse-s3-secret-key S]]";

    /** The delivery options (null if none) and the other arguments. */
    public record Split(DeliveryCliOptions delivery, List<String> rest) {}

    /** Takes the delivery options out of {@code argv}. */
    public static Split split(List<String> argv) throws UsageException {
        List<String> rest = new ArrayList<>();
        List<String> mine = new ArrayList<>();
        for (int i = 0; i < argv.size(); i++) {
            String arg = argv.get(i);
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (VALUED.contains(name)) {
                mine.add(arg);
                if (!arg.contains("=") && i + 1 < argv.size()) {
                    mine.add(argv.get(++i));
                }
            } else {
                rest.add(arg);
            }
        }
        if (mine.isEmpty()) {
            return new Split(null, rest);
        }
        Args a = Args.parse(mine, VALUED, Set.of(), Set.of());
        String method;
        try {
            // checked here; which method the table takes is decided where the table is known
            method =
                    a.get("--deliver")
                            .map(m -> DeliveryMethod.parse("--deliver", m).optionValue())
                            .orElse(null);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (a.has("--clickhouse-s3-access-key") != a.has("--clickhouse-s3-secret-key")) {
            throw new UsageException(
                    "--clickhouse-s3-access-key and --clickhouse-s3-secret-key go together");
        }
        try {
            ClickHouseEndpoint.of(a.required("--clickhouse-url"));
            TableName.parse(a.required("--clickhouse-table"));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        return new Split(
                new DeliveryCliOptions(
                        a.required("--clickhouse-url"),
                        a.required("--clickhouse-table"),
                        a.get("--clickhouse-user").orElse("default"),
                        a.get("--clickhouse-password").orElse(System.getenv("CLICKHOUSE_PASSWORD")),
                        method,
                        a.get("--clickhouse-table-dir").orElse(null),
                        a.get("--clickhouse-s3-url").orElse(null),
                        a.get("--clickhouse-s3-access-key").orElse(null),
                        a.get("--clickhouse-s3-secret-key").orElse(null)),
                rest);
    }

    /** These options as the sink's delivery options, set on {@code options}. */
    public Configuration applyTo(Configuration options) {
        options.set(MergeTreeSinkOptions.CLICKHOUSE_URL, url);
        options.set(MergeTreeSinkOptions.CLICKHOUSE_TABLE, table);
        options.set(MergeTreeSinkOptions.CLICKHOUSE_USER, user);
        if (password != null) {
            options.set(MergeTreeSinkOptions.CLICKHOUSE_PASSWORD, password);
        }
        if (method != null) {
            options.set(MergeTreeSinkOptions.DELIVER, method);
        }
        if (tableDir != null) {
            options.set(MergeTreeSinkOptions.CLICKHOUSE_TABLE_DIR, tableDir);
        }
        if (s3Url != null) {
            options.set(MergeTreeSinkOptions.CLICKHOUSE_S3_URL, s3Url);
        }
        if (s3AccessKey != null) {
            options.set(MergeTreeSinkOptions.CLICKHOUSE_S3_ACCESS_KEY, s3AccessKey);
            options.set(MergeTreeSinkOptions.CLICKHOUSE_S3_SECRET_KEY, s3SecretKey);
        }
        return options;
    }

    /** These options set on the sink {@code b} builds (its delivery operator delivers). */
    public <T> MergeTreeSinkBuilder<T> applyTo(MergeTreeSinkBuilder<T> b) {
        return b.setSettings(applyTo(new Configuration()).toMap());
    }

    /**
     * The delivery of the table in {@code storage} (parsed: {@code table}) into the target these
     * options name, by the sink's rules ({@link DeliveryCoordinator#open}): RESTORE of an {@code
     * s3://} table from its bucket, ATTACH of a directory's parts. {@code tableOptions} holds the
     * table's own options (its S3 keys, the default of the server's).
     *
     * @throws IllegalArgumentException if the method does not fit the storage or options are
     *     incomplete
     */
    public DeliveryCoordinator.Opened open(
            TableStorage storage, TableSchema table, Configuration tableOptions)
            throws IOException {
        Configuration c = new Configuration(tableOptions);
        return DeliveryCoordinator.open(table, storage, applyTo(c));
    }

    @Override
    public String toString() {
        return "DeliveryCliOptions["
                + url
                + ", "
                + table
                + ", user "
                + user
                + ", "
                + (method == null ? "default method" : method)
                + "]";
    }
}
