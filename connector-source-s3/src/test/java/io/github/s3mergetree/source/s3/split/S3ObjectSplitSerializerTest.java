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
                }) {
            S3ObjectSplit back = s.deserialize(s.getVersion(), s.serialize(split));
            assertThat(back).isEqualTo(split);
            assertThat(back.splitId()).isEqualTo(split.splitId());
        }
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
