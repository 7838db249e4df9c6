package io.github.s3mergetree.engine.table;

/**
 * An insert block refused because its rows fall into more than {@code
 * max_partitions_per_insert_block} partitions, with ClickHouse's message (error TOO_MANY_PARTS,
 * code 252). Unlike {@link TooManyPartsException} (a table that merges too slowly: wait and retry),
 * retrying the same block fails again: the PARTITION BY or the setting must change.
 */
public final class TooManyPartitionsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int limit;

    public TooManyPartitionsException(int limit) {
        super(
                "Too many partitions for single INSERT block (more than "
                        + limit
                        + "). The limit is controlled by 'max_partitions_per_insert_block'"
                        + " setting. Large number of partitions is a common misconception. It will"
                        + " lead to severe negative performance impact, including slow server"
                        + " startup, slow INSERT queries and slow SELECT queries. Recommended total"
                        + " number of partitions for a table is under 1000..10000. Please note, that"
                        + " partitioning is not intended to speed up SELECT queries (ORDER BY key is"
                        + " sufficient to make range queries fast). Partitions are intended for data"
                        + " manipulation (DROP PARTITION, etc). (TOO_MANY_PARTS)");
        this.limit = limit;
    }

    /** The {@code max_partitions_per_insert_block} in force. */
    public int limit() {
        return limit;
    }
}
