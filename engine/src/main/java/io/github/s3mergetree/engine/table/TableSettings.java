package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.merge.SimpleMergeSelector;
import java.time.Duration;

/**
 * The table-level behaviour the engine implements, by ClickHouse's setting names and defaults.
 *
 * @param partsToDelayInsert {@code parts_to_delay_insert} (1000): inserts into a partition with
 *     this many active parts are delayed
 * @param partsToThrowInsert {@code parts_to_throw_insert} (3000): and refused from this many
 * @param maxDelayToInsert {@code max_delay_to_insert} (1 s): the longest delay
 * @param oldPartsLifetime {@code old_parts_lifetime} (480 s): how long merged-away parts stay
 * @param temporaryDirectoriesLifetime {@code temporary_directories_lifetime} (86400 s)
 * @param maxBytesToMergeAtMaxSpaceInPool {@code max_bytes_to_merge_at_max_space_in_pool} (150 GiB)
 * @param mergeMaxBlockSize {@code merge_max_block_size} (8192 rows per merge block)
 * @param maxPartsToMergeAtOnce {@code max_parts_to_merge_at_once} (100)
 * @param optimizeOnInsert {@code optimize_on_insert} (true): apply the engine's merge semantics
 *     inside each insert block
 * @param deduplicationWindow how many commit records (insert dedup tokens) are remembered
 * @param mergeSelector the merge policy's knobs ({@code max_parts_to_merge_at_once}, {@code
 *     merge_selector_*}, {@code min_age_to_force_merge_seconds})
 */
public record TableSettings(
        int partsToDelayInsert,
        int partsToThrowInsert,
        Duration maxDelayToInsert,
        Duration oldPartsLifetime,
        Duration temporaryDirectoriesLifetime,
        long maxBytesToMergeAtMaxSpaceInPool,
        int mergeMaxBlockSize,
        int maxPartsToMergeAtOnce,
        boolean optimizeOnInsert,
        int deduplicationWindow,
        SimpleMergeSelector.Settings mergeSelector) {

    public TableSettings {
        if (partsToDelayInsert <= 0 || partsToThrowInsert <= 0) {
            throw new IllegalArgumentException(
                    "parts_to_delay_insert and parts_to_throw_insert must be positive, got "
                            + partsToDelayInsert
                            + ", "
                            + partsToThrowInsert);
        }
        if (mergeMaxBlockSize <= 0) {
            throw new IllegalArgumentException(
                    "merge_max_block_size must be positive, got " + mergeMaxBlockSize);
        }
    }

    /** ClickHouse's defaults. */
    public static TableSettings defaults() {
        return new TableSettings(
                1000,
                3000,
                Duration.ofSeconds(1),
                Duration.ofSeconds(480),
                Duration.ofSeconds(86400),
                150L << 30,
                8192,
                100,
                true,
                1000,
                SimpleMergeSelector.Settings.defaults());
    }

    public TableSettings withOldPartsLifetime(Duration d) {
        return new TableSettings(
                partsToDelayInsert,
                partsToThrowInsert,
                maxDelayToInsert,
                d,
                temporaryDirectoriesLifetime,
                maxBytesToMergeAtMaxSpaceInPool,
                mergeMaxBlockSize,
                maxPartsToMergeAtOnce,
                optimizeOnInsert,
                deduplicationWindow,
                mergeSelector);
    }

    public TableSettings withPartsLimits(int delay, int refuse) {
        return new TableSettings(
                delay,
                refuse,
                maxDelayToInsert,
                oldPartsLifetime,
                temporaryDirectoriesLifetime,
                maxBytesToMergeAtMaxSpaceInPool,
                mergeMaxBlockSize,
                maxPartsToMergeAtOnce,
                optimizeOnInsert,
                deduplicationWindow,
                mergeSelector);
    }

    /** These settings with the merge policy's knobs replaced. */
    public TableSettings withMergeSelector(SimpleMergeSelector.Settings selector) {
        return new TableSettings(
                partsToDelayInsert,
                partsToThrowInsert,
                maxDelayToInsert,
                oldPartsLifetime,
                temporaryDirectoriesLifetime,
                maxBytesToMergeAtMaxSpaceInPool,
                mergeMaxBlockSize,
                selector.maxPartsToMergeAtOnce(),
                optimizeOnInsert,
                deduplicationWindow,
                selector);
    }
}
