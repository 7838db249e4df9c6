package io.github.s3mergetree.source.s3.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class S3EnumeratorStateSerializerTest {
    @Test
    void roundTripsPendingSplitsAndDiscoveryState() throws Exception {
        Map<String, Long> tracked = new LinkedHashMap<>();
        tracked.put("z-first", 10L);
        tracked.put("a-second", 20L);
        S3EnumeratorState state =
                new S3EnumeratorState(
                        List.of(
                                S3ObjectSplit.of("k1", "e1", 10, 0, 10),
                                new S3ObjectSplit("k2", "e2", 100, 50, 100, 3, 7)),
                        true,
                        "k-last",
                        tracked,
                        Map.of("bad", "not parquet"));
        S3EnumeratorStateSerializer s = new S3EnumeratorStateSerializer();
        S3EnumeratorState back = s.deserialize(s.getVersion(), s.serialize(state));
        assertThat(back).isEqualTo(state);
        assertThat(back.trackedKeys().keySet()).containsExactly("z-first", "a-second");
        S3EnumeratorState empty = S3EnumeratorState.initial();
        assertThat(s.deserialize(s.getVersion(), s.serialize(empty))).isEqualTo(empty);
    }

    /** A checkpoint of the version-1 layout (splits without rows read and failure) restores. */
    @Test
    void readsVersion1() throws Exception {
        org.apache.flink.core.memory.DataOutputSerializer out =
                new org.apache.flink.core.memory.DataOutputSerializer(64);
        out.writeInt(1);
        out.writeUTF("k2");
        out.writeUTF("e2");
        for (long v : new long[] {100, 50, 100, 3, 7}) {
            out.writeLong(v);
        }
        out.writeBoolean(true);
        out.writeBoolean(false);
        out.writeInt(0);
        out.writeInt(1);
        out.writeUTF("bad");
        out.writeUTF("not parquet");
        S3EnumeratorState back =
                new S3EnumeratorStateSerializer().deserialize(1, out.getCopyOfBuffer());
        assertThat(back)
                .isEqualTo(
                        new S3EnumeratorState(
                                List.of(new S3ObjectSplit("k2", "e2", 100, 50, 100, 3, 7)),
                                true,
                                null,
                                Map.of(),
                                Map.of("bad", "not parquet")));
    }
}
