package io.github.s3mergetree.engine.part;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A part's identity: {@code <partition_id>_<min_block>_<max_block>_<level>[_<mutation>]}, as
 * ClickHouse's {@code MergeTreePartInfo} (format_version 1) names parts.
 */
public record PartName(String partitionId, long minBlock, long maxBlock, int level, long mutation)
        implements Comparable<PartName> {
    private static final Pattern NAME =
            Pattern.compile("([A-Za-z0-9-]+)_(-?\\d+)_(-?\\d+)_(\\d+)(?:_(\\d+))?");

    public PartName {
        if (!partitionId.matches("[A-Za-z0-9-]+")) {
            throw new IllegalArgumentException("invalid partition id '" + partitionId + "'");
        }
        if (minBlock > maxBlock) {
            throw new IllegalArgumentException(
                    "min block " + minBlock + " > max block " + maxBlock);
        }
        if (level < 0 || mutation < 0) {
            throw new IllegalArgumentException(
                    "negative level " + level + " or mutation " + mutation);
        }
    }

    /** A freshly inserted part holding block number {@code block}. */
    public static PartName inserted(String partitionId, long block) {
        return new PartName(partitionId, block, block, 0, 0);
    }

    /** Parses a part directory name; empty if it is not one. */
    public static java.util.Optional<PartName> tryParse(String name) {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            return java.util.Optional.empty();
        }
        try {
            return java.util.Optional.of(
                    new PartName(
                            m.group(1),
                            Long.parseLong(m.group(2)),
                            Long.parseLong(m.group(3)),
                            Integer.parseInt(m.group(4)),
                            m.group(5) == null ? 0 : Long.parseLong(m.group(5))));
        } catch (IllegalArgumentException e) {
            return java.util.Optional.empty();
        }
    }

    /** Whether this part's block range contains {@code other}'s (same partition). */
    public boolean contains(PartName other) {
        return partitionId.equals(other.partitionId)
                && minBlock <= other.minBlock
                && maxBlock >= other.maxBlock
                && level >= other.level;
    }

    @Override
    public int compareTo(PartName o) {
        int c = partitionId.compareTo(o.partitionId);
        if (c == 0) {
            c = Long.compare(minBlock, o.minBlock);
        }
        if (c == 0) {
            c = Long.compare(maxBlock, o.maxBlock);
        }
        if (c == 0) {
            c = Integer.compare(level, o.level);
        }
        return c != 0 ? c : Long.compare(mutation, o.mutation);
    }

    @Override
    public String toString() {
        String s = partitionId + "_" + minBlock + "_" + maxBlock + "_" + level;
        return mutation == 0 ? s : s + "_" + mutation;
    }
}
