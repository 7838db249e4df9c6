package io.github.s3mergetree.source.s3.format;

import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.annotation.Internal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Target columns an object does not have. ClickHouse fills them with the type's default under
 * {@code input_format_parquet_allow_missing_columns} / {@code
 * input_format_arrow_allow_missing_columns} (on by default) and refuses the object otherwise; so
 * does the source, but it says so: a WARN the first time a reader meets each such column (a typo
 * such as {@code Scor} for {@code Score} would otherwise store zeros silently), and the metric
 * {@code rowsWithMissingColumns} counting the rows so filled.
 *
 * <p>One per {@link FormatContext} (one per source reader); thread-safe.
 */
@Internal
public final class MissingColumns {
    private static final Logger LOG = LoggerFactory.getLogger(MissingColumns.class);
    private static final int LISTED_COLUMNS = 20;

    private final S3SourceMetrics metrics;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    public MissingColumns(S3SourceMetrics metrics) {
        this.metrics = metrics;
    }

    /**
     * Called once per object (or per schema of it) with the target columns it lacks: refuses the
     * object when {@code allowed} is false, as ClickHouse does, else logs each column not logged
     * before by this reader.
     *
     * @param object the object as named in messages
     * @param format the format's name in messages ({@code Parquet}, {@code Arrow}, ...)
     * @param missing the missing target columns (none: nothing happens)
     * @param objectColumns the columns the object has, listed in the messages (up to 20)
     * @param setting the ClickHouse setting that allows missing columns, or null when ClickHouse
     *     always allows them for the format (Native)
     * @param allowed its value (true when {@code setting} is null)
     * @throws ObjectFormatException naming the object, the first missing column and the setting
     *     when {@code allowed} is false
     */
    public void check(
            String object,
            String format,
            List<String> missing,
            Collection<String> objectColumns,
            String setting,
            boolean allowed)
            throws ObjectFormatException {
        if (missing.isEmpty()) {
            return;
        }
        if (!allowed) {
            throw new ObjectFormatException(
                    object
                            + ": column '"
                            + missing.get(0)
                            + "' was not found in the "
                            + format
                            + " schema (its columns: "
                            + list(objectColumns)
                            + "); "
                            + setting
                            + " = 0 refuses an object without a column of the target");
        }
        String asClickHouse =
                setting == null
                        ? "as ClickHouse does"
                        : "as ClickHouse does under " + setting + " = 1 (0 refuses such objects)";
        for (String column : missing) {
            if (warned.add(column)) {
                LOG.warn(
                        "Column '{}' is not in {} (its columns: {}): its rows get the type's"
                                + " default, {}. Logged once per column and reader; metric {}"
                                + " counts the rows so filled.",
                        column,
                        object,
                        list(objectColumns),
                        asClickHouse,
                        S3SourceMetrics.ROWS_WITH_MISSING_COLUMNS);
            }
        }
    }

    /** {@code rows} rows of an object were given the default of at least one missing column. */
    public void filled(long rows) {
        metrics.rowsWithMissingColumns(rows);
    }

    private static String list(Collection<String> columns) {
        StringBuilder b = new StringBuilder();
        int n = 0;
        for (String c : columns) {
            if (n == LISTED_COLUMNS) {
                b.append(", ... (").append(columns.size()).append(" in all)");
                break;
            }
            b.append(n++ == 0 ? "" : ", ").append(c);
        }
        return b.toString();
    }
}
