package io.github.s3mergetree.cli.ingest;

/**
 * A stop (SIGTERM/SIGINT) was requested while the command waited, before it started anything: the
 * command ends with exit code 0 and writes nothing.
 */
final class StoppedWhileWaiting extends RuntimeException {
    private static final long serialVersionUID = 1L;
}
