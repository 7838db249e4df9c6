package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.connector.testutils.GoldenBytes;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittable;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittableSerializer;
import io.github.s3mergetree.sink.mergetree.writer.MergeTreeWriterState;
import io.github.s3mergetree.sink.mergetree.writer.MergeTreeWriterStateSerializer;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sink's checkpointed state keeps its history: every layout version ever written is a file of
 * golden bytes under {@code src/test/resources/golden/} (written once by the version that
 * introduced it), every one still deserializes, and the current one equals what the serializer
 * writes today (a layout change without a new version fails): connector-common's {@link
 * GoldenBytes}. {@code -Dgolden.write=true} writes the current version's files when a version is
 * added.
 */
class SerializerGoldenBytesTest {
    static final MergeTreeCommittable COMMITTABLE =
            new MergeTreeCommittable(
                    "s3mt-default-0-42",
                    List.of(
                            new MergeTreeCommittable.PendingPart(
                                    "tmp_s3mt-default-0-42-1_202501",
                                    "202501",
                                    65536,
                                    9,
                                    123456,
                                    456789,
                                    789012),
                            new MergeTreeCommittable.PendingPart(
                                    "tmp_s3mt-default-0-42-2_202502",
                                    "202502",
                                    17,
                                    2,
                                    1024,
                                    2048,
                                    4096)),
                    true,
                    "0123456789abcdef0123456789abcdef");
    static final MergeTreeWriterState STATE = new MergeTreeWriterState("default", 3, 42, 1_000_000);

    @Test
    void committablesOfEveryVersionRestore() throws IOException {
        GoldenBytes.assertEveryVersionRestores(
                new MergeTreeCommittableSerializer(),
                "mergetree-committable",
                COMMITTABLE,
                (version, restored) ->
                        assertThat(restored)
                                .as("mergetree-committable v%s", version)
                                // version 1 did not record the writer's job
                                .isEqualTo(
                                        version == 1
                                                ? new MergeTreeCommittable(
                                                        COMMITTABLE.token(),
                                                        COMMITTABLE.parts(),
                                                        COMMITTABLE.endOfInput())
                                                : COMMITTABLE));
    }

    @Test
    void writerStatesOfEveryVersionRestore() throws IOException {
        GoldenBytes.assertEveryVersionRestores(
                new MergeTreeWriterStateSerializer(), "mergetree-writer-state", STATE);
    }
}
