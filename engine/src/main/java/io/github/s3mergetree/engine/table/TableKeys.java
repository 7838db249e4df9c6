package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.PartName;
import java.util.Optional;

/**
 * Where a table's objects are: ClickHouse's plain layout — {@code format_version.txt}, one
 * directory per part ({@code <part_name>/<files>}), {@code detached/} — which ClickHouse reads in
 * place ({@code ATTACH TABLE … SETTINGS table_disk = 1, disk = disk(type = s3_plain, …)}), plus
 * this project's metadata under {@value #METADATA_DIR}/, a name ClickHouse does not parse as a part
 * and ignores: the DDL, the commit log, its snapshots, merge claims and the part log. Temporary
 * parts are {@code tmp_*} directories, which ClickHouse ignores too.
 */
public final class TableKeys {
    public static final String METADATA_DIR = "s3mergetree_metadata";
    public static final String DDL_FILE = "table.sql";
    public static final String FORMAT_VERSION = "format_version.txt";
    public static final String TMP_PREFIX = "tmp_";
    public static final String DETACHED_DIR = "detached";

    /** The key of the table's DDL, {@code s3mergetree_metadata/table.sql}. */
    public static final String DDL = METADATA_DIR + "/" + DDL_FILE;

    static final String LOG_DIR = METADATA_DIR + "/log/";
    static final String SNAPSHOT_DIR = METADATA_DIR + "/snapshots/";
    static final String CLAIMS_DIR = METADATA_DIR + "/claims/";
    static final String PART_LOG_DIR = METADATA_DIR + "/part_log/";

    private TableKeys() {}

    /** The key of commit log entry {@code seq}: zero-padded so keys sort by sequence. */
    static String logEntry(long seq) {
        return LOG_DIR + String.format("%020d", seq) + ".json";
    }

    /** The key of the snapshot of the log state at {@code seq}. */
    static String snapshot(long seq) {
        return SNAPSHOT_DIR + String.format("%020d", seq) + ".json";
    }

    /** The sequence number of a log entry or snapshot key, if it is one. */
    static Optional<Long> sequenceOf(String key) {
        int slash = key.lastIndexOf('/');
        String name = key.substring(slash + 1);
        if (!name.endsWith(".json") || name.length() != 25) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(name.substring(0, 20)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The claim of a merged part's name (see {@link MergeTreeTable#merge}). */
    static String claim(PartName name) {
        return CLAIMS_DIR + name + ".json";
    }
}
