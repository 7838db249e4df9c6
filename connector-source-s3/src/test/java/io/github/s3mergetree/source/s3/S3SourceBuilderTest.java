package io.github.s3mergetree.source.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.parquet.ParquetBlockFormat;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.options.S3SourceOptions.DiscoveryMode;
import java.net.URI;
import java.time.Duration;
import org.apache.flink.api.connector.source.Boundedness;
import org.junit.jupiter.api.Test;

class S3SourceBuilderTest {
    /** A builder that does not contact the (absent) store: {@code validate-on-build = false}. */
    static S3SourceBuilder<Block> builder() {
        return S3Source.builder(new ParquetBlockFormat(TargetSchema.parse("id Int64")))
                .setOption(S3SourceOptions.VALIDATE_ON_BUILD, false);
    }

    @Test
    void buildsBoundedAndContinuousSources() {
        S3Source<Block> bounded =
                builder()
                        .setLocation("s3://bucket/a/{1..3}/*.parquet")
                        .setEndpoint(URI.create("http://127.0.0.1:9000"))
                        .setPathStyleAccess(true)
                        .setCredentials("AKIA-ACCESS", "very-secret")
                        .build();
        assertThat(bounded.getBoundedness()).isEqualTo(Boundedness.BOUNDED);
        assertThat(bounded.storeConfig().bucket()).isEqualTo("bucket");
        assertThat(bounded.pattern().listPrefixes()).containsExactly("a/1/", "a/2/", "a/3/");
        assertThat(bounded.storeConfig().toString()).doesNotContain("very-secret");
        S3Source<Block> continuous =
                builder()
                        .setLocation("s3://bucket")
                        .setContinuous(Duration.ofSeconds(5), DiscoveryMode.ORDERED)
                        .build();
        assertThat(continuous.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        assertThat(continuous.pattern().glob()).isEqualTo("**");
        assertThat(continuous.options().get(S3SourceOptions.S3QUEUE_MODE))
                .isEqualTo(DiscoveryMode.ORDERED);
        S3Source<Block> local = builder().setLocation("file:///tmp/x/*.parquet").build();
        assertThat(local.storeConfig().isLocal()).isTrue();
        assertThat(local.pattern().glob()).isEqualTo("tmp/x/*.parquet");
    }

    /**
     * Settings by name (setSetting, setSettings, setOptions) are checked as ClickHouse checks a
     * query's SETTINGS: a typo is refused naming the nearest setting, a boolean takes 0, 1, true
     * and false.
     */
    @Test
    void settingsByNameRefuseTyposAndTakeClickHouseBooleans() {
        assertThatThrownBy(() -> builder().setSetting("input_format_csv_detect_heade", "0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "unknown setting 'input_format_csv_detect_heade' (did you mean"
                                + " 'input_format_csv_detect_header'?)");
        org.apache.flink.configuration.Configuration typo =
                new org.apache.flink.configuration.Configuration();
        typo.setString("max_download_thread", "8");
        assertThatThrownBy(() -> builder().setOptions(typo))
                .hasMessage(
                        "unknown setting 'max_download_thread' (did you mean"
                                + " 'max_download_threads'?)");
        assertThatThrownBy(
                        () ->
                                builder()
                                        .setSettings(
                                                java.util.Map.of(
                                                        "format_csv_alow_single_quotes", "1")))
                .hasMessageContaining("did you mean 'format_csv_allow_single_quotes'?");

        S3Source<Block> one =
                builder()
                        .setLocation("s3://b/x")
                        .setSetting("format_csv_allow_single_quotes", "1")
                        .setSetting("input_format_csv_detect_header", "0")
                        .setSetting("max_download_threads", "8")
                        .build();
        assertThat(one.options().get(S3SourceOptions.FORMAT_CSV_ALLOW_SINGLE_QUOTES)).isTrue();
        assertThat(one.options().get(S3SourceOptions.INPUT_FORMAT_CSV_DETECT_HEADER)).isFalse();
        assertThat(one.options().get(S3SourceOptions.MAX_DOWNLOAD_THREADS)).isEqualTo(8);
        org.apache.flink.configuration.Configuration conf =
                new org.apache.flink.configuration.Configuration();
        conf.setString("format_csv_allow_single_quotes", "TRUE");
        conf.set(S3SourceOptions.INPUT_FORMAT_SKIP_UNKNOWN_FIELDS, false);
        S3Source<Block> two = builder().setLocation("s3://b/x").setOptions(conf).build();
        assertThat(two.options().get(S3SourceOptions.FORMAT_CSV_ALLOW_SINGLE_QUOTES)).isTrue();
        assertThat(two.options().get(S3SourceOptions.INPUT_FORMAT_SKIP_UNKNOWN_FIELDS)).isFalse();
        assertThatThrownBy(() -> builder().setSetting("format_csv_allow_single_quotes", "yes"))
                .hasMessage(
                        "Cannot parse bool from string 'yes' for setting"
                                + " 'format_csv_allow_single_quotes': expected 0, 1, true or"
                                + " false");
    }

    @Test
    void invalidSettingsNameTheValue() {
        assertThatThrownBy(() -> builder().build()).hasMessageContaining("location is required");
        assertThatThrownBy(() -> builder().setLocation("http://x/y").build())
                .hasMessageContaining("'http://x/y'");
        assertThatThrownBy(() -> builder().setLocation("s3://b*/x").build())
                .hasMessageContaining("'s3://b*/x'");
        assertThatThrownBy(
                        () ->
                                builder()
                                        .setLocation("s3://b/x")
                                        .setOption(S3SourceOptions.MAX_DOWNLOAD_THREADS, 0)
                                        .build())
                .hasMessageContaining("max_download_threads must be >= 1, got 0");
        assertThatThrownBy(
                        () ->
                                builder()
                                        .setLocation("s3://b/x")
                                        .setOption(S3SourceOptions.S3_LIST_OBJECT_KEYS_SIZE, 5000)
                                        .build())
                .hasMessageContaining("got 5000");
        assertThatThrownBy(
                        () ->
                                builder()
                                        .setLocation("s3://b/x")
                                        .setContinuous(Duration.ZERO, DiscoveryMode.UNORDERED)
                                        .build())
                .hasMessageContaining("source.monitor-interval must be positive");
        assertThatThrownBy(
                        () ->
                                builder()
                                        .setLocation("s3://b/x")
                                        .setOption(S3SourceOptions.SESSION_TIMEZONE, "Mars/Base")
                                        .build())
                .hasMessageContaining("'Mars/Base'");
        assertThatThrownBy(
                        () ->
                                builder()
                                        .setLocation("s3://b/x")
                                        .setOption(S3SourceOptions.COMPRESSION, "rar")
                                        .build())
                .hasMessageContaining("'rar'");
        assertThatThrownBy(() -> builder().setLocation("s3://b/{x").build())
                .hasMessageContaining("{x");
        assertThatThrownBy(() -> builder().setLocation("file://relative/x").build())
                .hasMessageContaining("absolute");
        assertThatThrownBy(
                        () ->
                                S3Source.builder(
                                                new ParquetBlockFormat(
                                                        TargetSchema.parse("id Int64")))
                                        .setFormat((String) null)
                                        .setLocation("s3://b/x")
                                        .build())
                .hasMessageContaining("format is required");
    }
}
