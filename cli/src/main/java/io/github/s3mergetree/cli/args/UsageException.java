package io.github.s3mergetree.cli.args;

/** A command line the command cannot run: printed with the subcommand's usage, exit code 2. */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
