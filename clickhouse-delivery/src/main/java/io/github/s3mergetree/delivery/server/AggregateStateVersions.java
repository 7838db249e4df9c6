package io.github.s3mergetree.delivery.server;

import io.github.s3mergetree.delivery.errors.DeliveryException;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.engine.aggregate.StateFunctions;
import io.github.s3mergetree.engine.ddl.ColumnDefinition;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.types.AggregateFunctionType;
import java.io.IOException;

/**
 * Refuses a delivery to a server that cannot read the aggregate states of a written {@code
 * AggregateFunction(f, T…)} column, before anything is sent.
 *
 * <p>Why: a part's state column is the states back to back, in the writer's serialization. Our
 * states are ClickHouse 26.x's; ClickHouse 18.16 writes the same bytes for every supported state
 * except those with a Nullable argument whose result is Nullable (sum, avg, min, max, any,
 * anyLast), where 26.x starts the state with a flag byte that 18.16 neither writes nor reads. 18.16
 * would attach such a part and then misread every state after the first (verified with 18.16; the
 * first version writing the flag is not pinned down here, so every server before 19.1 is refused).
 */
public final class AggregateStateVersions {
    private AggregateStateVersions() {}

    /**
     * Throws {@link DeliveryException} if {@code written} has a state column the server at {@code
     * client} serializes differently.
     */
    public static void requireReadable(ClickHouseHttpClient client, TableSchema written)
            throws IOException {
        ColumnDefinition flagged = null;
        for (ColumnDefinition c : written.columns()) {
            if (c.type() instanceof AggregateFunctionType af
                    && StateFunctions.startsWithNullFlag(af)) {
                flagged = c;
                break;
            }
        }
        if (flagged == null) {
            return;
        }
        ServerInfo info = ServerInfo.read(client);
        if (info.atLeast(19, 1)) {
            return;
        }
        throw new DeliveryException(
                "ClickHouse "
                        + info.version()
                        + " at "
                        + client.endpoint().url()
                        + " cannot read the states of column "
                        + flagged.name()
                        + " "
                        + flagged.type().name()
                        + " of the written table: over a Nullable argument its states begin with"
                        + " a NULL flag byte that ClickHouse before 19.1 does not write or read."
                        + " Deliver to a newer ClickHouse, or write the table with the argument"
                        + " type declared without Nullable");
    }
}
