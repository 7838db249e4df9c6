package io.github.s3mergetree.delivery.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.part.PartName;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeliveryPlannerTest {
    private static PartName p(String name) {
        return PartName.tryParse(name).orElseThrow();
    }

    private static Map<PartName, Long> rows(Object... nameRows) {
        Map<PartName, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < nameRows.length; i += 2) {
            m.put(p((String) nameRows[i]), ((Number) nameRows[i + 1]).longValue());
        }
        return m;
    }

    @Test
    void nothingReceivedDeliversTheActiveParts() {
        DeliveryPlanner.Plan plan =
                DeliveryPlanner.plan(
                        rows("a_1_1_0", 10, "a_2_2_0", 5, "a_1_2_1", 15, "b_3_3_0", 7),
                        Map.of(),
                        true);
        assertThat(plan.toDeliver()).containsExactly(p("a_1_2_1"), p("b_3_3_0"));
        assertThat(plan.problems()).isEmpty();
    }

    @Test
    void aMergeOfReceivedPartsIsNotDeliveredAgain() {
        DeliveryPlanner.Plan plan =
                DeliveryPlanner.plan(
                        rows("a_1_3_1", 30, "a_4_4_0", 1),
                        rows("a_1_1_0", 10, "a_2_2_0", 10, "a_3_3_0", 10),
                        false);
        assertThat(plan.toDeliver()).containsExactly(p("a_4_4_0"));
    }

    @Test
    void aRewrittenSinglePartIsReceived() {
        DeliveryPlanner.Plan plan =
                DeliveryPlanner.plan(rows("a_1_1_1", 10), rows("a_1_1_0", 10), false);
        assertThat(plan.isEmpty()).isTrue();
    }

    @Test
    void aMergeOfReceivedAndUnreceivedGoesThroughTheUnreceivedSources() {
        DeliveryPlanner.Plan plan =
                DeliveryPlanner.plan(
                        rows("a_1_1_0", 10, "a_2_2_0", 5, "a_3_3_0", 5, "a_1_3_1", 20),
                        rows("a_1_1_0", 10),
                        false);
        assertThat(plan.toDeliver()).containsExactly(p("a_2_2_0"), p("a_3_3_0"));
        assertThat(plan.problems()).isEmpty();
    }

    @Test
    void aGapInBlockNumbersIsProvenEmptyByRowsWhenMergesKeepRows() {
        // block 2 was allocated by an aborted commit: no part ever held it
        Map<PartName, Long> committed = rows("a_1_3_1", 20, "a_3_3_0", 5);
        Map<PartName, Long> received = rows("a_1_1_0", 15);
        assertThat(DeliveryPlanner.plan(committed, received, true).toDeliver())
                .containsExactly(p("a_3_3_0"));
        // a reducing engine cannot tell a gap from removed rows: it refuses
        DeliveryPlanner.Plan reducing = DeliveryPlanner.plan(committed, received, false);
        assertThat(reducing.toDeliver()).isEmpty();
        assertThat(reducing.problems())
                .singleElement()
                .asString()
                .contains("a_1_3_1")
                .contains("old_parts_lifetime");
    }

    @Test
    void sourcesGoneIsAProblemNotAGuess() {
        DeliveryPlanner.Plan plan =
                DeliveryPlanner.plan(rows("a_1_3_1", 30), rows("a_1_1_0", 10), true);
        assertThat(plan.toDeliver()).isEmpty();
        assertThat(plan.problems()).hasSize(1);
    }

    @Test
    void partitionsAreIndependent() {
        DeliveryPlanner.Plan plan =
                DeliveryPlanner.plan(rows("a_1_1_0", 1, "b_1_1_0", 1), rows("a_1_1_0", 1), true);
        assertThat(plan.toDeliver()).isEqualTo(List.of(p("b_1_1_0")));
    }
}
