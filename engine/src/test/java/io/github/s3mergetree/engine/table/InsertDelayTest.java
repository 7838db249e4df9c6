package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * ClickHouse's insert delay: {@code max_delay_to_insert^k} ms with {@code k = (n −
 * parts_to_delay_insert + 1) / (parts_to_throw_insert − parts_to_delay_insert)}, capped at 1, from
 * {@code parts_to_delay_insert} active parts; refused at {@code parts_to_throw_insert}.
 */
class InsertDelayTest {
    @Test
    void growsFromOneMillisecondToMaxDelayToInsertWithClickHousesDefaults() {
        TableSettings s = TableSettings.defaults(); // 1000, 3000, 1 s
        assertThat(InsertDelay.millis(s, 0)).isZero();
        assertThat(InsertDelay.millis(s, 999)).isZero();
        assertThat(InsertDelay.millis(s, 1000)).isEqualTo(1); // 1000^(1/2000)
        assertThat(InsertDelay.millis(s, 2000)).isEqualTo(31); // 1000^(1001/2000)
        assertThat(InsertDelay.millis(s, 2500)).isEqualTo(178); // 1000^(1501/2000)
        assertThat(InsertDelay.millis(s, 2999)).isEqualTo(1000);
        assertThat(InsertDelay.millis(s, 5000)).isEqualTo(1000); // capped
        assertThat(InsertDelay.refuses(s, 2999)).isFalse();
        assertThat(InsertDelay.refuses(s, 3000)).isTrue();
    }

    @Test
    void followsTheTablesLimitsAndMaxDelay() {
        TableSettings s = TableSettings.defaults().withPartsLimits(4, 30);
        assertThat(InsertDelay.millis(s, 3)).isZero();
        assertThat(InsertDelay.millis(s, 9)).isEqualTo(4); // 1000^(6/26)
        assertThat(InsertDelay.millis(s, 29)).isEqualTo(1000);
        assertThat(InsertDelay.refuses(s, 30)).isTrue();
        TableSettings slow =
                new TableSettings(
                        4,
                        30,
                        Duration.ofSeconds(5),
                        s.oldPartsLifetime(),
                        s.temporaryDirectoriesLifetime(),
                        s.maxBytesToMergeAtMaxSpaceInPool(),
                        s.mergeMaxBlockSize(),
                        s.maxPartsToMergeAtOnce(),
                        s.optimizeOnInsert(),
                        s.deduplicationWindow(),
                        s.mergeSelector());
        assertThat(InsertDelay.millis(slow, 29)).isEqualTo(5000);
        // parts_to_throw_insert == parts_to_delay_insert: the full delay at once
        assertThat(InsertDelay.millis(TableSettings.defaults().withPartsLimits(5, 5), 5))
                .isEqualTo(1000);
    }
}
