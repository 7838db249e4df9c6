package io.github.s3mergetree.sink.mergetree.committer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class MergeTreeCommittableSerializerTest {
    private final MergeTreeCommittableSerializer serializer = new MergeTreeCommittableSerializer();

    @Test
    void roundTripsWithTokenAndParts() throws IOException {
        MergeTreeCommittable c =
                new MergeTreeCommittable(
                        "default-0123abcd-1-42-3",
                        List.of(
                                new MergeTreeCommittable.PendingPart(
                                        "tmp_s3mt-default-1-41_202401_9f1c",
                                        "202401",
                                        8192,
                                        2,
                                        123456,
                                        654321,
                                        700000),
                                new MergeTreeCommittable.PendingPart(
                                        "tmp_s3mt-default-1-41_all_Ünïcode",
                                        "all",
                                        1,
                                        2,
                                        10,
                                        20,
                                        30)));
        byte[] bytes = serializer.serialize(c);
        assertThat(serializer.deserialize(serializer.getVersion(), bytes)).isEqualTo(c);
    }

    @Test
    void roundTripsWithoutTokenOrParts() throws IOException {
        MergeTreeCommittable c = new MergeTreeCommittable(null, List.of());
        assertThat(serializer.deserialize(2, serializer.serialize(c))).isEqualTo(c);
        MergeTreeCommittable last = new MergeTreeCommittable("t", List.of(), true);
        assertThat(serializer.deserialize(2, serializer.serialize(last))).isEqualTo(last);
        MergeTreeCommittable ofAJob = new MergeTreeCommittable("t", List.of(), false, "job-ß");
        assertThat(serializer.deserialize(2, serializer.serialize(ofAJob))).isEqualTo(ofAJob);
    }

    @Test
    void refusesUnknownVersion() {
        assertThatThrownBy(() -> serializer.deserialize(99, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 99");
    }
}
