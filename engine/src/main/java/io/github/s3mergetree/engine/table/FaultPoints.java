package io.github.s3mergetree.engine.table;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Named points in the table's commit, merge-publication and cleanup paths where tests inject
 * failures (a crash at that instant) to prove the table directory always reloads consistently. A
 * no-op unless a test installs a hook, or a whole-process crash test names a point in the system
 * property {@value #HALT_AT_PROPERTY} ({@link #haltAtFromSystemProperty}).
 */
public final class FaultPoints {
    /** Every point the engine reaches, in the order an insert, a merge and a cleanup reach them. */
    public static final List<String> POINTS =
            List.of(
                    "commit.before-record",
                    "commit.after-record",
                    "commit.before-part-log",
                    "publish.before-copy",
                    "publish.before-checksums",
                    "publish.before-cleanup",
                    "commit.after-rename",
                    "merge.before-lock",
                    "merge.before-publish",
                    "merge.after-publish",
                    "remove.before-part",
                    "remove.after-checksums",
                    "remove.before-record");

    /** The system property naming the point at which {@link #haltAtFromSystemProperty} halts. */
    public static final String HALT_AT_PROPERTY = "s3mergetree.table.halt-at";

    private static volatile Consumer<String> hook = point -> {};

    private FaultPoints() {}

    /** Installs {@code h}, called with the name of every point reached; null removes it. */
    public static void install(Consumer<String> h) {
        hook = h == null ? point -> {} : h;
    }

    /**
     * For whole-process crash tests (the CLI calls it first): if the system property {@value
     * #HALT_AT_PROPERTY} names a point of {@link #POINTS}, installs a hook that stops the JVM dead
     * the first time any thread reaches it, as {@code kill -9} would (exit status 137, no finally
     * blocks, no shutdown hooks). Does nothing without the property.
     *
     * @return the point the JVM will halt at, if any
     * @throws IllegalArgumentException if the property names no point of {@link #POINTS}
     */
    public static Optional<String> haltAtFromSystemProperty() {
        Optional<String> at = haltPointFromSystemProperty(HALT_AT_PROPERTY, POINTS);
        at.ifPresent(point -> install(haltAt(point, HALT_AT_PROPERTY)));
        return at;
    }

    /**
     * The point named by system property {@code property}, if set (shared with the delivery's fault
     * points).
     *
     * @throws IllegalArgumentException if it names none of {@code points}
     */
    public static Optional<String> haltPointFromSystemProperty(
            String property, List<String> points) {
        String at = System.getProperty(property);
        if (at == null || at.isBlank()) {
            return Optional.empty();
        }
        if (!points.contains(at)) {
            throw new IllegalArgumentException(
                    property + " must be one of " + String.join(", ", points) + "; got: " + at);
        }
        return Optional.of(at);
    }

    /**
     * A hook that halts the JVM (status 137, as {@code kill -9}: no finally blocks, no shutdown
     * hooks) the first time {@code point} is reached, saying so on stderr.
     */
    public static Consumer<String> haltAt(String point, String property) {
        return p -> {
            if (p.equals(point)) {
                System.err.println("halting at " + p + " (" + property + ")");
                System.err.flush();
                Runtime.getRuntime().halt(137);
            }
        };
    }

    static void reach(String point) {
        hook.accept(point);
    }
}
