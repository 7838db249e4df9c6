package io.github.s3mergetree.engine.table;

import java.util.function.Consumer;

/**
 * Named points in the table's commit, merge-publication and cleanup paths where tests inject
 * failures (a crash at that instant) to prove the table directory always reloads consistently. A
 * no-op unless a test installs a hook.
 */
public final class FaultPoints {
    private static volatile Consumer<String> hook = point -> {};

    private FaultPoints() {}

    /** Installs {@code h}, called with the name of every point reached; null removes it. */
    public static void install(Consumer<String> h) {
        hook = h == null ? point -> {} : h;
    }

    static void reach(String point) {
        hook.accept(point);
    }
}
