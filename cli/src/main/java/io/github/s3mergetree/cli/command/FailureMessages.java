package io.github.s3mergetree.cli.command;

/**
 * The one-line messages the command prints for a failure: what went wrong, taken from an
 * exception's chain of causes (the stack trace only with {@code --verbose}). Shared by the
 * dispatcher and the subcommands that report a failed job or request themselves.
 */
public final class FailureMessages {
    private FailureMessages() {}

    /**
     * The exception's message on one line, followed by its innermost cause's message when that adds
     * something (the class name stands in for a missing message).
     */
    public static String rootMessage(Throwable e) {
        String top = e.getMessage();
        String root = innermostMessage(e);
        String m =
                top == null || top.contains(root) ? (top == null ? root : top) : top + ": " + root;
        return m.replace('\n', ' ');
    }

    /**
     * The message of {@code e}'s innermost cause: what actually went wrong (the class name when it
     * has no message; an {@link Error}'s class name before its message).
     */
    public static String innermostMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null
                ? t.getClass().getSimpleName()
                : t instanceof Error
                        ? t.getClass().getSimpleName() + ": " + t.getMessage()
                        : t.getMessage();
    }
}
