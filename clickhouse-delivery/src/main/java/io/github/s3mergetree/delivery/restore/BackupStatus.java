package io.github.s3mergetree.delivery.restore;

import java.util.List;
import java.util.OptionalLong;

/**
 * A server's {@code system.backups} entry of one RESTORE, as far as delivery needs it: the status,
 * the first line of the error, and what the server read from the backup ({@code num_files}, {@code
 * total_size}: the manifest's file count and the sum of its files' sizes, as {@code
 * BackupImpl::readBackupMetadata} counts them), absent on servers whose {@code system.backups}
 * lacks those columns.
 */
record BackupStatus(String status, String error, OptionalLong numFiles, OptionalLong totalSize) {

    /** The entry from a row of {@code SELECT * ... FORMAT TabSeparatedWithNames}. */
    static BackupStatus of(List<String> names, List<String> values) {
        String status = field(names, values, "status");
        if (status == null) {
            throw new IllegalArgumentException("system.backups has no status column: " + names);
        }
        String error = field(names, values, "error");
        return new BackupStatus(
                status,
                error == null ? "" : firstLine(error),
                number(names, values, "num_files"),
                number(names, values, "total_size"));
    }

    private static String field(List<String> names, List<String> values, String name) {
        int i = names.indexOf(name);
        return i < 0 || i >= values.size() ? null : values.get(i);
    }

    private static OptionalLong number(List<String> names, List<String> values, String name) {
        String v = field(names, values, name);
        if (v == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseUnsignedLong(v));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static String firstLine(String error) {
        int nl = error.indexOf("Stack trace");
        String s = nl < 0 ? error : error.substring(0, nl);
        return s.replace('\n', ' ').trim();
    }
}
