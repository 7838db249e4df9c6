package io.github.s3mergetree.engine.store;

/**
 * The names of the files every MergeTree part directory has (ClickHouse's {@code
 * IMergeTreeDataPart} constants): the one place they are spelled, so that a part's keys are built
 * by {@link PartStorage#fileKey(String, String)} from these names rather than by hand.
 */
public final class PartFiles {
    /**
     * The list of the part's files with their sizes and hashes. Written last and removed first: a
     * directory without it is not a part to ClickHouse.
     */
    public static final String CHECKSUMS = "checksums.txt";

    /** The part's columns and types. */
    public static final String COLUMNS = "columns.txt";

    /** The part's row count, in ASCII decimal. */
    public static final String COUNT = "count.txt";

    /** The partition key's value (partitioned tables). */
    public static final String PARTITION = "partition.dat";

    /** The part's TTL times (tables with a TTL). */
    public static final String TTL = "ttl.txt";

    /** The part's UUID (parts of a table with a UUID, e.g. restored from a backup). */
    public static final String UUID = "uuid.txt";

    private PartFiles() {}
}
