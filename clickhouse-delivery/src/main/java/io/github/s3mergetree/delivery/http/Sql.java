package io.github.s3mergetree.delivery.http;

import java.util.Objects;

/**
 * A statement for the server and the form of it that may be shown in logs and messages.
 *
 * <p>Why: a RESTORE statement carries the S3 secret key the server needs to read the backup, and
 * nothing this project prints may contain a secret. Statements without secrets use {@link #of};
 * those with one use {@link #withSecret}, which keeps the text to send and a redacted text to show
 * ({@code [HIDDEN]} in place of the secret, as ClickHouse's own {@code system.backups} shows it).
 *
 * @param text what is sent to the server
 * @param display what may be logged or put in an exception message
 * @param secret the secret inside {@code text} (redacted from server messages too), or null
 */
public record Sql(String text, String display, String secret) {
    public Sql {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(display, "display");
    }

    /** A statement without secrets: shown as it is sent. */
    public static Sql of(String text) {
        return new Sql(text, text, null);
    }

    /** A statement containing {@code secret}: shown with {@code [HIDDEN]} in its place. */
    public static Sql withSecret(String text, String secret) {
        if (secret == null || secret.isEmpty()) {
            return of(text);
        }
        return new Sql(text, text.replace(secret, "[HIDDEN]"), secret);
    }

    /** {@code message} with this statement's secret (if any) replaced by {@code [HIDDEN]}. */
    public String redact(String message) {
        if (message == null || secret == null) {
            return message;
        }
        return message.replace(secret, "[HIDDEN]");
    }

    @Override
    public String toString() {
        return display;
    }
}
