package io.github.s3mergetree.connector.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.connector.settings.NamedSettings;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The S3 connection keys source and sink share: the new {@code s3.*} keys and each connector's
 * former keys give the same connection; values are checked naming the option.
 */
class S3ConnectionTest {
    private static S3Connection read(Map<String, String> options) {
        return S3Connection.from(Configuration.fromMap(options));
    }

    @Test
    void newSourceAndSinkKeysGiveTheSameConnection() {
        S3Connection expected =
                new S3Connection(
                        URI.create("http://127.0.0.1:9000"), "eu-west-1", true, "ak", "sk");
        assertThat(
                        read(
                                Map.of(
                                        "s3.endpoint", "http://127.0.0.1:9000",
                                        "s3.region", "eu-west-1",
                                        "s3.access-key", "ak",
                                        "s3.secret-key", "sk")))
                .isEqualTo(expected);
        // the source's former keys
        assertThat(
                        read(
                                Map.of(
                                        "endpoint", "http://127.0.0.1:9000",
                                        "region", "eu-west-1",
                                        "access-key", "ak",
                                        "secret-key", "sk")))
                .isEqualTo(expected);
        // the sink's former keys
        assertThat(
                        read(
                                Map.of(
                                        "table.s3.endpoint", "http://127.0.0.1:9000",
                                        "table.s3.region", "eu-west-1",
                                        "table.s3.path-style-access", "true",
                                        "table.s3.access-key", "ak",
                                        "table.s3.secret-key", "sk")))
                .isEqualTo(expected);
    }

    @Test
    void pathStyleDefaultsToTrueWithAnEndpointAndTakesClickHouseBooleans() {
        assertThat(read(Map.of()).pathStyle()).isFalse();
        assertThat(read(Map.of("s3.endpoint", "https://minio:9000")).pathStyle()).isTrue();
        assertThat(
                        read(Map.of(
                                        "s3.endpoint",
                                        "https://minio:9000",
                                        "s3.path-style-access",
                                        "0"))
                                .pathStyle())
                .isFalse();
        assertThat(read(Map.of("s3.path.style.access", "TRUE")).pathStyle()).isTrue();
        assertThatThrownBy(() -> read(Map.of("s3.path-style-access", "yes")))
                .hasMessage(
                        "Cannot parse bool from string 'yes' for setting 's3.path-style-access':"
                                + " expected 0, 1, true or false");
    }

    @Test
    void badValuesAreRefusedNamingTheOption() {
        assertThatThrownBy(() -> read(Map.of("s3.endpoint", "ftp://127.0.0.1:9000")))
                .hasMessage(
                        "option 's3.endpoint' (formerly 'endpoint', 'table.s3.endpoint') must be"
                                + " http(s)://host[:port], not 'ftp://127.0.0.1:9000'");
        assertThatThrownBy(() -> read(Map.of("table.s3.endpoint", "http://bad host")))
                .hasMessageStartingWith(
                        "option 's3.endpoint' (formerly 'endpoint', 'table.s3.endpoint') is not a"
                                + " URL: 'http://bad host'");
        assertThatThrownBy(() -> read(Map.of("s3.access-key", "ak")))
                .hasMessage(
                        "give both 's3.access-key' and 's3.secret-key', or neither (the AWS default"
                                + " credentials chain); only 's3.access-key' is set");
    }

    @Test
    void theSecretIsNotInToString() {
        S3Connection c = read(Map.of("s3.access-key", "ak", "s3.secret-key", "very-secret"));
        assertThat(c.toString()).doesNotContain("very-secret").doesNotContain("ak,");
    }

    @Test
    void namedSettingsKnowDeprecatedKeysAndFileThemUnderTheCurrentKey() {
        NamedSettings settings = NamedSettings.of(S3ConnectionOptions.all());
        assertThat(settings.names())
                .contains("s3.endpoint", "endpoint", "table.s3.endpoint", "s3.path.style.access");
        assertThat(settings.keyOf("table.s3.access-key")).isEqualTo("s3.access-key");
        Map<String, String> given = new LinkedHashMap<>();
        given.put("path-style-access", "1");
        given.put("table.s3.region", "us-west-2");
        assertThat(settings.checkAll(given))
                .containsExactly(
                        Map.entry("s3.path-style-access", "true"),
                        Map.entry("s3.region", "us-west-2"));
        given.put("s3.region", "eu-west-1");
        assertThatThrownBy(() -> settings.checkAll(given))
                .hasMessage(
                        "'table.s3.region' and 's3.region' name the same setting ('s3.region')"
                                + " with different values; give it once");
    }
}
