package io.github.s3mergetree.sink.mergetree.options;

import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.DeliveryGuarantee;

/**
 * Whether commits carry dedup tokens, from the two options that say it: Flink's {@code
 * sink.delivery-guarantee} ({@link MergeTreeSinkOptions#DELIVERY_GUARANTEE}, as the Kafka sink
 * names it) and ClickHouse's {@code insert_deduplicate} ({@link
 * MergeTreeSinkOptions#INSERT_DEDUPLICATE}). Why one place: the two must not contradict each other,
 * and the writers read only {@code insert_deduplicate}.
 */
@Internal
public final class InsertDeduplication {
    private InsertDeduplication() {}

    /**
     * {@code insert_deduplicate} as the options give it: {@code exactly-once} is true, {@code
     * at-least-once} false, neither the explicit {@code insert_deduplicate} or its default (true).
     *
     * @throws IllegalArgumentException for {@code none} (the sink always commits at checkpoints) or
     *     a guarantee that contradicts an explicit {@code insert_deduplicate}, naming both options
     */
    public static boolean resolve(ReadableConfig options) {
        Optional<DeliveryGuarantee> guarantee;
        try {
            guarantee = options.getOptional(MergeTreeSinkOptions.DELIVERY_GUARANTEE);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "option '"
                            + MergeTreeSinkOptions.DELIVERY_GUARANTEE.key()
                            + "' must be exactly-once or at-least-once: "
                            + e.getMessage(),
                    e);
        }
        Optional<Boolean> explicit = options.getOptional(MergeTreeSinkOptions.INSERT_DEDUPLICATE);
        if (guarantee.isEmpty()) {
            return explicit.orElse(MergeTreeSinkOptions.INSERT_DEDUPLICATE.defaultValue());
        }
        boolean dedup;
        switch (guarantee.get()) {
            case EXACTLY_ONCE:
                dedup = true;
                break;
            case AT_LEAST_ONCE:
                dedup = false;
                break;
            default:
                throw new IllegalArgumentException(
                        "option '"
                                + MergeTreeSinkOptions.DELIVERY_GUARANTEE.key()
                                + "' = '"
                                + guarantee.get()
                                + "' is not supported: the sink commits its parts at every"
                                + " checkpoint; use exactly-once (the default) or at-least-once");
        }
        if (explicit.isPresent() && explicit.get() != dedup) {
            throw new IllegalArgumentException(
                    "option '"
                            + MergeTreeSinkOptions.DELIVERY_GUARANTEE.key()
                            + "' = '"
                            + guarantee.get()
                            + "' contradicts '"
                            + MergeTreeSinkOptions.INSERT_DEDUPLICATE.key()
                            + "' = "
                            + (explicit.get() ? "1" : "0")
                            + " (exactly-once is insert_deduplicate = 1, at-least-once is 0);"
                            + " give one of them");
        }
        return dedup;
    }
}
