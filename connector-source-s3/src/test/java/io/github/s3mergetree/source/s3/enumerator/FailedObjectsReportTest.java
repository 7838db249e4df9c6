package io.github.s3mergetree.source.s3.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FailedObjectsReport}: what a reader of the report sees while the enumerator rewrites it.
 */
class FailedObjectsReportTest {
    @TempDir Path dir;

    private static final S3ObjectSplit PARKED =
            new S3ObjectSplit("posts/part-00004.parquet", "e1", 100, 0, 100, -1, 0, 0, "bad");

    /**
     * The enumerator rewrites the report when it closes, which can be after the command that
     * started the job has seen it finish and reads the report. Flink's local {@code rename} ({@code
     * Files.move} with {@code REPLACE_EXISTING}) deletes the old file before it moves the new one
     * in, so a reader in between found no report: the command ended with an error instead of
     * reporting the parked object (seen once in CI). Every read must see the whole report.
     */
    @Test
    void aReaderNeverMissesTheReportWhileItIsRewritten() throws Exception {
        String path = dir.resolve("failed-objects.run.json").toString();
        FailedObjectsReport.write(path, List.of(PARKED), Function.identity());
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Integer> writer =
                    pool.submit(
                            () -> {
                                int n = 0;
                                try {
                                    for (; n < 3_000; n++) {
                                        FailedObjectsReport.write(
                                                path, List.of(PARKED), Function.identity());
                                    }
                                } finally {
                                    writing.set(false);
                                }
                                return n;
                            });
            Future<List<String>> reader =
                    pool.submit(
                            () -> {
                                List<String> misses = new ArrayList<>();
                                int reads = 0;
                                while (writing.get() || reads == 0) {
                                    reads++;
                                    try {
                                        List<S3ObjectSplit> seen = FailedObjectsReport.read(path);
                                        if (!seen.equals(List.of(PARKED))) {
                                            misses.add("read " + reads + ": " + seen);
                                        }
                                    } catch (Exception e) {
                                        misses.add("read " + reads + ": " + e);
                                    }
                                }
                                return misses;
                            });
            assertThat(writer.get()).isEqualTo(3_000);
            assertThat(reader.get()).isEmpty();
        } finally {
            pool.shutdownNow();
        }
        // no temporary file is left beside the report
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactly("failed-objects.run.json");
        }
    }
}
