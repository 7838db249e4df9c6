package io.github.s3mergetree.source.s3.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class S3ObjectSplitSerializerTest {
    @Test
    void roundTrips() throws Exception {
        S3ObjectSplitSerializer s = S3ObjectSplitSerializer.INSTANCE;
        for (S3ObjectSplit split :
                new S3ObjectSplit[] {
                    S3ObjectSplit.of("a/b.parquet", "etag-1", 1000, 0, 1000),
                    new S3ObjectSplit(
                            "ключ/ü#1", "", 5_000_000_000L, 1_000_000, 2_000_000, 7, 12345),
                    new S3ObjectSplit("c.csv", "e", 500, 0, 500, 120, 0, 65536, null),
                    new S3ObjectSplit(
                            "d.parquet",
                            "e2",
                            500,
                            0,
                            500,
                            S3ObjectSplit.NOT_STARTED,
                            0,
                            0,
                            "s3://b/d.parquet: not a Parquet file (truncated footer)"),
                }) {
            S3ObjectSplit back = s.deserialize(s.getVersion(), s.serialize(split));
            assertThat(back).isEqualTo(split);
            assertThat(back.splitId()).isEqualTo(split.splitId());
        }
    }

    /** Splits in checkpoints of the previous layout restore with no rows read and no failure. */
    @Test
    void readsVersion1() throws Exception {
        org.apache.flink.core.memory.DataOutputSerializer out =
                new org.apache.flink.core.memory.DataOutputSerializer(64);
        out.writeUTF("a/b.parquet");
        out.writeUTF("etag-1");
        out.writeLong(1000);
        out.writeLong(0);
        out.writeLong(1000);
        out.writeLong(3);
        out.writeLong(17);
        S3ObjectSplit back = S3ObjectSplitSerializer.INSTANCE.deserialize(1, out.getCopyOfBuffer());
        assertThat(back)
                .isEqualTo(new S3ObjectSplit("a/b.parquet", "etag-1", 1000, 0, 1000, 3, 17));
        assertThat(back.rowsRead()).isZero();
        assertThat(back.failure()).isEmpty();
    }

    @Test
    void longFailuresAreCut() throws Exception {
        S3ObjectSplit f = S3ObjectSplit.of("k", "e", 10, 0, 10).withFailure("x".repeat(100_000));
        S3ObjectSplit back =
                S3ObjectSplitSerializer.INSTANCE.deserialize(
                        2, S3ObjectSplitSerializer.INSTANCE.serialize(f));
        assertThat(back.failure().orElseThrow()).hasSize(S3ObjectSplitSerializer.MAX_FAILURE_CHARS);
    }

    @Test
    void unknownVersionIsRefused() {
        assertThatThrownBy(() -> S3ObjectSplitSerializer.INSTANCE.deserialize(99, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("99");
    }

    @Test
    void invalidRangesNameTheValue() {
        assertThatThrownBy(() -> S3ObjectSplit.of("k", "e", 10, 5, 11))
                .hasMessageContaining("[5, 11)")
                .hasMessageContaining("k");
    }
}
