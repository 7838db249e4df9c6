package io.github.s3mergetree.cli;

import io.github.s3mergetree.cli.args.UsageException;
import io.github.s3mergetree.cli.command.FailureMessages;
import io.github.s3mergetree.cli.command.Subcommand;
import io.github.s3mergetree.cli.deliver.DeliverCommand;
import io.github.s3mergetree.cli.demo.DemoCommand;
import io.github.s3mergetree.cli.ingest.IngestCommand;
import io.github.s3mergetree.cli.parts.CheckCommand;
import io.github.s3mergetree.cli.parts.PartsCommand;
import io.github.s3mergetree.cli.runtime.RunDirectories;
import io.github.s3mergetree.cli.s3server.S3ServerCommand;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code s3-mergetree} command: dispatches to its {@link Subcommand}s and turns failures into
 * one line on stderr and a non-zero exit code (2 for a bad command line, 1 for a failure; the stack
 * trace only with {@code --verbose}).
 */
public final class S3MergeTreeCommand {
    /** The system property naming the log file (set by {@link #main} unless given). */
    public static final String LOG_FILE_PROPERTY = "s3mergetree.log.file";

    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, Subcommand> subcommands = new LinkedHashMap<>();

    public S3MergeTreeCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
        register(new DemoCommand());
        register(new IngestCommand());
        register(new S3ServerCommand());
        register(new PartsCommand());
        register(new CheckCommand());
        register(new DeliverCommand());
    }

    private void register(Subcommand c) {
        subcommands.put(c.name(), c);
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("ingest")) {
            // from the start: a signal before the run's own handlers is not fatal either
            IngestCommand.handleSignalsForProcess(System.err);
        }
        // before any logger exists: Flink's and the connectors' warnings go to the log file, and
        // to stderr only with --verbose
        if (List.of(args).contains("--verbose")) {
            System.setProperty("s3mergetree.console.level", "WARN");
        }
        // a log file per run in the user's own directory (RunDirectories), not a shared one
        if (System.getProperty(LOG_FILE_PROPERTY) == null) {
            try {
                System.setProperty(LOG_FILE_PROPERTY, RunDirectories.newLogFile().toString());
            } catch (java.io.IOException | RuntimeException e) {
                System.err.println("s3-mergetree: no log file (" + e.getMessage() + ")");
            }
        }
        int code = new S3MergeTreeCommand(System.out, System.err).run(args);
        System.out.flush();
        System.exit(code);
    }

    private String usage() {
        StringBuilder b = new StringBuilder("usage:");
        for (Subcommand c : subcommands.values()) {
            b.append("\n  s3-mergetree ").append(c.usage());
        }
        return b.toString();
    }

    /** Runs the command; returns the exit code. */
    public int run(String[] args) {
        List<String> argv = List.of(args);
        boolean verbose = argv.contains("--verbose");
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            err.println(usage());
            return args.length == 0 ? 2 : 0;
        }
        Subcommand c = subcommands.get(args[0]);
        if (c == null) {
            err.println("s3-mergetree: unknown command '" + args[0] + "'");
            err.println(usage());
            return 2;
        }
        List<String> rest = argv.subList(1, argv.size());
        if (rest.contains("--help") || rest.contains("-h")) {
            err.println("usage: s3-mergetree " + c.usage());
            return 0;
        }
        try {
            return c.run(rest, out, err);
        } catch (UsageException e) {
            err.println("s3-mergetree " + c.name() + ": " + e.getMessage());
            err.println("usage: s3-mergetree " + c.usage());
            return 2;
        } catch (Throwable e) {
            err.println("s3-mergetree " + c.name() + ": error: " + FailureMessages.rootMessage(e));
            if (verbose) {
                e.printStackTrace(err);
            } else {
                String log = System.getProperty(LOG_FILE_PROPERTY);
                err.println(
                        "(run with --verbose for the stack trace"
                                + (log == null ? "" : "; log: " + log)
                                + ")");
            }
            return 1;
        } finally {
            out.flush();
            err.flush();
        }
    }
}
