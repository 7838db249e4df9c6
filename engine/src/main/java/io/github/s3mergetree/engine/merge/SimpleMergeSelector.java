package io.github.s3mergetree.engine.merge;

import java.util.List;

/**
 * ClickHouse's default merge policy ({@code SimpleMergeSelector}), reimplemented: among all
 * contiguous ranges of parts of one partition it picks the range with the lowest score {@code
 * (sum_size + fixed_cost · count) / (count − 1.9)}, considering only ranges where {@code (sum_size
 * + count · fixed_cost) / (max_size + fixed_cost) ≥ base}. The {@code base} (5 by default: merge at
 * least ~5 similar parts) is lowered towards 2 as parts get older and as the partition holds more
 * parts, so small fresh parts wait for company while a crowded partition is merged urgently.
 * Heuristics: prefer ranges whose total is close to the part to their left (builds a balanced merge
 * tree) and drop tiny parts from the right end of a range.
 *
 * <p>The randomized variants ClickHouse offers ({@code use_blurry_base}, stochastic sliding) are
 * not implemented: this selector is deterministic.
 */
public final class SimpleMergeSelector implements MergeSelector {
    /**
     * The selector's knobs, named as in ClickHouse's {@code SimpleMergeSelector::Settings} and
     * MergeTree settings, with ClickHouse's defaults ({@link #defaults()}).
     */
    public record Settings(
            int maxPartsToMergeAtOnce,
            double base,
            int windowSize,
            long minSizeToLowerBase,
            long maxSizeToLowerBase,
            long minAgeToLowerBaseAtMinSize,
            long minAgeToLowerBaseAtMaxSize,
            long maxAgeToLowerBaseAtMinSize,
            long maxAgeToLowerBaseAtMaxSize,
            int minPartsToLowerBase,
            int maxPartsToLowerBase,
            long sizeFixedCostToAdd,
            boolean enableHeuristicToAlignParts,
            double alignMinRatioOfSumSizeToPrevPart,
            double alignMaxAbsoluteDifferenceInPowersOfTwo,
            double alignMaxScoreAdjustment,
            long minAgeToForceMerge,
            boolean enableHeuristicToRemoveSmallPartsAtRight,
            double removeSmallPartsAtRightMaxRatio) {

        public Settings {
            if (base < 1) {
                throw new IllegalArgumentException("base must be >= 1, got " + base);
            }
            if (maxPartsToMergeAtOnce < 0 || windowSize < 2) {
                throw new IllegalArgumentException(
                        "max_parts_to_merge_at_once must be >= 0 and window >= 2, got "
                                + maxPartsToMergeAtOnce
                                + ", "
                                + windowSize);
            }
        }

        /** ClickHouse's defaults. */
        public static Settings defaults() {
            return new Settings(
                    100,
                    5,
                    1000,
                    1024L * 1024,
                    100L * 1024 * 1024 * 1024,
                    10,
                    10,
                    3600,
                    30L * 86400,
                    10,
                    50,
                    5L * 1024 * 1024,
                    true,
                    0.9,
                    0.5,
                    0.75,
                    0,
                    true,
                    0.01);
        }

        /**
         * These settings with the table's MergeTree settings of the same meaning: {@code
         * max_parts_to_merge_at_once}, {@code merge_selector_base}, {@code
         * merge_selector_window_size}, {@code min_age_to_force_merge_seconds} and {@code
         * merge_selector_enable_heuristic_to_remove_small_parts_at_right}.
         */
        public Settings withTableSettings(
                int maxPartsToMergeAtOnce,
                double base,
                int windowSize,
                long minAgeToForceMerge,
                boolean removeSmallPartsAtRight) {
            return new Settings(
                    maxPartsToMergeAtOnce,
                    base,
                    windowSize,
                    minSizeToLowerBase,
                    maxSizeToLowerBase,
                    minAgeToLowerBaseAtMinSize,
                    minAgeToLowerBaseAtMaxSize,
                    maxAgeToLowerBaseAtMinSize,
                    maxAgeToLowerBaseAtMaxSize,
                    minPartsToLowerBase,
                    maxPartsToLowerBase,
                    sizeFixedCostToAdd,
                    enableHeuristicToAlignParts,
                    alignMinRatioOfSumSizeToPrevPart,
                    alignMaxAbsoluteDifferenceInPowersOfTwo,
                    alignMaxScoreAdjustment,
                    minAgeToForceMerge,
                    removeSmallPartsAtRight,
                    removeSmallPartsAtRightMaxRatio);
        }

        /** These settings with {@code max_parts_to_merge_at_once} replaced. */
        public Settings withMaxPartsToMergeAtOnce(int value) {
            return new Settings(
                    value,
                    base,
                    windowSize,
                    minSizeToLowerBase,
                    maxSizeToLowerBase,
                    minAgeToLowerBaseAtMinSize,
                    minAgeToLowerBaseAtMaxSize,
                    maxAgeToLowerBaseAtMinSize,
                    maxAgeToLowerBaseAtMaxSize,
                    minPartsToLowerBase,
                    maxPartsToLowerBase,
                    sizeFixedCostToAdd,
                    enableHeuristicToAlignParts,
                    alignMinRatioOfSumSizeToPrevPart,
                    alignMaxAbsoluteDifferenceInPowersOfTwo,
                    alignMaxScoreAdjustment,
                    minAgeToForceMerge,
                    enableHeuristicToRemoveSmallPartsAtRight,
                    removeSmallPartsAtRightMaxRatio);
        }
    }

    private final Settings settings;

    public SimpleMergeSelector(Settings settings) {
        this.settings = settings;
    }

    @Override
    public List<MergeCandidate> select(
            List<List<MergeCandidate>> partitions, long maxTotalBytesToMerge) {
        Best best = new Best();
        double minLog = Math.log(1 + (double) settings.minSizeToLowerBase());
        double maxLog = Math.log(1 + (double) settings.maxSizeToLowerBase());
        for (List<MergeCandidate> parts : partitions) {
            selectWithinPartition(parts, maxTotalBytesToMerge, best, minLog, maxLog);
        }
        return best.parts == null ? List.of() : best.parts.subList(best.begin, best.end);
    }

    private void selectWithinPartition(
            List<MergeCandidate> parts, long maxTotal, Best best, double minLog, double maxLog) {
        int count = parts.size();
        if (count <= 1) {
            return;
        }
        int begin = count >= settings.windowSize() ? count - settings.windowSize() : 0;
        for (; begin < count; begin++) {
            MergeCandidate first = parts.get(begin);
            if (!first.shallParticipate()) {
                continue;
            }
            long sum = first.bytesOnDisk();
            long max = first.bytesOnDisk();
            long minAge = first.ageSeconds();
            for (int end = begin + 2; end <= count; end++) {
                if (settings.maxPartsToMergeAtOnce() > 0
                        && end - begin > settings.maxPartsToMergeAtOnce()) {
                    break;
                }
                MergeCandidate last = parts.get(end - 1);
                if (!last.shallParticipate()) {
                    break;
                }
                sum += last.bytesOnDisk();
                max = Math.max(max, last.bytesOnDisk());
                minAge = Math.min(minAge, last.ageSeconds());
                if (maxTotal > 0 && sum > maxTotal) {
                    break;
                }
                if (allow(sum, max, minAge, end - begin, count, minLog, maxLog)) {
                    long prev = begin == 0 ? 0 : parts.get(begin - 1).bytesOnDisk();
                    consider(best, parts, begin, end, sum, prev);
                }
            }
        }
    }

    private void consider(
            Best best, List<MergeCandidate> parts, int begin, int end, long sum, long prevAtLeft) {
        double score = score(end - begin, sum, settings.sizeFixedCostToAdd());
        if (settings.enableHeuristicToAlignParts()
                && prevAtLeft > sum * settings.alignMinRatioOfSumSizeToPrevPart()) {
            double difference = Math.abs(log2((double) sum / prevAtLeft));
            double limit = settings.alignMaxAbsoluteDifferenceInPowersOfTwo();
            if (difference < limit) {
                score *= interpolate(settings.alignMaxScoreAdjustment(), 1, difference / limit);
            }
        }
        if (settings.enableHeuristicToRemoveSmallPartsAtRight()) {
            while (end >= begin + 3
                    && parts.get(end - 1).bytesOnDisk()
                            < settings.removeSmallPartsAtRightMaxRatio() * sum) {
                end--;
            }
        }
        if (best.parts == null || score < best.score) {
            best.score = score;
            best.parts = parts;
            best.begin = begin;
            best.end = end;
        }
    }

    static double score(double count, double sumSize, double fixedCost) {
        return (sumSize + fixedCost * count) / (count - 1.9);
    }

    private boolean allow(
            double sum,
            double max,
            double minAge,
            double rangeSize,
            double partitionSize,
            double minLog,
            double maxLog) {
        if (settings.minAgeToForceMerge() > 0 && minAge >= settings.minAgeToForceMerge()) {
            return true;
        }
        double sizeNormalized = toUnit(Math.log(1 + sum), minLog, maxLog);
        double minAgeToLower =
                interpolate(
                        settings.minAgeToLowerBaseAtMinSize(),
                        settings.minAgeToLowerBaseAtMaxSize(),
                        sizeNormalized);
        double maxAgeToLower =
                interpolate(
                        settings.maxAgeToLowerBaseAtMinSize(),
                        settings.maxAgeToLowerBaseAtMaxSize(),
                        sizeNormalized);
        double ageNormalized = toUnit(minAge, minAgeToLower, maxAgeToLower);
        double partsNormalized =
                toUnit(
                        partitionSize,
                        settings.minPartsToLowerBase(),
                        settings.maxPartsToLowerBase());
        double combined = Math.min(1.0, ageNormalized + partsNormalized);
        double loweredBase = interpolate(settings.base(), 2.0, combined);
        double fixed = settings.sizeFixedCostToAdd();
        return (sum + rangeSize * fixed) / (max + fixed) >= loweredBase;
    }

    /** 0 below min, 1 above max, linear between. */
    static double toUnit(double value, double min, double max) {
        return value <= min ? 0 : value >= max ? 1 : (value - min) / (max - min);
    }

    static double interpolate(double min, double max, double ratio) {
        return min + (max - min) * ratio;
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    private static final class Best {
        double score;
        List<MergeCandidate> parts;
        int begin;
        int end;
    }
}
