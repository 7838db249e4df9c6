package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.types.DataType;
import java.util.List;

/**
 * The partition of a part: its id (the prefix of the part name), the serialized partition key value
 * ({@code partition.dat}) and the columns the partition expression reads ({@code minmax_*.idx}).
 *
 * @param partitionId ClickHouse's partition id, e.g. {@code 202401} or {@code all}
 * @param keyBytes the partition key values in single-value binary form; empty when unpartitioned
 * @param minmaxColumns columns used by the partition expression (empty when unpartitioned)
 * @param keyTypes result types of the partition key elements
 */
public record PartitionData(
        String partitionId, byte[] keyBytes, List<String> minmaxColumns, List<DataType> keyTypes) {
    /** The partition of a table without PARTITION BY. */
    public static final PartitionData UNPARTITIONED =
            new PartitionData("all", new byte[0], List.of(), List.of());

    public boolean partitioned() {
        return !keyTypes.isEmpty();
    }
}
