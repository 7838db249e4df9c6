package io.github.s3mergetree.source.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.source.s3.format.ParquetBlockFormat;
import io.github.s3mergetree.source.s3.format.TargetSchema;
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
                .hasMessageContaining("discovery-interval must be positive");
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
