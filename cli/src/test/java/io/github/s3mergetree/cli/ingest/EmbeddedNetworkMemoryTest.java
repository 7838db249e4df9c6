package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.Test;

class EmbeddedNetworkMemoryTest {

    private static final MemorySize SEGMENT = MemorySize.parse("32kb");

    @Test
    void smallParallelismGetsTheFloor() {
        Configuration conf = new Configuration();
        MemorySize set = EmbeddedNetworkMemory.configure(conf, 2);
        assertThat(set).isEqualTo(MemorySize.ofMebiBytes(16));
        assertThat(conf.get(TaskManagerOptions.NETWORK_MEMORY_MIN)).isEqualTo(set);
        assertThat(conf.get(TaskManagerOptions.NETWORK_MEMORY_MAX)).isEqualTo(set);
    }

    @Test
    void sizeGrowsWithTheSquareOfTheParallelism() {
        // p = 8: per edge 8 x (16 + 8) receiving + 8 x 9 sending = 264 buffers; 3 edges
        assertThat(EmbeddedNetworkMemory.sizeFor(8, SEGMENT).getBytes()).isEqualTo(792L * 32768);
        // p = 13: 3 x (13 x 34 + 13 x 14) = 1,872 buffers, still below 64 MB
        assertThat(EmbeddedNetworkMemory.sizeFor(13, SEGMENT).getBytes()).isEqualTo(1872L * 32768);
        Configuration conf = new Configuration();
        assertThat(EmbeddedNetworkMemory.configure(conf, 13)).isNotNull();
    }

    @Test
    void theFloorHoldsUpToParallelismSix() {
        assertThat(EmbeddedNetworkMemory.sizeFor(6, SEGMENT))
                .isEqualTo(EmbeddedNetworkMemory.FLOOR);
        assertThat(EmbeddedNetworkMemory.sizeFor(7, SEGMENT).getBytes())
                .isGreaterThan(EmbeddedNetworkMemory.FLOOR.getBytes());
    }

    @Test
    void largeParallelismKeepsFlinksDefault() {
        Configuration conf = new Configuration();
        assertThat(EmbeddedNetworkMemory.configure(conf, 14)).isNull();
        assertThat(conf.contains(TaskManagerOptions.NETWORK_MEMORY_MIN)).isFalse();
        assertThat(conf.contains(TaskManagerOptions.NETWORK_MEMORY_MAX)).isFalse();
    }

    @Test
    void aConfiguredNetworkMemoryIsLeftAlone() {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.ofMebiBytes(200));
        assertThat(EmbeddedNetworkMemory.configure(conf, 2)).isNull();
        assertThat(conf.contains(TaskManagerOptions.NETWORK_MEMORY_MIN)).isFalse();
        assertThat(conf.get(TaskManagerOptions.NETWORK_MEMORY_MAX))
                .isEqualTo(MemorySize.ofMebiBytes(200));

        Configuration fraction = new Configuration();
        fraction.set(TaskManagerOptions.NETWORK_MEMORY_FRACTION, 0.2f);
        assertThat(EmbeddedNetworkMemory.configure(fraction, 2)).isNull();
    }

    @Test
    void aLargerSegmentSizeScalesTheSize() {
        MemorySize big = MemorySize.parse("64kb");
        assertThat(EmbeddedNetworkMemory.sizeFor(8, big).getBytes()).isEqualTo(792L * 65536);
    }

    @Test
    void parallelismBelowOneIsRefused() {
        assertThatThrownBy(() -> EmbeddedNetworkMemory.sizeFor(0, SEGMENT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not 0");
    }
}
