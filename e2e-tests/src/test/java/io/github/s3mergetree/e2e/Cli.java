package io.github.s3mergetree.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The product's command line, {@code io.github.s3mergetree.cli.S3MergeTreeCommand}, run as an
 * operator runs it: a separate JVM ({@code java -cp <classpath>}), its stdout and stderr kept in
 * files.
 */
final class Cli {
    static final String MAIN = "io.github.s3mergetree.cli.S3MergeTreeCommand";

    private Cli() {}

    /** Starts {@code s3-mergetree <args>} in its own JVM. */
    static ManagedProcess start(String name, Path logDir, List<String> args) {
        return start(name, logDir, List.of(), args);
    }

    /**
     * Starts {@code s3-mergetree <args>} in its own JVM with the further JVM options {@code jvm}.
     */
    static ManagedProcess start(String name, Path logDir, List<String> jvm, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ManagedProcess.javaExecutable());
        cmd.add("-Xmx512m");
        cmd.addAll(jvm);
        cmd.add("--add-opens=java.base/java.nio=ALL-UNNAMED"); // as ./s3-mergetree does (Arrow)
        cmd.add("-cp");
        cmd.add(E2E.productClasspath());
        cmd.add(MAIN);
        cmd.addAll(args);
        return ManagedProcess.start(name, cmd, logDir, logDir, Map.of());
    }

    /** The last non-empty line of {@code stdout}: the command's JSON summary. */
    static String lastLine(String stdout) {
        String[] lines = stdout.strip().split("\n");
        return lines[lines.length - 1].strip();
    }
}
