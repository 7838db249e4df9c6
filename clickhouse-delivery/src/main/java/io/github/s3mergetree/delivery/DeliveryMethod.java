package io.github.s3mergetree.delivery;

import java.util.Locale;

/**
 * How a table's committed parts reach a server's table, and which way a given table takes: {@link
 * #RESTORE} (the server restores the parts from the table's bucket, {@code RESTORE … FROM S3}: a
 * table on S3 only) or {@link #ATTACH} (the parts are copied into the server table's {@code
 * detached/} and attached, {@code ALTER TABLE … ATTACH PART}). Without a choice, a table on S3 is
 * restored and a table in a directory attached.
 *
 * <p>The one place this is decided: the sink's delivery operator ({@code deliver} option), {@code
 * s3-mergetree deliver} and the delivery options of {@code s3-mergetree ingest} ({@code --deliver})
 * all ask {@link #forTable}, so they default and refuse alike.
 */
public enum DeliveryMethod {
    /** The server restores the parts from the table's bucket ({@code RESTORE … FROM S3}). */
    RESTORE,
    /** The parts are copied into the server table's {@code detached/} and attached. */
    ATTACH;

    /** The name users write: {@code restore} or {@code attach}. */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The method {@code value} names ({@code restore} or {@code attach}, in any case).
     *
     * @param option the option's name as the user wrote it, for the message ({@code --deliver},
     *     {@code deliver})
     * @throws IllegalArgumentException naming the option and the value if it names no method
     */
    public static DeliveryMethod parse(String option, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (DeliveryMethod m : values()) {
            if (m.optionValue().equals(v)) {
                return m;
            }
        }
        throw new IllegalArgumentException(
                option + " must be restore or attach, got: '" + value + "'");
    }

    /**
     * The method a table is delivered by: {@code requested} if given, else {@link #RESTORE} for a
     * table on S3 and {@link #ATTACH} for a table in a directory.
     *
     * @param option the option's name as the user wrote it, for the messages
     * @param requested the option's value, or null when it is not given
     * @param tableOnS3 whether the table is on S3 ({@code s3://…})
     * @param table the table's location, for the messages
     * @throws IllegalArgumentException if {@code requested} names no method, or asks to restore a
     *     table that is not on S3 (the server can only restore from a bucket)
     */
    public static DeliveryMethod forTable(
            String option, String requested, boolean tableOnS3, String table) {
        DeliveryMethod m =
                requested == null ? (tableOnS3 ? RESTORE : ATTACH) : parse(option, requested);
        if (m == RESTORE && !tableOnS3) {
            throw new IllegalArgumentException(
                    spelled(option, RESTORE)
                            + " needs the table on S3 (the server reads the parts from the bucket),"
                            + " not "
                            + table
                            + ": use "
                            + spelled(option, ATTACH));
        }
        return m;
    }

    /** {@code --deliver attach} for a command-line option, {@code deliver = attach} otherwise. */
    private static String spelled(String option, DeliveryMethod m) {
        return option + (option.startsWith("-") ? " " : " = ") + m.optionValue();
    }
}
