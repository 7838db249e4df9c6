package io.github.s3mergetree.delivery;

import io.github.s3mergetree.engine.table.FaultPoints;
import java.util.function.Consumer;

/**
 * Named points of the delivery protocol where tests inject a crash (an exception, or halting the
 * JVM as {@code kill -9} would), to prove that a new deliverer recovers every interrupted delivery
 * exactly once. A no-op unless a test installs a hook.
 *
 * <ul>
 *   <li>{@value #AFTER_INTENT}: the ledger recorded the delivery, nothing else happened;
 *   <li>{@value #AFTER_MANIFEST}: the per-delivery files and the manifest are written (RESTORE) or
 *       the parts are in {@code detached/} (ATTACH);
 *   <li>{@value #AFTER_SEND}: the RESTORE (or the first ATTACH PART) was sent;
 *   <li>{@value #AFTER_APPLIED}: the server reported the delivery done;
 *   <li>{@value #AFTER_OUTCOME}: the ledger recorded the outcome (the manifest is not removed yet).
 * </ul>
 */
public final class DeliveryFaultPoints {
    public static final String AFTER_INTENT = "deliver.after-intent";
    public static final String AFTER_MANIFEST = "deliver.after-manifest";
    public static final String AFTER_SEND = "deliver.after-send";
    public static final String AFTER_APPLIED = "deliver.after-applied";
    public static final String AFTER_OUTCOME = "deliver.after-outcome";

    private static volatile Consumer<String> hook = p -> {};

    private DeliveryFaultPoints() {}

    /** Installs {@code h}, called with every point reached; null removes it. */
    public static void install(Consumer<String> h) {
        hook = h == null ? p -> {} : h;
    }

    /** The system property naming the point at which {@link #haltAtFromSystemProperty} halts. */
    public static final String HALT_AT_PROPERTY = "s3mergetree.deliver.halt-at";

    /**
     * For crash tests of whole processes (the CLI's {@code ingest} and {@code deliver}, the job
     * jar's main): if the system property {@value #HALT_AT_PROPERTY} names a point, installs a hook
     * that stops the JVM dead the first time that point is reached, as {@code kill -9} would (exit
     * status 137, no finally blocks, no shutdown hooks). Does nothing without the property.
     *
     * @return the point the JVM will halt at, if any
     * @throws IllegalArgumentException if the property names no point of the protocol
     */
    public static java.util.Optional<String> haltAtFromSystemProperty() {
        java.util.Optional<String> at =
                FaultPoints.haltPointFromSystemProperty(
                        HALT_AT_PROPERTY,
                        java.util.List.of(
                                AFTER_INTENT,
                                AFTER_MANIFEST,
                                AFTER_SEND,
                                AFTER_APPLIED,
                                AFTER_OUTCOME));
        at.ifPresent(point -> install(FaultPoints.haltAt(point, HALT_AT_PROPERTY)));
        return at;
    }

    /** Reaches {@code point}. */
    public static void reach(String point) {
        hook.accept(point);
    }
}
