package io.github.s3mergetree.sink.mergetree.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.sink.mergetree.storage.TempPartNames;
import org.junit.jupiter.api.Test;

class TempPartNamesTest {
    @Test
    void purposeParsesBack() {
        String dir = "tmp_" + TempPartNames.purpose("my-sink_1", 3, 42) + "_202401_0c6e-uuid";
        assertThat(dir).startsWith("tmp_s3mt-my.sink.1-3-42_");
        assertThat(TempPartNames.parse(dir, "my-sink_1")).contains(new TempPartNames.Parsed(3, 42));
    }

    @Test
    void otherSinksAndTheEnginesDirectoriesAreNotOurs() {
        assertThat(TempPartNames.parse("tmp_s3mt-other-0-1_all_x", "mine")).isEmpty();
        assertThat(TempPartNames.parse("tmp_insert_all_x", "mine")).isEmpty();
        assertThat(TempPartNames.parse("tmp_merge_all_x", "mine")).isEmpty();
        assertThat(TempPartNames.parse("tmp_s3mt-mine-x-1_all_x", "mine")).isEmpty();
        // a sink id that is a prefix of another's
        assertThat(TempPartNames.parse("tmp_s3mt-mine.2-0-1_all_x", "mine")).isEmpty();
    }
}
