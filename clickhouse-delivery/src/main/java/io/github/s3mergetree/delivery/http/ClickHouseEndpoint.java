package io.github.s3mergetree.delivery.http;

import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a ClickHouse server's HTTP interface is and how to sign in: {@code http(s)://host:port}
 * (the server's {@code http_port}, 8123 by default), a user and a password.
 *
 * <p>The password is never printed: {@link #toString()} shows the URL and the user only. The URL
 * must not carry credentials or a query string (they would end up in logs); use {@link
 * #withCredentials}. {@link Authentication#BASIC} sends the credentials as HTTP basic auth (what
 * every ClickHouse since 1.1 accepts), {@link Authentication#HEADERS} as {@code X-ClickHouse-User}
 * / {@code X-ClickHouse-Key} (for proxies that use the {@code Authorization} header themselves).
 */
public final class ClickHouseEndpoint implements Serializable {
    private static final long serialVersionUID = 1L;

    /** How the credentials travel. */
    public enum Authentication {
        /** HTTP basic authentication ({@code Authorization: Basic ...}). */
        BASIC,
        /** The headers {@code X-ClickHouse-User} and {@code X-ClickHouse-Key}. */
        HEADERS
    }

    private final URI url;
    private final String user;
    private final String password;
    private final Authentication authentication;

    private ClickHouseEndpoint(
            URI url, String user, String password, Authentication authentication) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.authentication = authentication;
    }

    /**
     * The server at {@code url} ({@code http://host:port} or {@code https://host:port}, optionally
     * with a path prefix for a proxy), as user {@code default} with an empty password.
     *
     * @throws IllegalArgumentException naming the URL if it is not such a URL
     */
    public static ClickHouseEndpoint of(String url) {
        return of("--clickhouse-url", url);
    }

    /**
     * {@link #of(String)}, with messages that name the URL's option as its caller calls it ({@code
     * --clickhouse-url} on the command line, {@code clickhouse.url} in a SQL table's options).
     */
    public static ClickHouseEndpoint of(String option, String url) {
        Objects.requireNonNull(url, option);
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    option + " is not a URL: " + url + " (" + e.getReason() + ")", e);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException(
                    option
                            + " must be http://host:port or https://host:port (ClickHouse's"
                            + " HTTP interface), got: "
                            + url);
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException(option + " has no host: " + url);
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException(
                    option
                            + " must not contain credentials ("
                            + credentialsHint(option)
                            + "): "
                            + uri.getScheme()
                            + "://"
                            + uri.getHost()
                            + (uri.getPort() < 0 ? "" : ":" + uri.getPort()));
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException(
                    option
                            + " must not have a query string or fragment: "
                            + uri.getScheme()
                            + "://"
                            + uri.getHost()
                            + (uri.getPort() < 0 ? "" : ":" + uri.getPort())
                            + uri.getRawPath());
        }
        String path =
                uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (!path.endsWith("/")) {
            path = path + "/";
        }
        URI normalized = URI.create(scheme + "://" + uri.getRawAuthority() + path);
        return new ClickHouseEndpoint(normalized, "default", "", Authentication.BASIC);
    }

    /**
     * Where the user and password go instead, named like the URL's option: {@code --clickhouse-url}
     * has {@code --clickhouse-user} and {@code --clickhouse-password}, {@code clickhouse.url} has
     * {@code clickhouse.user} and {@code clickhouse.password}.
     */
    private static String credentialsHint(String option) {
        if (option.endsWith("url")) {
            String base = option.substring(0, option.length() - "url".length());
            return "use " + base + "user and " + base + "password";
        }
        return "give the user and the password apart";
    }

    /** This endpoint with {@code user} and {@code password} (null: empty). */
    public ClickHouseEndpoint withCredentials(String user, String password) {
        if (user == null || user.isEmpty()) {
            throw new IllegalArgumentException("the ClickHouse user must not be empty");
        }
        return new ClickHouseEndpoint(url, user, password == null ? "" : password, authentication);
    }

    /** This endpoint sending the credentials as {@code authentication} says. */
    public ClickHouseEndpoint withAuthentication(Authentication authentication) {
        return new ClickHouseEndpoint(
                url, user, password, Objects.requireNonNull(authentication, "authentication"));
    }

    /** The base URL, ending in {@code /}. */
    public URI url() {
        return url;
    }

    public String user() {
        return user;
    }

    /** The password; callers must not log it. */
    String password() {
        return password;
    }

    /** Whether a password is set (for messages, which never show it). */
    public boolean hasPassword() {
        return !password.isEmpty();
    }

    public Authentication authentication() {
        return authentication;
    }

    /** {@code host:port} for messages. */
    public String hostAndPort() {
        int port = url.getPort();
        if (port < 0) {
            port = url.getScheme().equals("https") ? 443 : 80;
        }
        return url.getHost() + ":" + port;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClickHouseEndpoint e
                && e.url.equals(url)
                && e.user.equals(user)
                && e.password.equals(password)
                && e.authentication == authentication;
    }

    @Override
    public int hashCode() {
        return Objects.hash(url, user);
    }

    /** The URL and the user; never the password. */
    @Override
    public String toString() {
        return url + " (user " + user + (hasPassword() ? ", password set" : "") + ")";
    }
}
