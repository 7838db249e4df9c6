package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.ddl.TableSchema;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * How ClickHouse reads a table this engine wrote, in place: the table's own DDL as {@code ATTACH
 * TABLE … UUID '…'} with {@code SETTINGS table_disk = 1, disk = disk(type = s3_plain, endpoint =
 * '<endpoint>/<bucket>/<prefix>/', …)} — ClickHouse's plain object-storage layout (object key =
 * prefix + relative path) is exactly the table's layout. ClickHouse sees the active parts (those
 * with {@code checksums.txt}; covered parts are not active), ignores {@code tmp_*} and {@code
 * s3mergetree_metadata/}, and reads the table read-only: the writer owns inserts, merges and
 * cleanup.
 */
public final class AttachStatements {
    private AttachStatements() {}

    /** A stable UUID for the table at {@code location} (ClickHouse needs one per table). */
    public static UUID uuidOf(String location) {
        return UUID.nameUUIDFromBytes(("s3mergetree:" + location).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The ATTACH statement of the table with DDL {@code ddl} at {@code endpointUrl} (the path-style
     * URL of the table's prefix, e.g. {@code http://127.0.0.1:9000/bkt/tables/posts/}).
     *
     * @param accessKeyId the access key to show (null: none, e.g. for IAM roles)
     * @param secret the secret to show, or a placeholder: callers that print the statement never
     *     pass the real secret
     */
    public static String s3Plain(
            String ddl, String endpointUrl, String accessKeyId, String secret, UUID uuid) {
        String url = endpointUrl.endsWith("/") ? endpointUrl : endpointUrl + "/";
        StringBuilder disk =
                new StringBuilder("table_disk = 1, disk = disk(type = s3_plain, endpoint = ")
                        .append(quote(url));
        if (accessKeyId != null) {
            disk.append(", access_key_id = ")
                    .append(quote(accessKeyId))
                    .append(", secret_access_key = ")
                    .append(quote(secret == null ? "" : secret));
        }
        disk.append(')');
        return TableSchema.parse(ddl).toAttachSql(uuid.toString(), disk.toString());
    }

    private static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
}
