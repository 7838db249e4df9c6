package io.github.s3mergetree.sink.mergetree.input;

import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.table.TableLayout;
import java.time.ZoneId;
import org.apache.flink.annotation.PublicEvolving;

/**
 * What an {@link InputConverter} is created for.
 *
 * @param schema the parsed table (columns with their DEFAULT / MATERIALIZED / ALIAS kinds)
 * @param layout the table's stored columns, in the order of insert blocks
 * @param serverZone ClickHouse's server time zone (for DateTime columns without one)
 * @param skipUnknownFields {@code input_format_skip_unknown_fields}
 */
@PublicEvolving
public record InputContext(
        TableSchema schema, TableLayout layout, ZoneId serverZone, boolean skipUnknownFields) {}
