package io.github.s3mergetree.examples.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.RowsHash;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@link BatchS3ToMergeTreeJob} and {@link ContinuousS3ToMergeTreeJob} on a local MiniCluster
 * against S3Proxy ({@link S3ProxyServer}) with CSV objects, and checks the tables in chDB: every
 * row once, {@code CHECK TABLE} passes.
 */
class S3ToMergeTreeJobsTest {
    @TempDir Path tmp;

    @Test
    @Timeout(300)
    void batchJobLoadsEveryObjectAndMergesEachPartition() throws Exception {
        Path bucket = tmp.resolve("s3/data");
        for (int f = 0; f < 4; f++) {
            JobsTesting.writeCsv(bucket, "events/part-" + f + ".csv", f * 1500L, 1500);
        }
        JobsTesting.writeCsv(bucket, "other/ignored.csv", 1_000_000, 10);
        Path table = tmp.resolve("table");
        try (S3ProxyServer s3 = new S3ProxyServer(tmp.resolve("s3"))) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
            BatchS3ToMergeTreeJob.build(env, params(s3, table));
            env.execute("batch example");
        }

        assertThat(JobsTesting.committedRows(table)).isEqualTo(6000);
        // optimize-final: one part per partition (three months)
        assertThat(JobsTesting.activeParts(table).stream().map(PartName::partitionId))
                .containsExactly("202501", "202502", "202503");
        try (ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
            JobsTesting.attachAll(ch, table);
            assertThat(
                            ch.query(
                                    "SELECT count(), uniqExact(id), min(id), max(id), sum(id) FROM events"))
                    .isEqualTo(
                            ch.query("SELECT 6000, 6000, 0, 5999, sum(number) FROM numbers(6000)"));
            assertThat(ch.query("SELECT " + RowsHash.of("id, day, name, amount") + " FROM events"))
                    .isEqualTo(
                            ch.query(
                                    "SELECT "
                                            + RowsHash.of(
                                                    "number, toDate('2025-01-01') +"
                                                            + " toIntervalMonth(number % 3) + toIntervalDay(number %"
                                                            + " 28), toLowCardinality(concat('name-', toString(number"
                                                            + " % 7))), toFloat64(number % 100) + 0.5")
                                            + " FROM"
                                            + " numbers(6000)"));
        }
    }

    @Test
    @Timeout(300)
    void continuousJobLoadsObjectsThatArriveWhileItRunsExactlyOnce() throws Exception {
        Path bucket = tmp.resolve("s3/data");
        JobsTesting.writeCsv(bucket, "events/a-0.csv", 0, 1000);
        JobsTesting.writeCsv(bucket, "events/a-1.csv", 1000, 1000);
        Path table = tmp.resolve("table");
        try (S3ProxyServer s3 = new S3ProxyServer(tmp.resolve("s3"))) {
            JobClient job = startContinuous(s3, table, new Configuration());
            try {
                awaitRows(table, 2000);
                // objects that arrive while the job runs, in and out of key order
                JobsTesting.writeCsv(bucket, "events/c-0.csv", 2000, 1000);
                JobsTesting.writeCsv(bucket, "events/b-0.csv", 3000, 1000);
                JobsTesting.writeCsv(bucket, "events/d-0.csv", 4000, 1000);
                awaitRows(table, 5000);
                // several more discoveries and checkpoints: nothing is read or committed twice
                Thread.sleep(2000);
                assertThat(JobsTesting.committedRows(table)).isEqualTo(5000);
            } finally {
                job.cancel().get();
                awaitTermination(job);
            }
        }
        try (ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
            JobsTesting.attachAll(ch, table);
            assertThat(ch.query("SELECT count(), uniqExact(id), min(id), max(id) FROM events"))
                    .isEqualTo(ch.query("SELECT 5000, 5000, 0, 4999"));
        }
    }

    @Test
    @Timeout(300)
    void continuousJobResumesFromASavepointWithoutLossOrDuplicates() throws Exception {
        Path bucket = tmp.resolve("s3/data");
        JobsTesting.writeCsv(bucket, "events/a-0.csv", 0, 1000);
        JobsTesting.writeCsv(bucket, "events/a-1.csv", 1000, 1000);
        Path table = tmp.resolve("table");
        try (S3ProxyServer s3 = new S3ProxyServer(tmp.resolve("s3"))) {
            JobClient first = startContinuous(s3, table, new Configuration());
            String savepoint;
            try {
                awaitRows(table, 2000);
                // one more object is read, perhaps committed, when the job stops
                JobsTesting.writeCsv(bucket, "events/b-0.csv", 2000, 1000);
                Thread.sleep(300);
                savepoint =
                        first.stopWithSavepoint(
                                        false,
                                        tmp.resolve("savepoints").toUri().toString(),
                                        SavepointFormatType.CANONICAL)
                                .get();
            } finally {
                awaitTermination(first);
            }
            // objects that arrive while no job runs, then a new job from the savepoint
            JobsTesting.writeCsv(bucket, "events/c-0.csv", 3000, 1000);
            JobsTesting.writeCsv(bucket, "events/0-early.csv", 4000, 1000);
            Configuration restore = new Configuration();
            restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
            JobClient second = startContinuous(s3, table, restore);
            try {
                awaitRows(table, 5000);
                Thread.sleep(2000);
                assertThat(JobsTesting.committedRows(table)).isEqualTo(5000);
            } finally {
                second.cancel().get();
                awaitTermination(second);
            }
        }
        try (ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
            JobsTesting.attachAll(ch, table);
            assertThat(ch.query("SELECT count(), uniqExact(id), min(id), max(id) FROM events"))
                    .isEqualTo(ch.query("SELECT 5000, 5000, 0, 4999"));
        }
    }

    /** Starts the continuous job (parallelism 2, checkpoints every 300 ms) without waiting. */
    private static JobClient startContinuous(S3ProxyServer s3, Path table, Configuration conf)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
        ContinuousS3ToMergeTreeJob.build(
                env,
                params(
                        s3,
                        table,
                        "--discovery-interval",
                        "200ms",
                        "--checkpoint-interval",
                        "300ms"));
        return env.executeAsync("continuous example");
    }

    /**
     * Each job's main parses the table's DDL once (JobParameters.table) for the source's columns
     * and the sink, which takes it parsed.
     */
    @Test
    void buildingAJobParsesItsDdlOnce() throws Exception {
        Path bucket = tmp.resolve("s3/data");
        JobsTesting.writeCsv(bucket, "events/part-0.csv", 0, 10);
        List<String> parses = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (S3ProxyServer s3 = new S3ProxyServer(tmp.resolve("s3"));
                AutoCloseable observed =
                        io.github.s3mergetree.engine.ddl.DdlParser.observeParses(
                                t -> {
                                    if (t.equals(JobsTesting.DDL)) {
                                        parses.add(t);
                                    }
                                })) {
            BatchS3ToMergeTreeJob.build(
                    StreamExecutionEnvironment.createLocalEnvironment(1),
                    params(s3, tmp.resolve("batch")));
            assertThat(parses).as("the batch job").hasSize(1);
            ContinuousS3ToMergeTreeJob.build(
                    StreamExecutionEnvironment.createLocalEnvironment(1),
                    params(s3, tmp.resolve("continuous")));
            assertThat(parses).as("the batch and the continuous job").hasSize(2);
        }
    }

    /** The jobs' parameters: CSV objects under s3://data/events/ into {@code table}. */
    private static JobArgs params(S3ProxyServer s3, Path table, String... more) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "--location",
                                "s3://data/events/*.csv",
                                "--endpoint",
                                s3.endpoint().toString(),
                                "--access-key",
                                JobsTesting.ACCESS_KEY,
                                "--secret-key",
                                JobsTesting.SECRET_KEY,
                                "--format",
                                "CSVWithNames",
                                "--table-path",
                                table.toString(),
                                "--ddl",
                                JobsTesting.DDL));
        args.addAll(List.of(more));
        return JobArgs.fromArgs(args.toArray(new String[0]));
    }

    /** Waits until the job has ended, so that it never outlives its S3 server. */
    private static void awaitTermination(JobClient job) throws Exception {
        // the result completes (normally or, when cancelled, exceptionally) once the job ended
        job.getJobExecutionResult().handle((result, failure) -> null).get(60, TimeUnit.SECONDS);
    }

    private static void awaitRows(Path table, long rows) throws Exception {
        long deadline = System.currentTimeMillis() + 120_000;
        long seen = JobsTesting.committedRows(table);
        while (seen < rows) {
            assertThat(System.currentTimeMillis())
                    .as("%d rows committed after 120 s, waiting for %d", seen, rows)
                    .isLessThan(deadline);
            Thread.sleep(100);
            seen = JobsTesting.committedRows(table);
        }
        assertThat(seen).isEqualTo(rows);
    }
}
