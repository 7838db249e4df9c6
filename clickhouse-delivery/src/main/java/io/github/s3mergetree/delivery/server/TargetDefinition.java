package io.github.s3mergetree.delivery.server;

import io.github.s3mergetree.engine.ddl.ColumnDefinition;
import io.github.s3mergetree.engine.ddl.DdlParseException;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.ddl.UnsupportedDdlException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The target table's definition as the server prints it ({@code SHOW CREATE TABLE}), parsed by the
 * engine's DDL parser and compared with the written table's: columns (names, order, types), the
 * engine and its parameters, and the partition, sorting and primary keys must be equal, or the
 * server would hold rows in another shape than the parts have.
 *
 * <p>What does not take part in the comparison: table-level SETTINGS (the server's own storage
 * settings, e.g. {@code storage_policy}, are its business; parts of either granularity read alike),
 * and replication: {@code ReplicatedMergeTree('/path', 'replica', …)} (or {@code Shared…}) compares
 * as the engine it replicates, either way round, since the parts are the same and the server
 * replicates what RESTORE or ATTACH PART adds to a Replicated table.
 */
public final class TargetDefinition {
    private final String serverDdl;
    private final TableSchema schema;

    private TargetDefinition(String serverDdl, TableSchema schema) {
        this.serverDdl = serverDdl;
        this.schema = schema;
    }

    /**
     * Parses the server's {@code SHOW CREATE TABLE} text of {@code table}.
     *
     * @throws IllegalArgumentException naming the table and the parser's complaint if the engine
     *     cannot read the definition
     */
    public static TargetDefinition parse(TableName table, String serverDdl) {
        String comparable = withoutSettings(serverDdl.trim());
        try {
            return new TargetDefinition(serverDdl, TableSchema.parse(comparable));
        } catch (DdlParseException | UnsupportedDdlException e) {
            throw new IllegalArgumentException(
                    "cannot compare the target table "
                            + table
                            + " with the written table: the engine's DDL parser does not accept the"
                            + " server's definition ("
                            + e.getMessage()
                            + "): "
                            + serverDdl.replaceAll("\\s+", " "),
                    e);
        }
    }

    /** The definition exactly as the server printed it. */
    public String serverDdl() {
        return serverDdl;
    }

    public TableSchema schema() {
        return schema;
    }

    /**
     * How the written table ({@code written}) differs from this target in columns, engine and keys;
     * empty if deliveries fit.
     */
    public List<String> differencesFrom(TableSchema written) {
        List<String> out = new ArrayList<>();
        List<ColumnDefinition> ours = written.storedColumns();
        List<ColumnDefinition> theirs = schema.storedColumns();
        int n = Math.max(ours.size(), theirs.size());
        for (int i = 0; i < n; i++) {
            ColumnDefinition a = i < ours.size() ? ours.get(i) : null;
            ColumnDefinition b = i < theirs.size() ? theirs.get(i) : null;
            if (a == null) {
                out.add(
                        "the server's table has an extra column "
                                + b.name()
                                + " "
                                + b.type().name()
                                + " (position "
                                + (i + 1)
                                + ")");
            } else if (b == null) {
                out.add(
                        "the server's table has no column "
                                + a.name()
                                + " "
                                + a.type().name()
                                + " (position "
                                + (i + 1)
                                + ")");
            } else if (!a.name().equals(b.name())) {
                out.add(
                        "column "
                                + (i + 1)
                                + " is "
                                + a.name()
                                + " in the written table but "
                                + b.name()
                                + " on the server");
            } else if (!a.type().equals(b.type())) {
                out.add(
                        "column "
                                + a.name()
                                + " is "
                                + a.type().name()
                                + " in the written table but "
                                + b.type().name()
                                + " on the server");
            }
        }
        if (!written.engine().withoutReplication().equals(schema.engine().withoutReplication())) {
            out.add(
                    "the engine is "
                            + written.engine().toSql()
                            + " in the written table but "
                            + schema.engine().toSql()
                            + " on the server");
        }
        compareKey(
                out, "PARTITION BY", written.partitionKey().toSql(), schema.partitionKey().toSql());
        compareKey(out, "ORDER BY", written.sortingKey().toSql(), schema.sortingKey().toSql());
        compareKey(out, "PRIMARY KEY", written.primaryKey().toSql(), schema.primaryKey().toSql());
        return out;
    }

    private static void compareKey(List<String> out, String what, String ours, String theirs) {
        ours = ours.equals("tuple()") ? "" : ours;
        theirs = theirs.equals("tuple()") ? "" : theirs;
        if (!ours.equals(theirs)) {
            out.add(
                    what
                            + " is "
                            + show(ours)
                            + " in the written table but "
                            + show(theirs)
                            + " on the server");
        }
    }

    private static String show(String key) {
        return key.isEmpty() ? "(none)" : key;
    }

    /**
     * {@code ddl} without its top-level {@code SETTINGS ...} clause (up to a top-level {@code
     * COMMENT} or the end).
     */
    static String withoutSettings(String ddl) {
        int depth = 0;
        char quote = 0;
        int start = -1;
        int end = ddl.length();
        for (int i = 0; i < ddl.length(); i++) {
            char c = ddl.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
                continue;
            }
            if (c == '\'' || c == '`' || c == '"') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && wordAt(ddl, i, "SETTINGS") && start < 0) {
                start = i;
            } else if (depth == 0 && start >= 0 && wordAt(ddl, i, "COMMENT")) {
                end = i;
                break;
            }
        }
        if (start < 0) {
            return ddl;
        }
        return (ddl.substring(0, start) + ddl.substring(end)).trim();
    }

    private static boolean wordAt(String s, int i, String word) {
        if (!s.regionMatches(true, i, word, 0, word.length())) {
            return false;
        }
        boolean before = i == 0 || !isWordChar(s.charAt(i - 1));
        int j = i + word.length();
        boolean after = j >= s.length() || !isWordChar(s.charAt(j));
        return before && after && s.substring(i, j).toUpperCase(Locale.ROOT).equals(word);
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }
}
