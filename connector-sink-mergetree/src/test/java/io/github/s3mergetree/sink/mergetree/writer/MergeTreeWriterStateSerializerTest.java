package io.github.s3mergetree.sink.mergetree.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class MergeTreeWriterStateSerializerTest {
    private final MergeTreeWriterStateSerializer serializer = new MergeTreeWriterStateSerializer();

    @Test
    void roundTrips() throws IOException {
        MergeTreeWriterState s = new MergeTreeWriterState("my.sink", 3, 17, 1_000_000_007L);
        assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(s)))
                .isEqualTo(s);
    }

    @Test
    void refusesUnknownVersion() {
        assertThatThrownBy(() -> serializer.deserialize(2, new byte[0]))
                .isInstanceOf(IOException.class);
    }
}
