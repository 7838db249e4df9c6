package io.github.s3mergetree.examples.cli;

import io.github.s3mergetree.delivery.DeliveryOptions;
import io.github.s3mergetree.delivery.PartDelivery;
import io.github.s3mergetree.delivery.attach.AttachDelivery;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.store.TableFiles;
import io.github.s3mergetree.delivery.target.DeliveryTarget;
import io.github.s3mergetree.delivery.target.TableName;
import io.github.s3mergetree.engine.ddl.TableSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The delivery options {@code ingest} takes besides its own ({@code --clickhouse-url}, {@code
 * --clickhouse-table}, {@code --clickhouse-user}, {@code --clickhouse-password} or {@code
 * CLICKHOUSE_PASSWORD}, {@code --deliver restore|attach}, {@code --clickhouse-table-dir}): with
 * them, every commit of the ingest is delivered into that server's table while the job runs, and
 * once more after it ends.
 */
public record DeliveryCliOptions(
        String url, String table, String user, String password, String method, String tableDir) {
    static final Set<String> VALUED =
            Set.of(
                    "--clickhouse-url",
                    "--clickhouse-table",
                    "--clickhouse-user",
                    "--clickhouse-password",
                    "--deliver",
                    "--clickhouse-table-dir");

    /** One usage fragment. */
    public static final String USAGE =
            "[--clickhouse-url URL --clickhouse-table DB.TABLE [--clickhouse-user U]"
                    + " [--clickhouse-password P] [--deliver attach] [--clickhouse-table-dir DIR]]";

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
        String method = a.get("--deliver").orElse("attach").toLowerCase(Locale.ROOT);
        if (method.equals("restore")) {
            throw new UsageException(
                    "--deliver restore needs the table on S3 (the server reads the parts from the bucket), which ingest does not write yet: use --deliver attach, or s3-mergetree deliver on an s3:// table");
        }
        if (!method.equals("attach")) {
            throw new UsageException("--deliver must be restore or attach, got: " + method);
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
                        a.get("--clickhouse-table-dir").orElse(null)),
                rest);
    }

    /** The delivery of {@code files} (the written table) into the target these options name. */
    public PartDelivery open(TableFiles files, TableSchema written) throws IOException {
        ClickHouseHttpClient client =
                ClickHouseHttpClient.create(
                        ClickHouseEndpoint.of(url).withCredentials(user, password));
        DeliveryTarget target = DeliveryTarget.resolve(client, TableName.parse(table));
        return new AttachDelivery(
                files,
                written,
                target,
                client,
                tableDir == null ? null : Path.of(tableDir),
                Clock.systemUTC(),
                DeliveryOptions.defaults());
    }

    @Override
    public String toString() {
        return "DeliveryCliOptions[" + url + ", " + table + ", user " + user + ", " + method + "]";
    }
}
