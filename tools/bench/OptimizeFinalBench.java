// One OPTIMIZE TABLE ... FINAL of a copy of a table our engine wrote, timed: how much CPU the merges
// take on real parts (e.g. the table of an `ingest --setting merges_at_end_of_input=leave` run).
// Run with the engine's classes and its test classpath (LocalParts is a test helper):
//   java -cp ENGINE_TEST_CLASSES:ENGINE_CLASSES:DEPS tools/bench/OptimizeFinalBench.java TABLE_DIR DDL_FILE SCRATCH_DIR
// Copies TABLE_DIR to SCRATCH_DIR (which must not exist), merges every partition into one part
// there, prints wall seconds and the merging thread's and the whole process's CPU-seconds, and
// deletes the copy. Run it alternately with two builds' classes to compare them (BENCHMARKS.md).
import io.github.s3mergetree.engine.part.Parts;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

public class OptimizeFinalBench {
    public static void main(String[] a) throws Exception {
        Path src = Path.of(a[0]);
        TableLayout layout = TableLayouts.fromDdl(Files.readString(Path.of(a[1])));
        Path copy = Path.of(a[2]);
        Parts.copyRecursively(src, copy);
        MergeTreeTable t = MergeTreeTable.open(LocalParts.store(copy), layout, Clock.systemUTC());
        var threads = ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long c0 = threads.getCurrentThreadCpuTime(), p0 = os.getProcessCpuTime(), w0 = System.nanoTime();
        t.optimizeFinal(false);
        System.out.printf("wall %.2f s, merging thread %.2f CPU-s, process %.2f CPU-s%n",
                (System.nanoTime() - w0) / 1e9,
                (threads.getCurrentThreadCpuTime() - c0) / 1e9,
                (os.getProcessCpuTime() - p0) / 1e9);
        Parts.deleteRecursively(copy);
    }
}
