package io.github.s3mergetree.delivery.http;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client of ClickHouse's HTTP interface, on the JDK's {@link HttpClient}.
 *
 * <p>Why the JDK client and not {@code com.clickhouse:client-v2}: delivery sends a handful of
 * statements per commit (a version probe, SHOW CREATE TABLE, RESTORE, a few system-table reads), so
 * the official client's value (row binary formats, pooling, compression) buys nothing here, while
 * it brings Apache HttpClient 5, its own LZ4 and a dependency tree into every Flink job jar and
 * asks for compressed responses and server features that an old server (18.16) or a proxy speaking
 * only the documented subset may lack. The JDK client speaks exactly the subset this project relies
 * on, so it works against any server implementing it:
 *
 * <ul>
 *   <li>the statement in the body of a POST (never in the URL, where proxies log it);
 *   <li>{@code database} and {@code default_format} (TabSeparated) URL parameters, and {@code
 *       query_id} when the caller names the query;
 *   <li>credentials by HTTP basic auth or {@code X-ClickHouse-User} / {@code X-ClickHouse-Key};
 *   <li>no {@code Accept-Encoding}: responses come uncompressed;
 *   <li>an error is a non-200 status with {@code X-ClickHouse-Exception-Code} and the message in
 *       the body (servers before 19.x send the code only in the body, {@code Code: N.}): {@link
 *       ClickHouseServerException}; no answer at all is {@link ClickHouseUnreachableException}.
 * </ul>
 *
 * <p>Statements are logged at DEBUG in their displayable form ({@link Sql#display()}); the password
 * is never logged. Thread-safe.
 */
public final class ClickHouseHttpClient {
    private static final Logger LOG = LoggerFactory.getLogger(ClickHouseHttpClient.class);

    /** Connect timeout unless given. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

    /** How long one statement may run unless given. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofMinutes(10);

    private static final java.util.regex.Pattern CODE_IN_BODY =
            java.util.regex.Pattern.compile("\\s*Code: (\\d+)[.,]");

    private final ClickHouseEndpoint endpoint;
    private final Duration requestTimeout;
    private final HttpClient http;

    public ClickHouseHttpClient(
            ClickHouseEndpoint endpoint, Duration connectTimeout, Duration requestTimeout) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.http =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(connectTimeout)
                        .followRedirects(HttpClient.Redirect.NEVER)
                        .build();
    }

    /** A client with the default timeouts. */
    public static ClickHouseHttpClient create(ClickHouseEndpoint endpoint) {
        return new ClickHouseHttpClient(endpoint, DEFAULT_CONNECT_TIMEOUT, DEFAULT_REQUEST_TIMEOUT);
    }

    public ClickHouseEndpoint endpoint() {
        return endpoint;
    }

    /** Runs {@code sql} in the user's default database; returns the TabSeparated output. */
    public String query(Sql sql) throws IOException {
        return query(sql, null, null);
    }

    /**
     * Runs {@code sql} and returns its output (TabSeparated unless the statement has a {@code
     * FORMAT} clause).
     *
     * @param database the {@code database} parameter (the statement's current database), or null
     * @param queryId the {@code query_id} parameter, or null for one chosen by the server
     * @throws ClickHouseServerException the server answered with an error
     * @throws ClickHouseUnreachableException no answer (refused, unknown host, timeout)
     */
    public String query(Sql sql, String database, String queryId) throws IOException {
        StringBuilder params = new StringBuilder("?default_format=TabSeparated");
        if (database != null) {
            params.append("&database=").append(encode(database));
        }
        if (queryId != null) {
            params.append("&query_id=").append(encode(queryId));
        }
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(endpoint.url() + params.toString()))
                        .timeout(requestTimeout)
                        .header("Content-Type", "text/plain; charset=UTF-8")
                        .POST(
                                HttpRequest.BodyPublishers.ofString(
                                        sql.text(), StandardCharsets.UTF_8));
        if (endpoint.authentication() == ClickHouseEndpoint.Authentication.BASIC) {
            String token =
                    Base64.getEncoder()
                            .encodeToString(
                                    (endpoint.user() + ":" + endpoint.password())
                                            .getBytes(StandardCharsets.UTF_8));
            request.header("Authorization", "Basic " + token);
        } else {
            request.header("X-ClickHouse-User", endpoint.user());
            if (endpoint.hasPassword()) {
                request.header("X-ClickHouse-Key", endpoint.password());
            }
        }
        LOG.debug("ClickHouse {}: {}", endpoint.hostAndPort(), sql.display());
        HttpResponse<byte[]> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpConnectTimeoutException | ConnectException e) {
            throw new ClickHouseUnreachableException(
                    "cannot connect to ClickHouse at "
                            + endpoint.url()
                            + " ("
                            + describe(e)
                            + "): is the server running and is that its HTTP port?",
                    e);
        } catch (HttpTimeoutException e) {
            throw new ClickHouseUnreachableException(
                    "ClickHouse at "
                            + endpoint.url()
                            + " did not answer within "
                            + requestTimeout
                            + ": "
                            + ClickHouseServerException.abbreviate(sql.display()),
                    e);
        } catch (IOException e) {
            throw new ClickHouseUnreachableException(
                    "no answer from ClickHouse at "
                            + endpoint.url()
                            + " ("
                            + describe(e)
                            + "): "
                            + ClickHouseServerException.abbreviate(sql.display()),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException(
                    "interrupted while waiting for ClickHouse at " + endpoint.url());
        }
        String body = new String(response.body(), StandardCharsets.UTF_8);
        String codeHeader =
                response.headers().firstValue("X-ClickHouse-Exception-Code").orElse(null);
        if (response.statusCode() != 200 || codeHeader != null) {
            int code = -1;
            if (codeHeader != null) {
                try {
                    code = Integer.parseInt(codeHeader.trim());
                } catch (NumberFormatException e) {
                    code = -1;
                }
            }
            if (code < 0) {
                // servers before 19.x send no X-ClickHouse-Exception-Code: the body starts with it
                java.util.regex.Matcher m = CODE_IN_BODY.matcher(body);
                if (m.lookingAt()) {
                    code = Integer.parseInt(m.group(1));
                }
            }
            if (code == ClickHouseServerException.AUTHENTICATION_FAILED
                    || response.statusCode() == 401
                    || response.statusCode() == 403) {
                body =
                        body.trim()
                                + " (user "
                                + endpoint.user()
                                + ", "
                                + (endpoint.hasPassword() ? "password given" : "no password")
                                + ": check the user and password: --clickhouse-user and --clickhouse-password,"
                                + " or the SQL options clickhouse.user and clickhouse.password)";
            }
            throw new ClickHouseServerException(
                    endpoint.hostAndPort(), sql, response.statusCode(), code, body);
        }
        return body;
    }

    /** Runs {@code sql} and parses its TabSeparated output into rows of unescaped fields. */
    public List<List<String>> rows(Sql sql) throws IOException {
        return TabSeparated.parse(query(sql));
    }

    /** Runs a statement returning one value (e.g. {@code SELECT version()}). */
    public String value(Sql sql) throws IOException {
        List<List<String>> rows = rows(sql);
        if (rows.size() != 1 || rows.get(0).size() != 1) {
            throw new IOException(
                    "expected one value from ClickHouse at "
                            + endpoint.hostAndPort()
                            + " for "
                            + sql.display()
                            + ", got "
                            + rows.size()
                            + " rows");
        }
        return rows.get(0).get(0);
    }

    private static String describe(Throwable e) {
        List<String> parts = new ArrayList<>();
        for (Throwable t = e; t != null && parts.size() < 3; t = t.getCause()) {
            String m = t.getMessage();
            parts.add(t.getClass().getSimpleName() + (m == null ? "" : ": " + m));
        }
        return String.join(" <- ", parts);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
