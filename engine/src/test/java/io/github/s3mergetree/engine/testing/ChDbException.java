package io.github.s3mergetree.engine.testing;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A statement sent to chDB (see {@link ChDb}) failed: ClickHouse rejected it, the request timed
 * out, or the chDB process died while running it.
 *
 * <p>It carries the SQL and ClickHouse's own message (for example {@code Query failed: Code: 60.
 * DB::Exception: Unknown table ... (UNKNOWN_TABLE)}), so a failing compatibility test shows exactly
 * what the real engine objected to. It is unchecked so tests can let it propagate.
 */
public class ChDbException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private static final Pattern CODE = Pattern.compile("Code: (\\d+)\\.");

    private final String sql;
    private final String clickHouseMessage;

    /**
     * @param sql the statement that failed
     * @param clickHouseMessage ClickHouse's error text, or the harness's description of a timeout
     *     or a dead process
     */
    public ChDbException(String sql, String clickHouseMessage) {
        this(sql, clickHouseMessage, null);
    }

    /**
     * @param sql the statement that failed
     * @param clickHouseMessage ClickHouse's error text, or the harness's description of a timeout
     *     or a dead process
     * @param cause the underlying failure, if any
     */
    public ChDbException(String sql, String clickHouseMessage, Throwable cause) {
        super(clickHouseMessage + "\n  SQL: " + sql, cause);
        this.sql = sql;
        this.clickHouseMessage = clickHouseMessage;
    }

    /** The statement that failed, as sent. */
    public String sql() {
        return sql;
    }

    /** ClickHouse's error text (or the harness's, for a timeout or a dead process). */
    public String clickHouseMessage() {
        return clickHouseMessage;
    }

    /**
     * ClickHouse's numeric error code (the first {@code Code: N.} in the message, e.g. 60 for
     * UNKNOWN_TABLE), or -1 if the message has none (a timeout or a dead process).
     */
    public int code() {
        Matcher m = CODE.matcher(clickHouseMessage);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }
}
