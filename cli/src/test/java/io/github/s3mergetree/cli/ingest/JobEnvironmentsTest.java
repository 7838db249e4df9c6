package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.junit.jupiter.api.Test;

/** The ingest job's Flink configuration ({@link JobEnvironments#configuration}). */
class JobEnvironmentsTest {
    private static IngestOptions options(String... more) throws Exception {
        List<String> argv =
                new ArrayList<>(
                        List.of(
                                "--source",
                                "file:///data/in/*.csv",
                                "--format",
                                "CSVWithNames",
                                "--table-ddl-file",
                                "/data/t.sql",
                                "--table-path",
                                "/data/t",
                                "--checkpoint-interval",
                                "3s"));
        argv.addAll(List.of(more));
        return IngestOptions.parse(argv);
    }

    @Test
    void checkpointsGoToTheIngestsStateAndAreRetainedAndResumedFrom() throws Exception {
        Configuration conf =
                JobEnvironments.configuration(
                        options(),
                        "file:///data/t/cp",
                        "file:///data/t/sp",
                        Optional.of("file:///data/t/cp/chk-7"));
        assertThat(conf.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
                .isEqualTo(Duration.ofSeconds(3));
        assertThat(conf.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY))
                .isEqualTo("file:///data/t/cp");
        assertThat(conf.get(CheckpointingOptions.SAVEPOINT_DIRECTORY))
                .isEqualTo("file:///data/t/sp");
        assertThat(conf.get(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION))
                .isEqualTo(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS))
                .isEqualTo(3);
        assertThat(conf.get(StateRecoveryOptions.SAVEPOINT_PATH))
                .isEqualTo("file:///data/t/cp/chk-7");
    }

    @Test
    void aFreshStartHasNoSavepointAndFlinkConfigOverridesTheDefaults() throws Exception {
        Configuration conf =
                JobEnvironments.configuration(
                        options(
                                "--flink-config",
                                "restart-strategy.fixed-delay.attempts = 9",
                                "--flink-config",
                                "pipeline.name=x=y"),
                        "file:///cp",
                        "file:///sp",
                        Optional.empty());
        assertThat(conf.getOptional(StateRecoveryOptions.SAVEPOINT_PATH)).isEmpty();
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS))
                .isEqualTo(9);
        assertThat(conf.getString("pipeline.name", null)).isEqualTo("x=y");
    }

    @Test
    void aFlinkConfigWithoutKeyIsRefusedNamingIt() {
        assertThatThrownBy(
                        () ->
                                JobEnvironments.configuration(
                                        options("--flink-config", "=5"),
                                        "file:///cp",
                                        "file:///sp",
                                        Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--flink-config takes key=value, not '=5'");
    }
}
