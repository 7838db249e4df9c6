package io.github.s3mergetree.delivery.attach;

import io.github.s3mergetree.delivery.DeliveryOptions;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.server.DeliveryTarget;
import io.github.s3mergetree.delivery.server.TableName;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ClickHouse1816;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * The set-up the ATTACH delivery tests share: the HTTP client of a test server, a table written in
 * a local directory, and the delivery of such a table into a live table (no lease wait, the table
 * directory found by the server's own query).
 */
final class AttachDeliveries {
    private AttachDeliveries() {}

    /** A client of {@code server}'s HTTP interface. */
    static ClickHouseHttpClient client(ClickHouse1816 server) {
        return ClickHouseHttpClient.create(
                ClickHouseEndpoint.of("http://127.0.0.1:" + server.httpPort()));
    }

    /** The table of {@code ddl} written in directory {@code at} (created if absent). */
    static MergeTreeTable localTable(Path at, String ddl) throws IOException {
        return MergeTreeTable.open(
                TableStore.local(at.toAbsolutePath().toString()),
                TableLayouts.fromDdl(ddl),
                Clock.systemUTC());
    }

    /** The ATTACH delivery of the table in {@code at} ({@code schema}) into {@code live}. */
    static AttachDelivery delivery(
            Path at, TableSchema schema, ClickHouseHttpClient client, TableName live)
            throws IOException {
        return new AttachDelivery(
                TableStore.local(at.toAbsolutePath().toString()),
                schema,
                DeliveryTarget.resolve(client, live),
                client,
                null,
                Clock.systemUTC(),
                DeliveryOptions.defaults().withLease(Duration.ZERO));
    }
}
