package io.github.s3mergetree.cli.command;

import io.github.s3mergetree.cli.args.UsageException;
import java.io.PrintStream;
import java.util.List;

/**
 * One {@code s3-mergetree} subcommand.
 *
 * <p>Contract: {@link #run} prints progress and diagnostics to {@code err}, results to {@code out}
 * (machine-readable results as the last line), and returns the exit code. It throws {@link
 * UsageException} for a bad command line and any other exception for a failure; the dispatcher
 * turns both into one line on stderr (a stack trace only with {@code --verbose}).
 */
public interface Subcommand {
    /** The name on the command line, e.g. {@code ingest}. */
    String name();

    /** One usage line (without the leading {@code s3-mergetree}). */
    String usage();

    /** Runs with the arguments after the subcommand name. */
    int run(List<String> args, PrintStream out, PrintStream err) throws Exception;
}
