package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittable;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittableSerializer;
import io.github.s3mergetree.sink.mergetree.writer.MergeTreeWriterState;
import io.github.s3mergetree.sink.mergetree.writer.MergeTreeWriterStateSerializer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sink's checkpointed state keeps its history: every layout version ever written is a file of
 * golden bytes under {@code src/test/resources/golden/} (written once by the version that
 * introduced it), every one still deserializes, and the current one equals what the serializer
 * writes today (a layout change without a new version fails). {@code -Dgolden.write=true} writes
 * the current version's files when a version is added.
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
                    true);
    static final MergeTreeWriterState STATE = new MergeTreeWriterState("default", 3, 42, 1_000_000);

    static byte[] golden(String name) throws IOException {
        try (InputStream in =
                SerializerGoldenBytesTest.class.getResourceAsStream("/golden/" + name)) {
            assertThat(in).as("golden file %s", name).isNotNull();
            return in.readAllBytes();
        }
    }

    static void maybeWrite(String name, byte[] bytes) throws IOException {
        if (Boolean.getBoolean("golden.write")) {
            Path f = Path.of("src/test/resources/golden", name);
            Files.createDirectories(f.getParent());
            if (!Files.exists(f)) {
                Files.write(f, bytes);
            }
        }
    }

    @Test
    void committablesOfEveryVersionRestore() throws IOException {
        MergeTreeCommittableSerializer s = new MergeTreeCommittableSerializer();
        String current = "mergetree-committable-v" + s.getVersion() + ".bin";
        maybeWrite(current, s.serialize(COMMITTABLE));
        for (int v = 1; v <= s.getVersion(); v++) {
            assertThat(s.deserialize(v, golden("mergetree-committable-v" + v + ".bin")))
                    .as("v%s", v)
                    .isEqualTo(COMMITTABLE);
        }
        assertThat(s.serialize(COMMITTABLE)).isEqualTo(golden(current));
    }

    @Test
    void writerStatesOfEveryVersionRestore() throws IOException {
        MergeTreeWriterStateSerializer s = new MergeTreeWriterStateSerializer();
        String current = "mergetree-writer-state-v" + s.getVersion() + ".bin";
        maybeWrite(current, s.serialize(STATE));
        for (int v = 1; v <= s.getVersion(); v++) {
            assertThat(s.deserialize(v, golden("mergetree-writer-state-v" + v + ".bin")))
                    .as("v%s", v)
                    .isEqualTo(STATE);
        }
        assertThat(s.serialize(STATE)).isEqualTo(golden(current));
    }
}
