package io.github.s3mergetree.delivery.http;

import java.io.IOException;

/**
 * The server answered a statement with an error: a non-200 HTTP status, ClickHouse's error code
 * from the {@code X-ClickHouse-Exception-Code} header (e.g. 60 for an unknown table, 516 for wrong
 * credentials) and its message ({@code Code: N. DB::Exception: ...}).
 *
 * <p>The message names the statement in its displayable form (secrets redacted, see {@link Sql})
 * and the server. The server's own text is redacted too, since a syntax error quotes the query.
 */
public final class ClickHouseServerException extends IOException {
    private static final long serialVersionUID = 1L;

    /** ClickHouse's AUTHENTICATION_FAILED. */
    public static final int AUTHENTICATION_FAILED = 516;

    /** ClickHouse's UNKNOWN_TABLE. */
    public static final int UNKNOWN_TABLE = 60;

    /** ClickHouse's UNKNOWN_DATABASE. */
    public static final int UNKNOWN_DATABASE = 81;

    /** ClickHouse's BAD_ARGUMENTS. */
    public static final int BAD_ARGUMENTS = 36;

    private final int code;
    private final int httpStatus;
    private final String serverMessage;

    public ClickHouseServerException(
            String server, Sql sql, int httpStatus, int code, String serverMessage) {
        super(
                "ClickHouse at "
                        + server
                        + " refused "
                        + abbreviate(sql.display())
                        + " (HTTP "
                        + httpStatus
                        + (code >= 0 ? ", code " + code : "")
                        + "): "
                        + sql.redact(serverMessage).trim());
        this.code = code;
        this.httpStatus = httpStatus;
        this.serverMessage = sql.redact(serverMessage).trim();
    }

    /**
     * ClickHouse's error code, or -1 if the response had no {@code X-ClickHouse-Exception-Code}.
     */
    public int code() {
        return code;
    }

    public int httpStatus() {
        return httpStatus;
    }

    /** The server's message (redacted). */
    public String serverMessage() {
        return serverMessage;
    }

    static String abbreviate(String sql) {
        String oneLine = sql.replaceAll("\\s+", " ").trim();
        return oneLine.length() <= 300 ? oneLine : oneLine.substring(0, 300) + "...";
    }
}
