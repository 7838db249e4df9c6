package io.github.s3mergetree.sink.mergetree.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.sink.mergetree.storage.TempPartNames;
import java.util.OptionalLong;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Which temporary directories a starting writer removes. */
class AbortedAttemptCleanupTest {
    private static String dir(String sink, int subtask, long epoch) {
        return "tmp_" + TempPartNames.purpose(sink, subtask, epoch) + "_1_abc";
    }

    @Test
    void afterARestoreOnlyItsOwnEpochsFromTheCheckpointOn() {
        Predicate<String> p = AbortedAttemptCleanup.leftovers("s", 1, 2, OptionalLong.of(5));
        assertThat(p.test(dir("s", 1, 5))).isTrue();
        assertThat(p.test(dir("s", 1, 9))).isTrue();
        assertThat(p.test(dir("s", 1, 4))).as("in a restored committable").isFalse();
        assertThat(p.test(dir("s", 0, 7))).as("another live writer's").isFalse();
        // indices no writer has any more (parallelism went 4 -> 2): 3 % 2 == 1
        assertThat(p.test(dir("s", 3, 7))).isTrue();
        assertThat(p.test(dir("s", 2, 7))).isFalse();
        assertThat(p.test(dir("other", 1, 7))).as("another sink's").isFalse();
        assertThat(p.test("tmp_insert_1_abc")).isFalse();
        assertThat(p.test("all_1_1_0")).isFalse();
    }

    @Test
    void onAFreshStartEveryEpoch() {
        Predicate<String> p = AbortedAttemptCleanup.leftovers("s", 0, 1, OptionalLong.empty());
        assertThat(p.test(dir("s", 0, 0))).isTrue();
        assertThat(p.test(dir("s", 0, 42))).isTrue();
        assertThat(p.test(dir("s", 5, 42))).isTrue();
    }
}
