package io.github.s3mergetree.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of {@code s3-mergetree ingest}, the product's way to run the S3 → MergeTree job
 * on a Flink cluster:
 *
 * <pre>
 * s3-mergetree ingest --source s3://bucket/glob --format Parquet --table-ddl-file FILE
 *     --table-path DIR --s3-endpoint URL --s3-access-key K --s3-secret-key S --s3-path-style
 *     [--parallelism N] [--setting name=value]... [--checkpoint-interval 2s]
 *     [--continuous [--discovery-interval 1s]] [--optimize-final] --jobmanager HOST:PORT
 * </pre>
 *
 * It submits the job jar to the cluster and waits; the last stdout line is a JSON summary. With
 * {@code --continuous}, SIGTERM stops the job with a savepoint after a last commit, and the same
 * command resumes from it.
 */
final class Ingest {
    private final List<String> args = new ArrayList<>();

    private Ingest() {}

    static Ingest posts(String source, Path tableDir, String s3Endpoint, FlinkStandaloneCluster c) {
        return posts(source, tableDir.toString(), s3Endpoint, c);
    }

    /** As {@link #posts(String, Path, String, FlinkStandaloneCluster)}, any table path. */
    static Ingest posts(
            String source, String tablePath, String s3Endpoint, FlinkStandaloneCluster c) {
        return of(source, "Parquet", Posts.ddlFile(), tablePath, s3Endpoint, c);
    }

    /** {@code format} objects (a ClickHouse format name) into the table {@code ddlFile} creates. */
    static Ingest of(
            String source,
            String format,
            Path ddlFile,
            String tablePath,
            String s3Endpoint,
            FlinkStandaloneCluster c) {
        Ingest i = new Ingest();
        i.args.addAll(
                List.of(
                        "ingest",
                        "--source",
                        source,
                        "--format",
                        format,
                        "--table-ddl-file",
                        ddlFile.toString(),
                        "--table-path",
                        tablePath,
                        "--s3-endpoint",
                        s3Endpoint,
                        "--s3-access-key",
                        S3ServerProcess.ACCESS_KEY,
                        "--s3-secret-key",
                        S3ServerProcess.SECRET_KEY,
                        "--s3-path-style",
                        "--jobmanager",
                        c.restAddress(),
                        "--job-jar",
                        jobJar().toString()));
        return i;
    }

    /** The job jar this build made: {@code cli/target/s3-mergetree-cli-<v>-job.jar}. */
    static Path jobJar() {
        Path jar =
                E2E.projectRoot()
                        .resolve(
                                "cli/target/s3-mergetree-cli-" + E2E.projectVersion() + "-job.jar");
        if (!java.nio.file.Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    "no job jar " + jar + " (the cli module's package phase makes it)");
        }
        return jar;
    }

    Ingest option(String... more) {
        args.addAll(List.of(more));
        return this;
    }

    Ingest parallelism(int n) {
        return option("--parallelism", Integer.toString(n));
    }

    Ingest checkpointInterval(String interval) {
        return option("--checkpoint-interval", interval);
    }

    Ingest continuous(String discoveryInterval) {
        return option("--continuous", "--discovery-interval", discoveryInterval);
    }

    Ingest optimizeFinal() {
        return option("--optimize-final");
    }

    Ingest setting(String nameValue) {
        return option("--setting", nameValue);
    }

    List<String> args() {
        return List.copyOf(args);
    }

    /** Starts the command in its own JVM, its output in {@code logDir/<name>.out|.err}. */
    ManagedProcess start(String name, Path logDir) {
        return Cli.start(name, logDir, args);
    }

    /** As {@link #start(String, Path)}, with further JVM options. */
    ManagedProcess start(String name, Path logDir, List<String> jvm) {
        return Cli.start(name, logDir, jvm, args);
    }
}
