package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.merge.MergeCandidate;
import io.github.s3mergetree.engine.merge.SimpleMergeSelector;
import io.github.s3mergetree.engine.part.PartName;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The table's merge settings reach the merge selector: {@code max_parts_to_merge_at_once} and the
 * {@code merge_selector_*} settings the DDL accepts change the merges chosen; variants that are not
 * implemented are refused, not ignored.
 */
class MergeSettingsTest {
    private static final String DDL = "CREATE TABLE t (id UInt64) ENGINE = MergeTree ORDER BY id";

    /** 20 parts of 1 MiB each, 40 days old: the selector merges as many as it may. */
    private static List<List<MergeCandidate>> parts() {
        List<MergeCandidate> c = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            c.add(new MergeCandidate(PartName.inserted("all", i), 1 << 20, 40L * 86400, true));
        }
        return List.of(c);
    }

    private static List<MergeCandidate> chosen(String settings) {
        TableLayout l = TableLayouts.fromDdl(DDL + settings);
        return new SimpleMergeSelector(l.settings().mergeSelector()).select(parts(), 0);
    }

    @Test
    void maxPartsToMergeAtOnceChangesTheMergesChosen() {
        assertThat(chosen("")).hasSizeGreaterThan(5);
        assertThat(chosen(" SETTINGS max_parts_to_merge_at_once = 3")).hasSize(3);
        assertThat(chosen(" SETTINGS max_parts_to_merge_at_once = 5")).hasSize(5);
        assertThat(
                        TableLayouts.fromDdl(DDL + " SETTINGS max_parts_to_merge_at_once = 3")
                                .settings()
                                .maxPartsToMergeAtOnce())
                .isEqualTo(3);
    }

    @Test
    void mergeSelectorSettingsReachTheSelector() {
        SimpleMergeSelector.Settings s =
                TableLayouts.fromDdl(
                                DDL
                                        + " SETTINGS merge_selector_base = 3, merge_selector_window_size"
                                        + " = 50, min_age_to_force_merge_seconds = 60,"
                                        + " merge_selector_enable_heuristic_to_remove_small_parts_at_right"
                                        + " = 0")
                        .settings()
                        .mergeSelector();
        assertThat(s.base()).isEqualTo(3.0);
        assertThat(s.windowSize()).isEqualTo(50);
        assertThat(s.minAgeToForceMerge()).isEqualTo(60);
        assertThat(s.enableHeuristicToRemoveSmallPartsAtRight()).isFalse();
        // young parts that the default base would leave alone merge when forced by age
        List<MergeCandidate> two =
                List.of(
                        new MergeCandidate(PartName.inserted("all", 1), 100 << 20, 120, true),
                        new MergeCandidate(PartName.inserted("all", 2), 1 << 20, 120, true));
        assertThat(
                        new SimpleMergeSelector(SimpleMergeSelector.Settings.defaults())
                                .select(List.of(two), 0))
                .isEmpty();
        assertThat(new SimpleMergeSelector(s).select(List.of(two), 0)).hasSize(2);
    }

    @Test
    void unimplementedSelectorVariantsAreRefused() {
        assertThatThrownBy(
                        () ->
                                TableLayouts.fromDdl(
                                        DDL + " SETTINGS merge_selector_algorithm = 'Trivial'"))
                .hasMessageContaining("merge_selector_algorithm = 'Trivial'");
        assertThatThrownBy(
                        () ->
                                TableLayouts.fromDdl(
                                        DDL
                                                + " SETTINGS"
                                                + " merge_selector_blurry_base_scale_factor = 4"))
                .hasMessageContaining("blurry");
    }
}
