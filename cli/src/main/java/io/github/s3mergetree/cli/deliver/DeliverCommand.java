package io.github.s3mergetree.cli.deliver;

import io.github.s3mergetree.cli.args.Args;
import io.github.s3mergetree.cli.args.UsageException;
import io.github.s3mergetree.cli.command.Subcommand;
import io.github.s3mergetree.delivery.DeliveryFaultPoints;
import io.github.s3mergetree.delivery.DeliveryMethod;
import io.github.s3mergetree.delivery.DeliveryOptions;
import io.github.s3mergetree.delivery.DeliveryResult;
import io.github.s3mergetree.delivery.PartDelivery;
import io.github.s3mergetree.delivery.attach.AttachDelivery;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.restore.RestoreDelivery;
import io.github.s3mergetree.delivery.server.DeliveryTarget;
import io.github.s3mergetree.delivery.server.TableName;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.TableKeys;
import io.github.s3mergetree.sink.mergetree.storage.S3TableStorage;
import io.github.s3mergetree.sink.mergetree.storage.TableLocation;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * {@code s3-mergetree deliver}: delivers every committed part of a table already written that the
 * target server's table has not received yet, exactly once (see {@code clickhouse-delivery}'s
 * README). Idempotent: run it again and it sends only what is new; run it against another server
 * and that server is tracked on its own. {@code --resolve ID=delivered|not-delivered} records the
 * outcome of a delivery whose result the server could not tell.
 *
 * <p>{@code --deliver restore} (the default for {@code s3://} tables) makes the server RESTORE the
 * parts from the bucket; {@code --deliver attach} (the default for local tables) copies them into
 * the server's {@code detached/} and attaches them. The password may come from the environment
 * variable {@code CLICKHOUSE_PASSWORD} instead of the command line; it is never printed. The last
 * stdout line is {@code {"deliveries","parts","rows","bytes","seconds","target"}}.
 */
public final class DeliverCommand implements Subcommand {
    @Override
    public String name() {
        return "deliver";
    }

    @Override
    public String usage() {
        return "deliver --table-path DIR|s3://BUCKET/PREFIX --clickhouse-url URL --clickhouse-table DB.TABLE"
                + " [--clickhouse-user U] [--clickhouse-password P] [--deliver restore|attach]"
                + " [--clickhouse-table-dir DIR] [--clickhouse-s3-url URL] [--s3-endpoint URL] [--s3-region R]"
                + " [--s3-access-key K --s3-secret-key S] [--s3-path-style] [--resolve ID=delivered|not-delivered]";
    }

    @Override
    public int run(List<String> argv, PrintStream out, PrintStream err) throws Exception {
        Args a =
                Args.parse(
                        argv,
                        Set.of(
                                "--table-path",
                                "--clickhouse-url",
                                "--clickhouse-table",
                                "--clickhouse-user",
                                "--clickhouse-password",
                                "--deliver",
                                "--clickhouse-table-dir",
                                "--clickhouse-s3-url",
                                "--s3-endpoint",
                                "--s3-region",
                                "--s3-access-key",
                                "--s3-secret-key",
                                "--resolve"),
                        Set.of("--s3-path-style", "--verbose"),
                        Set.of());
        // for crash tests only: -Ds3mergetree.deliver.halt-at=POINT stops the JVM dead there
        DeliveryFaultPoints.haltAtFromSystemProperty();
        String tablePath = a.required("--table-path");
        ClickHouseEndpoint endpoint;
        TableName tableName;
        try {
            endpoint = ClickHouseEndpoint.of(a.required("--clickhouse-url"));
            tableName = TableName.parse(a.required("--clickhouse-table"));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        String password =
                a.get("--clickhouse-password").orElse(System.getenv("CLICKHOUSE_PASSWORD"));
        endpoint = endpoint.withCredentials(a.get("--clickhouse-user").orElse("default"), password);
        boolean onS3 = TableLocation.isS3(tablePath);
        DeliveryMethod method;
        try {
            method =
                    DeliveryMethod.forTable(
                            "--deliver", a.get("--deliver").orElse(null), onS3, tablePath);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (a.has("--s3-access-key") != a.has("--s3-secret-key")) {
            throw new UsageException("--s3-access-key and --s3-secret-key go together");
        }
        TableStorage storage = tableStorage(tablePath, a);
        // the engine's store of the table (its client, retries, conditional writes and commit
        // log), opened from the table path as the sink's writers open it
        try (TableStore store = storage.openStore()) {
            Optional<byte[]> ddl = store.readIfExists(TableKeys.DDL);
            if (ddl.isEmpty()) {
                throw new IllegalArgumentException(
                        tablePath
                                + " is not a table written by s3-mergetree (no "
                                + TableKeys.DDL
                                + " at "
                                + store.describe(TableKeys.DDL)
                                + ")");
            }
            TableSchema written = TableSchema.parse(new String(ddl.get(), StandardCharsets.UTF_8));
            ClickHouseHttpClient client = ClickHouseHttpClient.create(endpoint);
            DeliveryTarget target = DeliveryTarget.resolve(client, tableName);
            PartDelivery delivery;
            if (method == DeliveryMethod.RESTORE) {
                if (!a.has("--s3-access-key")) {
                    throw new UsageException(
                            "--deliver restore needs --s3-access-key and --s3-secret-key: the keys the server reads the bucket with");
                }
                S3TableStorage s3 = (S3TableStorage) storage;
                String rootUrl =
                        a.get("--clickhouse-s3-url")
                                .orElseGet(
                                        () -> defaultRootUrl(a, s3.config().bucket(), s3.prefix()));
                delivery =
                        new RestoreDelivery(
                                store,
                                written,
                                new RestoreDelivery.Source(
                                        rootUrl,
                                        a.required("--s3-access-key"),
                                        a.required("--s3-secret-key")),
                                target,
                                client,
                                Clock.systemUTC(),
                                DeliveryOptions.defaults());
            } else {
                delivery =
                        new AttachDelivery(
                                store,
                                written,
                                target,
                                client,
                                a.get("--clickhouse-table-dir").map(Path::of).orElse(null),
                                Clock.systemUTC(),
                                DeliveryOptions.defaults());
            }
            if (a.has("--resolve")) {
                String r = a.required("--resolve");
                int eq = r.lastIndexOf('=');
                String outcome = eq < 0 ? "" : r.substring(eq + 1);
                if (eq <= 0 || !(outcome.equals("delivered") || outcome.equals("not-delivered"))) {
                    throw new UsageException(
                            "--resolve takes ID=delivered or ID=not-delivered, got: " + r);
                }
                delivery.resolve(r.substring(0, eq), outcome.equals("delivered"));
                err.println(
                        "recorded delivery "
                                + r.substring(0, eq)
                                + " as "
                                + outcome
                                + " for "
                                + target);
            }
            long t0 = System.nanoTime();
            delivery.check();
            DeliveryResult result = delivery.deliverPending();
            double seconds = (System.nanoTime() - t0) / 1e9;
            err.printf(
                    Locale.ROOT,
                    "%s: %d deliveries, %d parts, %d rows into %s (%s)%n",
                    tablePath,
                    result.deliveryIds().size(),
                    result.parts(),
                    result.rows(),
                    target,
                    method.optionValue());
            out.printf(
                    Locale.ROOT,
                    "{\"deliveries\":%d,\"parts\":%d,\"rows\":%d,\"bytes\":%d,\"seconds\":%.3f,\"target\":\"%s\"}%n",
                    result.deliveryIds().size(),
                    result.parts(),
                    result.rows(),
                    result.bytes(),
                    seconds,
                    target.table().toString().replace("\\", "\\\\").replace("\"", "\\\""));
            return 0;
        }
    }

    /**
     * The table {@code --table-path} names, by the sink's parser ({@link TableLocation#parse}) with
     * the {@code --s3-*} settings: {@code s3://bucket/prefix}, {@code file:///dir} or a directory
     * (a relative one taken from the working directory).
     */
    private static TableStorage tableStorage(String tablePath, Args a) throws UsageException {
        String path = tablePath.strip();
        if (!path.contains("://") && !path.startsWith("file:") && !path.startsWith("/")) {
            path = Paths.get(path).toAbsolutePath().normalize().toString();
        }
        try {
            return TableLocation.parse(path, s3Settings(a));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--table-path: " + e.getMessage());
        }
    }

    /**
     * The table's root URL as the server reaches it, by default the same endpoint as this process.
     */
    private static String defaultRootUrl(Args a, String bucket, String prefix) {
        Optional<String> endpoint = a.get("--s3-endpoint");
        String p = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        if (endpoint.isPresent()) {
            String e =
                    endpoint.get().endsWith("/")
                            ? endpoint.get().substring(0, endpoint.get().length() - 1)
                            : endpoint.get();
            return a.has("--s3-path-style")
                    ? e + "/" + bucket + "/" + p
                    : e.replaceFirst("://", "://" + bucket + ".") + "/" + p;
        }
        String region = a.get("--s3-region").orElse("us-east-1");
        return "https://" + bucket + ".s3." + region + ".amazonaws.com/" + p;
    }

    private static TableLocation.S3Settings s3Settings(Args a) {
        TableLocation.S3Settings d = TableLocation.S3Settings.defaults();
        return new TableLocation.S3Settings(
                a.get("--s3-endpoint").map(URI::create).orElse(null),
                a.get("--s3-region").orElse(null),
                a.has("--s3-path-style"),
                a.get("--s3-access-key").orElse(null),
                a.get("--s3-secret-key").orElse(null),
                d.connectTimeout(),
                d.requestTimeout());
    }
}
