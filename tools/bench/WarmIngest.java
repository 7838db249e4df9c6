// Runs `s3-mergetree ingest` K times in one JVM, for tools/bench/ingest-bench.sh's WARM=K mode: what a job costs
// on a JVM that has already run one, as on a Flink cluster's long-lived TaskManagers (classes loaded, hot code
// compiled, heap sized), apart from what the first run in a fresh process costs. Each run starts its own
// MiniCluster, as the command does. Run with the command's classpath:
//   java [JVM options] -cp CP tools/bench/WarmIngest.java K -- ingest ARGS...
// "{run}" in ARGS is replaced by the run's number (1..K), e.g. --table-path /tmp/t-{run}. The tables are kept (the
// caller deletes them after the process): deleting thousands of part files right before the next run made ext4's
// inode allocator skip the recently deleted inodes one by one in that run (find_inode_bit / recently_deleted: 1 CPU-s
// per run of the wide table's 3,300 files, seen with async-profiler), a cost of the benchmark, not of the ingest.
// Prints one line per run to stdout: WARM {"run":i,"cpu_s":…,"wall_s":…,"jit_s":…,"gc_s":…,"rss_mb":…,
// "summary":<the command's JSON summary line>}. cpu_s = the whole process's CPU (user + system, every thread,
// including threads that ended during the run) from the run's start to its end; jit_s / gc_s = the compiler and
// GC threads' share of it (from /proc/self/task); rss_mb = the process's resident set at the run's end.
// Between runs: a pause of PAUSE_MS (default 6000), so the previous MiniCluster's shutdown is not in the next run.
// PROFILE_LIB=<libasyncProfiler.so> PROFILE_FILE=<out>: async-profiler (its Java API, one.profiler.AsyncProfiler, on
// the class path) samples every thread's CPU from run 2's start to the last run's end, the warm runs only, into
// PROFILE_FILE as collapsed stacks (tools/bench/profile-summary.py reads them).
import io.github.s3mergetree.cli.S3MergeTreeCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

public class WarmIngest {
    public static void main(String[] a) throws Exception {
        if (a.length < 3 || !a[1].equals("--")) {
            System.err.println("usage: WarmIngest K -- ingest ARGS... ({run} in ARGS: the run's number)");
            System.exit(2);
        }
        int runs = Integer.parseInt(a[0]);
        long pauseMs = Long.parseLong(System.getenv().getOrDefault("PAUSE_MS", "6000"));
        if (System.getProperty(S3MergeTreeCommand.LOG_FILE_PROPERTY) == null) {
            Path log = Files.createTempFile("warm-ingest-", ".log");
            System.setProperty(S3MergeTreeCommand.LOG_FILE_PROPERTY, log.toString());
        }
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int run = 1; run <= runs; run++) {
            List<String> args = new ArrayList<>();
            for (int i = 2; i < a.length; i++) {
                args.add(a[i].replace("{run}", Integer.toString(run)));
            }
            Thread.sleep(pauseMs);
            ByteArrayOutputStream captured = new ByteArrayOutputStream();
            PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8);
            if (run == 2 && System.getenv("PROFILE_LIB") != null) {
                profiler("start,event=cpu,interval=1ms,threads");
            }
            long[] threads0 = roleTicks();
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            int code = new S3MergeTreeCommand(out, System.err).run(args.toArray(String[]::new));
            long t1 = System.nanoTime();
            long cpu1 = os.getProcessCpuTime();
            long[] threads1 = roleTicks();
            if (code != 0) {
                System.err.println("WarmIngest: run " + run + " exited with " + code);
                System.exit(1);
            }
            String summary = null;
            for (String line : captured.toString(StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("{")) {
                    summary = line.trim();
                }
            }
            if (summary == null) {
                System.err.println("WarmIngest: run " + run + " printed no JSON summary");
                System.exit(1);
            }
            System.out.printf(
                    Locale.ROOT,
                    "WARM {\"run\":%d,\"cpu_s\":%.3f,\"wall_s\":%.3f,\"jit_s\":%.2f,\"gc_s\":%.2f,"
                            + "\"rss_mb\":%d,\"summary\":%s}%n",
                    run,
                    (cpu1 - cpu0) / 1e9,
                    (t1 - t0) / 1e9,
                    (threads1[0] - threads0[0]) / 100.0,
                    (threads1[1] - threads0[1]) / 100.0,
                    rssMb(),
                    summary);
            System.out.flush();
        }
        if (runs >= 2 && System.getenv("PROFILE_LIB") != null) {
            profiler("stop,threads,collapsed,file=" + System.getenv("PROFILE_FILE"));
        }
        System.exit(0);
    }

    /** Runs an async-profiler command through its Java API, found by reflection (no compile-time dependency). */
    private static void profiler(String command) throws Exception {
        Class<?> c = Class.forName("one.profiler.AsyncProfiler");
        Object p = c.getMethod("getInstance", String.class).invoke(null, System.getenv("PROFILE_LIB"));
        System.err.println("WarmIngest: async-profiler " + c.getMethod("execute", String.class).invoke(p, command));
    }

    /** Clock ticks (1/100 s) of user + system CPU of the {JIT compiler, GC} threads, from /proc/self/task. */
    private static long[] roleTicks() throws IOException {
        long[] ticks = new long[2];
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException ended) {
                    continue;
                }
                // pid (comm) state ppid … : comm may hold spaces, so split after its closing parenthesis
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                long used = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime
                if (name.contains("Compiler")) {
                    ticks[0] += used;
                } else if (name.contains("GC") || name.startsWith("G1")) {
                    ticks[1] += used;
                }
            }
        }
        return ticks;
    }

    private static long rssMb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
            }
        }
        return -1;
    }
}
