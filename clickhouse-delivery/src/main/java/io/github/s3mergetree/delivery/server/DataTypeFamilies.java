package io.github.s3mergetree.delivery.server;

import io.github.s3mergetree.delivery.errors.DeliveryException;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.engine.ddl.ColumnDefinition;
import io.github.s3mergetree.engine.ddl.TableSchema;
import java.io.IOException;

/**
 * Refuses a delivery whose written table has a column type the server does not know, by the
 * server's own list ({@code system.data_type_families}), before anything is sent.
 *
 * <p>Why: ClickHouse 18.16 has no {@code SimpleAggregateFunction} ({@code Unknown data type
 * family}). Its table can only declare such a column as the plain storage type T; it then reads our
 * parts (a part's column types come from the table), but its merges keep one row's value instead of
 * combining the rows with the function, silently changing what the column means. The definition
 * check would refuse the type difference anyway, and its advice "create the table first" would name
 * a type 18.16 refuses; one line naming the column and what to do instead is what the operator
 * needs.
 */
public final class DataTypeFamilies {
    private static final String SIMPLE_AGGREGATE_FUNCTION = "SimpleAggregateFunction";

    private DataTypeFamilies() {}

    /**
     * Throws {@link DeliveryException} if a column of {@code written} uses {@code
     * SimpleAggregateFunction} and the server does not know that family.
     */
    public static void requireKnown(ClickHouseHttpClient client, TableSchema written)
            throws IOException {
        ColumnDefinition first = null;
        for (ColumnDefinition c : written.columns()) {
            if (c.type().name().contains(SIMPLE_AGGREGATE_FUNCTION + "(")) {
                first = c;
                break;
            }
        }
        if (first == null) {
            return;
        }
        String known =
                client.value(
                        Sql.of(
                                "SELECT count() FROM system.data_type_families WHERE name = '"
                                        + SIMPLE_AGGREGATE_FUNCTION
                                        + "'"));
        if (!known.trim().equals("0")) {
            return;
        }
        ServerInfo info = ServerInfo.read(client);
        String plain = first.type().withoutSimpleAggregateFunction().name();
        String advice =
                plain.contains(SIMPLE_AGGREGATE_FUNCTION + "(")
                        ? "without " + SIMPLE_AGGREGATE_FUNCTION
                        : "as " + plain;
        throw new DeliveryException(
                "ClickHouse "
                        + info.version()
                        + " at "
                        + client.endpoint().url()
                        + " does not know the data type "
                        + SIMPLE_AGGREGATE_FUNCTION
                        + " (not in its system.data_type_families), which column "
                        + first.name()
                        + " of the written table has ("
                        + first.type().name()
                        + "): its table can only store the column as "
                        + plain
                        + ", whose merges keep one row's value instead of combining the rows with "
                        + first.type().simpleAggregateFunction()
                        + ". Deliver to a newer ClickHouse, or write the table with the column"
                        + " declared "
                        + advice);
    }
}
