package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which S3 plugin jars {@link FlinkFileSystems} accepts for the running Flink. */
class FlinkFileSystemsTest {
    @Test
    void aPluginLoadsOnlyIntoItsOwnFlinkLine() {
        assertThat(FlinkFileSystems.pluginVersion("flink-s3-fs-presto-2.3.0.jar"))
                .isEqualTo("2.3.0");
        assertThat(FlinkFileSystems.pluginVersion("flink-s3-fs-hadoop-1.20.3.jar"))
                .isEqualTo("1.20.3");
        assertThat(FlinkFileSystems.sameFlinkLine("2.3.0", "2.3.0")).isTrue();
        assertThat(FlinkFileSystems.sameFlinkLine("1.20.1", "1.20.3")).isTrue();
        // the 2.3.0 plugin's factories do not load into Flink 1.20 (seen: no public constructor)
        assertThat(FlinkFileSystems.sameFlinkLine("2.3.0", "1.20.3")).isFalse();
        assertThat(FlinkFileSystems.sameFlinkLine("2.2.0", "2.3.0")).isFalse();
        assertThat(FlinkFileSystems.sameFlinkLine("", "2.3.0")).isFalse();
        assertThat(FlinkFileSystems.sameFlinkLine("2.3.0", "<unknown>")).isFalse();
    }
}
