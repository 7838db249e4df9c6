package io.github.s3mergetree.engine.table;

/**
 * The query-level settings of an insert that the engine enforces, by ClickHouse's names and
 * defaults (they are settings of the INSERT, not of the table: ClickHouse refuses them in a {@code
 * MergeTree} SETTINGS clause).
 *
 * @param maxPartitionsPerInsertBlock {@code max_partitions_per_insert_block} (100): an insert block
 *     whose rows fall into more partitions than this is refused (or only logged, see below); 0 = no
 *     limit
 * @param throwOnMaxPartitionsPerInsertBlock {@code throw_on_max_partitions_per_insert_block}
 *     (true): false logs a warning instead of refusing the block
 */
public record InsertSettings(
        int maxPartitionsPerInsertBlock, boolean throwOnMaxPartitionsPerInsertBlock) {

    /** ClickHouse's defaults: at most 100 partitions per insert block, refused beyond. */
    public static final InsertSettings DEFAULTS = new InsertSettings(100, true);

    public InsertSettings {
        if (maxPartitionsPerInsertBlock < 0) {
            throw new IllegalArgumentException(
                    "max_partitions_per_insert_block must be 0 (no limit) or positive, got "
                            + maxPartitionsPerInsertBlock);
        }
    }
}
