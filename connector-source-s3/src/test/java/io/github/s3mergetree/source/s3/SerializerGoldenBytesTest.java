package io.github.s3mergetree.source.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.connector.testutils.GoldenBytes;
import io.github.s3mergetree.source.s3.enumerator.S3EnumeratorState;
import io.github.s3mergetree.source.s3.enumerator.S3EnumeratorStateSerializer;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.typeinfo.BlockSerializer;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import io.github.s3mergetree.source.s3.split.S3ObjectSplitSerializer;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * The checkpointed state of the source keeps its history: every layout version ever written is a
 * file of golden bytes under {@code src/test/resources/golden/} (written once, by the version that
 * introduced it, never regenerated), and every one of them still deserializes to the same state.
 * The current version's file also equals what the serializer writes today, so a layout change
 * without a new version fails here (connector-common's {@link GoldenBytes}). {@code
 * -Dgolden.write=true} writes the current version's files when a version is added.
 */
class SerializerGoldenBytesTest {
    static final S3ObjectSplit SPLIT =
            new S3ObjectSplit(
                    "posts/2025/part-0001.parquet",
                    "\"9b2cf535f27731c9\"",
                    1 << 20,
                    0,
                    524288,
                    3,
                    17);
    static final S3ObjectSplit FRESH = S3ObjectSplit.of("posts/ünïcode key.csv", "", 100, 0, 100);

    static S3EnumeratorState state() {
        Map<String, Long> tracked = new LinkedHashMap<>();
        tracked.put("posts/a.parquet", 1_700_000_000_000L);
        tracked.put("posts/b.parquet", 1_700_000_001_000L);
        Map<String, String> parked = new LinkedHashMap<>();
        parked.put("posts/bad.parquet", "not a Parquet file (no PAR1 magic at the end)");
        return new S3EnumeratorState(
                List.of(SPLIT, FRESH), true, "posts/b.parquet", tracked, parked);
    }

    @Test
    void splitsOfEveryVersionRestore() throws IOException {
        GoldenBytes.assertEveryVersionRestores(
                S3ObjectSplitSerializer.INSTANCE, "s3-object-split", SPLIT);
    }

    @Test
    void enumeratorStatesOfEveryVersionRestore() throws IOException {
        S3EnumeratorState expected = state();
        GoldenBytes.assertEveryVersionRestores(
                new S3EnumeratorStateSerializer(),
                "s3-enumerator-state",
                expected,
                (v, restored) -> {
                    assertThat(restored.pendingSplits())
                            .as("v%s", v)
                            .isEqualTo(expected.pendingSplits());
                    assertThat(restored.initialListingDone()).isTrue();
                    assertThat(restored.lastKey()).isEqualTo(expected.lastKey());
                    assertThat(restored.trackedKeys()).isEqualTo(expected.trackedKeys());
                    assertThat(restored.parkedObjects()).isEqualTo(expected.parkedObjects());
                });
    }

    @Test
    void blockSerializerSnapshotsOfEveryVersionRestore() throws IOException {
        TargetSchema schema = TargetSchema.parse("id UInt64, tags Array(LowCardinality(String))");
        BlockSerializer.BlockSerializerSnapshot snap =
                (BlockSerializer.BlockSerializerSnapshot)
                        new BlockSerializer(schema).snapshotConfiguration();
        DataOutputSerializer out = new DataOutputSerializer(64);
        snap.writeSnapshot(out);
        String current =
                GoldenBytes.fileName("block-serializer-snapshot", snap.getCurrentVersion());
        GoldenBytes.writeIfMissing(current, out.getCopyOfBuffer());
        assertThat(out.getCopyOfBuffer()).isEqualTo(GoldenBytes.read(current));
        for (int v = 1; v <= snap.getCurrentVersion(); v++) {
            BlockSerializer.BlockSerializerSnapshot read =
                    new BlockSerializer.BlockSerializerSnapshot();
            read.readSnapshot(
                    v,
                    new DataInputDeserializer(
                            GoldenBytes.read(GoldenBytes.fileName("block-serializer-snapshot", v))),
                    getClass().getClassLoader());
            assertThat(read.schema()).as("v%s", v).isEqualTo(schema);
            assertThat(read.restoreSerializer()).isEqualTo(new BlockSerializer(schema));
        }
    }
}
