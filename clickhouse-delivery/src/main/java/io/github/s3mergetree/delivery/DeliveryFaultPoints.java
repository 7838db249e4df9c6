package io.github.s3mergetree.delivery;

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

    /** Reaches {@code point}. */
    public static void reach(String point) {
        hook.accept(point);
    }
}
