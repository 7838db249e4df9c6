package io.github.s3mergetree.objectstore;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link ObjectStoreClient} over the AWS SDK v2 synchronous client with the Apache HttpClient 5
 * based HTTP client ({@code apache5-client}; the SDK's older {@code apache-client} is deprecated).
 *
 * <p>The SDK's own retries are off ({@link RetryPolicy} retries and counts); checksums are only
 * computed when required, which S3-compatible servers such as S3Proxy need. 503 and other 5xx
 * answers and client-side I/O errors become {@link RetryableStoreException}s; 412 (the pinned ETag
 * no longer matches) becomes {@link ObjectChangedException}.
 */
final class AwsS3ObjectStoreClient implements ObjectStoreClient {
    private final String bucket;
    private final S3Client s3;

    AwsS3ObjectStoreClient(ObjectStoreConfig config) {
        this.bucket = config.bucket();
        AwsCredentialsProvider credentials =
                config.accessKey() != null
                        ? StaticCredentialsProvider.create(
                                AwsBasicCredentials.create(config.accessKey(), config.secretKey()))
                        : DefaultCredentialsProvider.builder().build();
        S3ClientBuilder b =
                S3Client.builder()
                        .httpClientBuilder(
                                Apache5HttpClient.builder()
                                        .connectionTimeout(config.connectTimeout())
                                        .socketTimeout(config.requestTimeout())
                                        .maxConnections(Math.max(4, config.maxConnections())))
                        .credentialsProvider(credentials)
                        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                        .forcePathStyle(config.pathStyle())
                        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()));
        if (config.region() != null) {
            b.region(Region.of(config.region()));
        } else {
            b.region(Region.US_EAST_1);
        }
        if (config.endpoint() != null) {
            b.endpointOverride(URI.create(config.endpoint()));
        }
        this.s3 = b.build();
    }

    @Override
    public ListPage list(String prefix, String startAfter, String continuationToken, int maxKeys)
            throws IOException {
        ListObjectsV2Request.Builder req =
                ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).maxKeys(maxKeys);
        if (continuationToken != null) {
            req.continuationToken(continuationToken);
        } else if (startAfter != null && !startAfter.isEmpty()) {
            req.startAfter(startAfter);
        }
        ListObjectsV2Response resp;
        try {
            resp = s3.listObjectsV2(req.build());
        } catch (RuntimeException e) {
            throw translate(e, "list " + describe(prefix) + "*", null);
        }
        List<ObjectSummary> out = new ArrayList<>(resp.contents().size());
        for (S3Object o : resp.contents()) {
            out.add(
                    new ObjectSummary(
                            o.key(),
                            o.size() == null ? 0 : o.size(),
                            o.eTag(),
                            o.lastModified() == null ? 0 : o.lastModified().toEpochMilli()));
        }
        String next = Boolean.TRUE.equals(resp.isTruncated()) ? resp.nextContinuationToken() : null;
        return new ListPage(out, next);
    }

    @Override
    public ObjectSummary head(String key) throws IOException {
        try {
            HeadObjectResponse r =
                    s3.headObject(HeadObjectRequest.builder().bucket(bucket).key(key).build());
            return new ObjectSummary(
                    key,
                    r.contentLength() == null ? 0 : r.contentLength(),
                    r.eTag(),
                    r.lastModified() == null ? 0 : r.lastModified().toEpochMilli());
        } catch (RuntimeException e) {
            throw translate(e, "HEAD " + describe(key), null);
        }
    }

    @Override
    public InputStream get(String key, String etag, long start, long endExclusive)
            throws IOException {
        if (endExclusive <= start) {
            return InputStream.nullInputStream();
        }
        GetObjectRequest.Builder req =
                GetObjectRequest.builder()
                        .bucket(bucket)
                        .key(key)
                        .range("bytes=" + start + "-" + (endExclusive - 1));
        if (etag != null && !etag.isEmpty()) {
            req.ifMatch("\"" + etag + "\"");
        }
        ResponseInputStream<GetObjectResponse> in;
        try {
            in = s3.getObject(req.build());
        } catch (RuntimeException e) {
            throw translate(
                    e, "GET " + describe(key) + " bytes " + start + "-" + (endExclusive - 1), etag);
        }
        String actual = ObjectSummary.normalizeEtag(in.response().eTag());
        if (etag != null && !etag.isEmpty() && !actual.isEmpty() && !actual.equals(etag)) {
            in.abort();
            throw new ObjectChangedException(describe(key), etag, actual);
        }
        return new TranslatingInputStream(in, describe(key));
    }

    private IOException translate(RuntimeException e, String what, String etag) {
        if (e instanceof S3Exception s) {
            int status = s.statusCode();
            if (status == 412) {
                return new ObjectChangedException(what, etag, null);
            }
            if (status == 404) {
                FileNotFoundException f = new FileNotFoundException(what + ": not found (404)");
                f.initCause(e);
                return f;
            }
            if (status == 503 || status == 429) {
                return new RetryableStoreException(what + ": throttled (" + status + ")", true, e);
            }
            if (status >= 500) {
                return new RetryableStoreException(what + ": server error " + status, false, e);
            }
            return new IOException(what + ": " + status + " " + s.awsErrorDetails().errorCode(), e);
        }
        if (e instanceof SdkClientException) {
            return new RetryableStoreException(what + ": " + e.getMessage(), false, e);
        }
        return new IOException(what + ": " + e, e);
    }

    @Override
    public String describe(String key) {
        return "s3://" + bucket + "/" + key;
    }

    @Override
    public void close() {
        s3.close();
    }

    /** Turns I/O failures of a response body into retryable exceptions. */
    private static final class TranslatingInputStream extends InputStream {
        private final ResponseInputStream<GetObjectResponse> in;
        private final String what;

        TranslatingInputStream(ResponseInputStream<GetObjectResponse> in, String what) {
            this.in = in;
            this.what = what;
        }

        @Override
        public int read() throws IOException {
            try {
                return in.read();
            } catch (IOException | SdkClientException e) {
                throw new RetryableStoreException(what + ": body read failed: " + e, false, e);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return in.read(b, off, len);
            } catch (IOException | SdkClientException e) {
                throw new RetryableStoreException(what + ": body read failed: " + e, false, e);
            }
        }

        @Override
        public void close() {
            try {
                in.abort();
            } catch (RuntimeException ignored) {
                // best effort: the connection is discarded
            }
            try {
                in.close();
            } catch (IOException | RuntimeException ignored) {
                // closing an aborted stream may fail; nothing to do
            }
        }
    }
}
