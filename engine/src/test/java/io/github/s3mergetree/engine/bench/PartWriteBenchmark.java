package io.github.s3mergetree.engine.bench;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.part.Parts;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The engine's write path on one core: an insert block (already in memory as columns) is split by
 * partition, sorted by the ORDER BY key, serialized, compressed, checksummed and written as parts —
 * what ClickHouse does for {@code INSERT INTO t SELECT * FROM <in-memory source>} with one insert
 * thread. Data sets are prepared by {@code tools/bench/prepare-write-bench.js} into the directory
 * of the system property {@code bench.dir}; run through {@link WriteBenchmarkMain}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PartWriteBenchmark {
    @Param({"numeric", "posts"})
    public String dataset;

    private Block block;
    private MergeTreeTable table;
    private Path tableDir;
    private List<TemporaryPart> written;

    @Setup(Level.Trial)
    public void load() throws IOException {
        Path dir = Path.of(System.getProperty("bench.dir", "target/bench-data"));
        TableLayout layout = TableLayouts.fromDdl(Files.readString(dir.resolve(dataset + ".sql")));
        byte[] data = Files.readAllBytes(dir.resolve(dataset + ".rowbinary"));
        block = RowBinary.read(data, layout.columnNames(), layout.columnTypes(), dataset);
        tableDir = Files.createTempDirectory("bench-" + dataset);
        table = MergeTreeTable.open(LocalParts.store(tableDir), layout, Clock.systemUTC());
    }

    @Benchmark
    public List<TemporaryPart> writeParts() throws IOException {
        written = table.writeTemporaryParts(block);
        return written;
    }

    @TearDown(Level.Invocation)
    public void removeParts() throws IOException {
        if (written != null) {
            for (TemporaryPart p : written) {
                p.abort();
            }
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        Parts.deleteRecursively(tableDir);
    }

    /** Uncompressed bytes of the data streams one invocation writes (ClickHouse's measure). */
    public static long dataUncompressedBytes(String dataset, Path dir) throws IOException {
        PartWriteBenchmark b = new PartWriteBenchmark();
        b.dataset = dataset;
        System.setProperty("bench.dir", dir.toString());
        b.load();
        long total = 0;
        for (TemporaryPart p : b.writeParts()) {
            total += p.files().dataUncompressedBytes();
        }
        b.removeParts();
        b.close();
        return total;
    }

    public int rows() {
        return block.rows();
    }
}
