package io.github.s3mergetree.engine.table;

/**
 * ClickHouse's insert throttling ({@code MergeTreeData::delayInsertOrThrowIfNeeded}) as a pure
 * function: an insert into a partition with {@code n} active parts waits {@code
 * max_delay_to_insert^k} ms, {@code k = (n − parts_to_delay_insert + 1) / (parts_to_throw_insert −
 * parts_to_delay_insert)} capped at 1, from {@code parts_to_delay_insert} parts on; at {@code
 * parts_to_throw_insert} it is refused (the table throws; the sink waits for merges instead). The
 * one formula both use.
 */
public final class InsertDelay {
    private InsertDelay() {}

    /** The delay in milliseconds for a partition with {@code activeParts} parts (0: none). */
    public static long millis(TableSettings s, int activeParts) {
        if (activeParts < s.partsToDelayInsert()) {
            return 0;
        }
        double k =
                (double) (activeParts - s.partsToDelayInsert() + 1)
                        / Math.max(1, s.partsToThrowInsert() - s.partsToDelayInsert());
        return (long) Math.pow(s.maxDelayToInsert().toMillis(), Math.min(1.0, k));
    }

    /** Whether a partition with {@code activeParts} parts refuses inserts. */
    public static boolean refuses(TableSettings s, int activeParts) {
        return activeParts >= s.partsToThrowInsert();
    }
}
