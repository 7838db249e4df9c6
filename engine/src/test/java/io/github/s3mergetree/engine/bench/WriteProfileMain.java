package io.github.s3mergetree.engine.bench;

import io.github.s3mergetree.engine.part.TemporaryPart;
import java.util.List;

/**
 * Runs the write path of {@link PartWriteBenchmark} in a loop for a profiler (JFR or
 * async-profiler): {@code java -XX:StartFlightRecording=... WriteProfileMain DATA_DIR DATASET N}.
 * Prints each iteration's time.
 */
public final class WriteProfileMain {
    public static void main(String[] args) throws Exception {
        System.setProperty("bench.dir", args[0]);
        PartWriteBenchmark b = new PartWriteBenchmark();
        b.dataset = args[1];
        b.load();
        int n = Integer.parseInt(args[2]);
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            List<TemporaryPart> parts = b.writeParts();
            long bytes = parts.stream().mapToLong(p -> p.files().dataUncompressedBytes()).sum();
            long t1 = System.nanoTime();
            b.removeParts();
            System.out.printf(
                    "%d: %.0f ms, %.1f MB/s%n",
                    i, (t1 - t0) / 1e6, bytes / 1e3 / ((t1 - t0) / 1e6));
        }
        b.close();
    }
}
