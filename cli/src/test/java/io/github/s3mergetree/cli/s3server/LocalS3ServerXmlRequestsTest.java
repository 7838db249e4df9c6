package io.github.s3mergetree.cli.s3server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The requests whose bodies are XML, answered by the embedded S3 server on this module's classpath
 * (the demo's and the tests' server): a 12 MiB multi-part upload (CompleteMultipartUpload) and a
 * multi-object delete (DeleteObjects). Both were answered 500 while the classpath held a Jackson
 * older than the one S3Proxy's XML reader needs (NoSuchFieldError inside S3Proxy), which made every
 * merge writing a column file above the upload part size fail for ever against the demo's server.
 */
class LocalS3ServerXmlRequestsTest {
    @TempDir Path tmp;

    @Test
    @Timeout(120)
    void multipartUploadsAndBatchDeletesSucceed() throws Exception {
        Path root = tmp.resolve("root");
        Files.createDirectories(root.resolve("bkt"));
        S3ServerCommandTest.InThread server =
                S3ServerCommandTest.InThread.start(root, "ak-xml", "sk-xml-secret");
        URI endpoint = server.endpoint();
        try (S3Client s3 = S3ServerCommandTest.client(endpoint, "ak-xml", "sk-xml-secret")) {
            byte[] partBytes = new byte[6 << 20];
            List<CompletedPart> parts = new ArrayList<>();
            String upload =
                    s3.createMultipartUpload(b -> b.bucket("bkt").key("big.bin")).uploadId();
            for (int i = 1; i <= 2; i++) {
                Arrays.fill(partBytes, (byte) i);
                int number = i;
                String etag =
                        s3.uploadPart(
                                        b ->
                                                b.bucket("bkt")
                                                        .key("big.bin")
                                                        .uploadId(upload)
                                                        .partNumber(number),
                                        RequestBody.fromBytes(partBytes))
                                .eTag();
                parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
            }
            s3.completeMultipartUpload(
                    b ->
                            b.bucket("bkt")
                                    .key("big.bin")
                                    .uploadId(upload)
                                    .multipartUpload(mu -> mu.parts(parts)));
            byte[] read = s3.getObjectAsBytes(b -> b.bucket("bkt").key("big.bin")).asByteArray();
            assertThat(read).hasSize(12 << 20);
            assertThat(read[0]).isEqualTo((byte) 1);
            assertThat(read[(12 << 20) - 1]).isEqualTo((byte) 2);

            for (String k : List.of("d/a", "d/b", "d/c")) {
                s3.putObject(b -> b.bucket("bkt").key(k), RequestBody.fromString(k));
            }
            DeleteObjectsResponse deleted =
                    s3.deleteObjects(
                            b ->
                                    b.bucket("bkt")
                                            .delete(
                                                    Delete.builder()
                                                            .objects(
                                                                    List.of("d/a", "d/b", "d/c")
                                                                            .stream()
                                                                            .map(
                                                                                    k ->
                                                                                            ObjectIdentifier
                                                                                                    .builder()
                                                                                                    .key(
                                                                                                            k)
                                                                                                    .build())
                                                                            .toList())
                                                            .build()));
            assertThat(deleted.errors()).isEmpty();
            assertThat(
                            s3.listObjectsV2(b -> b.bucket("bkt").prefix("d/")).contents().stream()
                                    .map(S3Object::key)
                                    .filter(k -> !k.endsWith("/"))
                                    .toList())
                    .isEmpty();
        } finally {
            server.command().stop();
        }
        assertThat(server.exit().get(30, TimeUnit.SECONDS)).isZero();
    }
}
