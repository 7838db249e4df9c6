package io.github.s3mergetree.engine.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.part.PartName;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The selector is a pure function: these tests feed it parts with sizes and ages, no clock. */
class SimpleMergeSelectorTest {
    private final SimpleMergeSelector selector =
            new SimpleMergeSelector(SimpleMergeSelector.Settings.defaults());

    private static List<MergeCandidate> parts(String partition, long[] sizes, long age) {
        List<MergeCandidate> out = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            out.add(new MergeCandidate(PartName.inserted(partition, i + 1), sizes[i], age, true));
        }
        return out;
    }

    private static long[] repeat(long size, int n) {
        long[] a = new long[n];
        java.util.Arrays.fill(a, size);
        return a;
    }

    @Test
    void twoFreshPartsAreNotWorthMerging() {
        assertThat(selector.select(List.of(parts("all", repeat(1 << 20, 2), 0)), 0)).isEmpty();
    }

    @Test
    void fiveSimilarFreshPartsAreMergedTogether() {
        List<MergeCandidate> p = parts("all", repeat(1 << 20, 5), 0);
        assertThat(selector.select(List.of(p), 0)).hasSize(5);
    }

    @Test
    void oldPartsLowerTheBaseSoTwoPartsMerge() {
        // 2 MiB in total: the base reaches 2 once the younger part is ~1.8 days old
        assertThat(selector.select(List.of(parts("all", repeat(1 << 20, 2), 3600)), 0)).isEmpty();
        List<MergeCandidate> p = parts("all", repeat(1 << 20, 2), 200_000);
        assertThat(selector.select(List.of(p), 0)).hasSize(2);
    }

    @Test
    void aCrowdedPartitionMergesEvenFreshUnevenParts() {
        long[] sizes = new long[60];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = (i % 2 == 0 ? 100L : 1L) << 20;
        }
        List<MergeCandidate> chosen = selector.select(List.of(parts("all", sizes, 0)), 0);
        assertThat(chosen).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void rangesAreContiguousWithinOnePartitionAndSkipPartsAlreadyMerging() {
        List<MergeCandidate> a = new ArrayList<>(parts("a", repeat(1 << 20, 10), 0));
        a.set(3, new MergeCandidate(a.get(3).name(), a.get(3).bytesOnDisk(), 0, false));
        List<MergeCandidate> b = parts("b", repeat(1 << 20, 3), 0);
        List<MergeCandidate> chosen = selector.select(List.of(a, b), 0);
        assertThat(chosen).isNotEmpty();
        assertThat(chosen).allMatch(MergeCandidate::shallParticipate);
        assertThat(chosen).extracting(c -> c.name().partitionId()).containsOnly("a");
        for (int i = 1; i < chosen.size(); i++) {
            assertThat(chosen.get(i).name().minBlock())
                    .isEqualTo(chosen.get(i - 1).name().maxBlock() + 1);
        }
        // parts 5..10 follow the busy part 4: the only range of at least ~5 similar parts
        assertThat(chosen.get(0).name().minBlock()).isEqualTo(5);
    }

    @Test
    void respectsMaxTotalSizeAndMaxPartsAtOnce() {
        List<MergeCandidate> p = parts("all", repeat(1 << 20, 300), 100_000);
        List<MergeCandidate> chosen = selector.select(List.of(p), 0);
        assertThat(chosen).hasSizeLessThanOrEqualTo(100);
        List<MergeCandidate> limited = selector.select(List.of(p), 3L << 20);
        assertThat(limited.stream().mapToLong(MergeCandidate::bytesOnDisk).sum())
                .isLessThanOrEqualTo(3L << 20);
        assertThat(limited).hasSizeBetween(2, 3);
    }

    @Test
    void prefersMergingSmallPartsOverRewritingABigOne() {
        long[] sizes = {10L << 30, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20};
        List<MergeCandidate> chosen = selector.select(List.of(parts("all", sizes, 0)), 0);
        assertThat(chosen).hasSize(5);
        assertThat(chosen.get(0).name().minBlock()).isEqualTo(2);
    }
}
