package io.github.s3mergetree.engine.table;

/**
 * An insert refused because a partition has {@code parts_to_throw_insert} active parts or more,
 * with ClickHouse's TOO_MANY_PARTS message, so callers can throttle and retry.
 */
public final class TooManyPartsException extends RuntimeException {
    private final String partitionId;
    private final int parts;

    public TooManyPartsException(String partitionId, int parts, int limit) {
        super(
                "Too many parts ("
                        + parts
                        + ") in partition "
                        + partitionId
                        + ". Merges are processing significantly slower than inserts"
                        + " (parts_to_throw_insert = "
                        + limit
                        + "). (TOO_MANY_PARTS)");
        this.partitionId = partitionId;
        this.parts = parts;
    }

    public String partitionId() {
        return partitionId;
    }

    public int parts() {
        return parts;
    }
}
