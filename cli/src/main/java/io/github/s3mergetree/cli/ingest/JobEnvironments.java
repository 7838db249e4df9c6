package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.cli.runtime.RunDirectories;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.SecurityOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Where the ingest job runs and with which Flink configuration: an embedded MiniCluster in this
 * process (the default) or the cluster {@code --jobmanager} names, which gets the job jar. Both
 * checkpoint into the ingest's state directory, retain their checkpoints on cancellation and resume
 * from the newest snapshot; {@code --flink-config key=value} overrides any of it.
 */
final class JobEnvironments {
    private JobEnvironments() {}

    /**
     * The job's configuration: checkpoints every {@code --checkpoint-interval} into {@code
     * checkpointsUri}, savepoints into {@code savepointsUri}, retained on cancellation, three
     * restarts 2 s apart, resumed from {@code snapshot} if there is one, then {@code
     * --flink-config}.
     *
     * @throws IllegalArgumentException naming a {@code --flink-config} value that is not {@code
     *     key=value}
     */
    static Configuration configuration(
            IngestOptions o,
            String checkpointsUri,
            String savepointsUri,
            Optional<String> snapshot) {
        Configuration conf = new Configuration();
        if (o.jobmanager() == null) {
            // the embedded MiniCluster reports the source's counters (rows read, bytes
            // downloaded, malformed rows skipped) to the progress line and the summary
            SourceCountersReporter.install(conf);
        }
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, o.checkpointInterval());
        conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointsUri);
        conf.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, savepointsUri);
        conf.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(2));
        snapshot.ifPresent(p -> conf.set(StateRecoveryOptions.SAVEPOINT_PATH, p));
        for (String kv : o.flinkConfig()) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(
                        "--flink-config takes key=value, not '" + kv + "'");
            }
            conf.setString(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
        return conf;
    }

    /**
     * The environment the job runs in: a local one (the embedded MiniCluster, its scratch files in
     * this run's own directory, its checkpoints written to S3 from this JVM when {@code
     * snapshotsOnS3}) or a remote one for {@code --jobmanager HOST:PORT}, shipping the job jar.
     */
    static StreamExecutionEnvironment environment(
            IngestOptions o, Configuration conf, boolean snapshotsOnS3) throws IOException {
        if (o.jobmanager() == null) {
            if (snapshotsOnS3) {
                // the embedded cluster writes its checkpoints to S3 from this JVM
                FlinkFileSystems.configureS3(conf, o.tableS3());
                FlinkFileSystems.initializeWithS3Plugin(conf);
            }
            int p =
                    o.parallelism() != null
                            ? o.parallelism()
                            : Math.max(1, Runtime.getRuntime().availableProcessors());
            // the MiniCluster's working directories, RPC jar and spill files go to this run's
            // own scratch directory, removed at exit (or by the next run after a kill)
            String scratch = RunDirectories.scratch().toString();
            if (!conf.contains(CoreOptions.TMP_DIRS)) {
                conf.set(CoreOptions.TMP_DIRS, scratch);
            }
            if (!conf.contains(WebOptions.UPLOAD_DIR)) {
                conf.set(WebOptions.UPLOAD_DIR, scratch);
            }
            if (!conf.contains(WebOptions.TMP_DIR)) {
                conf.set(WebOptions.TMP_DIR, scratch);
            }
            if (!conf.contains(SecurityOptions.DELEGATION_TOKENS_ENABLED)) {
                // one local process obtains no Kerberos delegation tokens; Flink's token
                // manager would still load Hadoop's UserGroupInformation and parse its XML
                // configuration at every start (~0.1 CPU-s, plus the JIT of the XML parser)
                conf.set(SecurityOptions.DELEGATION_TOKENS_ENABLED, false);
            }
            EmbeddedNetworkMemory.configure(conf, p);
            return StreamExecutionEnvironment.createLocalEnvironment(p, conf);
        }
        int colon = o.jobmanager().lastIndexOf(':');
        String host = o.jobmanager().substring(0, colon);
        int port = Integer.parseInt(o.jobmanager().substring(colon + 1));
        Path jar = JobJar.locate(o.jobJar());
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createRemoteEnvironment(
                        host, port, conf, jar.toString());
        if (o.parallelism() != null) {
            env.setParallelism(o.parallelism());
        }
        return env;
    }

    /**
     * Flink's S3 file system in this process, on the table's S3 ({@code --flink-config} applied):
     * this process reads the job's failed-objects report from the ingest's state on S3 and, when
     * the job runs embedded, writes its checkpoints there.
     */
    static void initializeS3FileSystemHere(IngestOptions o) throws IOException {
        Configuration fs = new Configuration();
        for (String kv : o.flinkConfig()) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                fs.setString(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
            }
        }
        FlinkFileSystems.configureS3(fs, o.tableS3());
        FlinkFileSystems.initializeWithS3Plugin(fs);
    }
}
