package io.github.s3mergetree.objectstore;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
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
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
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

    /** Retries of the requests of an upload, which a caller cannot repeat once it streamed. */
    private final RetryPolicy uploadRetry;

    private final S3Client s3;
    private final int partSize;
    private final boolean conditionalWrites;

    AwsS3ObjectStoreClient(ObjectStoreConfig config) {
        this.bucket = config.bucket();
        this.uploadRetry = config.retryPolicy();
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
        this.partSize = config.uploadPartSize();
        this.conditionalWrites = config.conditionalWrites();
    }

    @Override
    public ListPage list(String prefix, String startAfter, String continuationToken, int maxKeys)
            throws IOException {
        return list(prefix, null, startAfter, continuationToken, maxKeys);
    }

    @Override
    public ListPage list(
            String prefix,
            String delimiter,
            String startAfter,
            String continuationToken,
            int maxKeys)
            throws IOException {
        ListObjectsV2Request.Builder req =
                ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).maxKeys(maxKeys);
        if (delimiter != null) {
            req.delimiter(delimiter);
        }
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
        List<String> prefixes = new ArrayList<>();
        for (CommonPrefix c : resp.commonPrefixes()) {
            prefixes.add(c.prefix());
        }
        String next = Boolean.TRUE.equals(resp.isTruncated()) ? resp.nextContinuationToken() : null;
        return new ListPage(out, prefixes, next);
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
        String contentRange = in.response().contentRange();
        if (!answersRangeFrom(contentRange, start)) {
            in.abort();
            throw new RetryableStoreException(
                    describe(key)
                            + ": GET bytes "
                            + start
                            + "-"
                            + (endExclusive - 1)
                            + " was answered "
                            + (contentRange == null
                                    ? "without a Content-Range (the whole object?)"
                                    : "with Content-Range '" + contentRange + "'")
                            + ": its body does not start at byte "
                            + start,
                    false,
                    null);
        }
        return new TranslatingInputStream(in, describe(key));
    }

    /**
     * Whether a ranged GET's answer starts at byte {@code start}: a 206 whose {@code Content-Range}
     * says so, or, from byte 0, a 200 with the whole object. A server or proxy that ignores the
     * {@code Range} header answers 200 with the object from its first byte: read as if it were the
     * range, those bytes would be stored as wrong values, without any error.
     */
    static boolean answersRangeFrom(String contentRange, long start) {
        if (contentRange == null || contentRange.isBlank()) {
            return start == 0;
        }
        return contentRange.strip().startsWith("bytes " + start + "-");
    }

    @Override
    public InputStream get(String key) throws IOException {
        ResponseInputStream<GetObjectResponse> in;
        try {
            in = s3.getObject(GetObjectRequest.builder().bucket(bucket).key(key).build());
        } catch (RuntimeException e) {
            throw translate(e, "GET " + describe(key), null);
        }
        return new TranslatingInputStream(in, describe(key));
    }

    @Override
    public String put(String key, byte[] content, WriteCondition condition) throws IOException {
        PutObjectRequest.Builder req = PutObjectRequest.builder().bucket(bucket).key(key);
        switch (condition.kind()) {
            case NONE -> {}
            case IF_ABSENT -> req.ifNoneMatch("*");
            case IF_MATCH -> req.ifMatch("\"" + condition.etag() + "\"");
        }
        if (condition.kind() != WriteCondition.Kind.NONE && !conditionalWrites) {
            throw new UnsupportedOperationException(
                    "conditional writes are switched off for s3://" + bucket);
        }
        try {
            PutObjectResponse r = s3.putObject(req.build(), RequestBody.fromBytes(content));
            return ObjectSummary.normalizeEtag(r.eTag());
        } catch (RuntimeException e) {
            throw translateWrite(e, "PUT " + describe(key) + " (" + condition.kind() + ")");
        }
    }

    @Override
    public ObjectOutput upload(String key, boolean durable) {
        return new MultipartOutput(key);
    }

    @Override
    public void copy(String sourceKey, String targetKey) throws IOException {
        try {
            s3.copyObject(
                    CopyObjectRequest.builder()
                            .sourceBucket(bucket)
                            .sourceKey(sourceKey)
                            .destinationBucket(bucket)
                            .destinationKey(targetKey)
                            .build());
        } catch (RuntimeException e) {
            throw translate(e, "COPY " + describe(sourceKey) + " to " + targetKey, null);
        }
    }

    @Override
    public void delete(String key) throws IOException {
        try {
            s3.deleteObject(b -> b.bucket(bucket).key(key));
        } catch (RuntimeException e) {
            IOException io = translate(e, "DELETE " + describe(key), null);
            if (!(io instanceof FileNotFoundException)) {
                throw io;
            }
        }
    }

    @Override
    public void deleteAll(Collection<String> keys) throws IOException {
        List<String> all = new ArrayList<>(keys);
        for (int from = 0; from < all.size(); from += 1000) {
            List<ObjectIdentifier> ids = new ArrayList<>();
            for (String k : all.subList(from, Math.min(all.size(), from + 1000))) {
                ids.add(ObjectIdentifier.builder().key(k).build());
            }
            DeleteObjectsResponse r;
            try {
                r =
                        s3.deleteObjects(
                                b ->
                                        b.bucket(bucket)
                                                .delete(
                                                        Delete.builder()
                                                                .objects(ids)
                                                                .quiet(true)
                                                                .build()));
            } catch (S3Exception e) {
                if (e.statusCode() < 500) {
                    throw translate(e, "DELETE " + ids.size() + " keys of s3://" + bucket, null);
                }
                // some S3-compatible servers fail the multi-object delete (S3Proxy's filesystem
                // store answered 500 for a batch a concurrent writer was deleting too): one by one
                for (ObjectIdentifier id : ids) {
                    delete(id.key());
                }
                continue;
            } catch (RuntimeException e) {
                throw translate(e, "DELETE " + ids.size() + " keys of s3://" + bucket, null);
            }
            if (r.hasErrors() && !r.errors().isEmpty()) {
                var first = r.errors().get(0);
                throw new RetryableStoreException(
                        "DELETE "
                                + describe(first.key())
                                + " failed: "
                                + first.code()
                                + " "
                                + first.message()
                                + " ("
                                + r.errors().size()
                                + " keys failed)",
                        false,
                        null);
            }
        }
    }

    @Override
    public boolean supportsConditionalWrites() {
        return conditionalWrites;
    }

    private IOException translateWrite(RuntimeException e, String what) {
        if (e instanceof S3Exception s && s.statusCode() == 412) {
            return new PreconditionFailedException(what + ": precondition failed (412)", e);
        }
        if (e instanceof S3Exception s && s.statusCode() == 409) {
            // a concurrent conditional write on the same key: repeat to learn who won
            return new RetryableStoreException(what + ": conflict (409)", false, e);
        }
        return translate(e, what, null);
    }

    /**
     * A streamed upload: the first {@code partSize} bytes are buffered; an object that stays
     * smaller is one PUT at close, a larger one a multipart upload of {@code partSize} parts
     * (memory: one part buffer). Each request is retried under the configuration's {@link
     * ObjectStoreConfig#retryPolicy()}.
     */
    private final class MultipartOutput extends ObjectOutput {
        private final String key;
        private byte[] buffer;
        private int used;
        private long written;
        private String uploadId;
        private final List<CompletedPart> parts = new ArrayList<>();
        private boolean done;

        MultipartOutput(String key) {
            this.key = key;
            this.buffer = new byte[Math.min(partSize, 64 * 1024)];
        }

        @Override
        public void write(int b) throws IOException {
            if (used == buffer.length) {
                makeRoom(1);
            }
            buffer[used++] = (byte) b;
            written++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                if (used == buffer.length) {
                    makeRoom(len);
                }
                int n = Math.min(len, buffer.length - used);
                System.arraycopy(b, off, buffer, used, n);
                used += n;
                off += n;
                len -= n;
                written += n;
            }
        }

        /** Grows the buffer up to the part size, then uploads the full part. */
        private void makeRoom(int wanted) throws IOException {
            if (buffer.length < partSize) {
                int grown =
                        (int)
                                Math.min(
                                        partSize,
                                        Math.max(2L * buffer.length, used + (long) wanted));
                buffer = java.util.Arrays.copyOf(buffer, grown);
                return;
            }
            uploadPart();
        }

        private void uploadPart() throws IOException {
            if (uploadId == null) {
                uploadId =
                        retried(
                                () ->
                                        s3.createMultipartUpload(b -> b.bucket(bucket).key(key))
                                                .uploadId(),
                                "start a multipart upload of " + describe(key));
            }
            int number = parts.size() + 1;
            byte[] bytes = used == buffer.length ? buffer : java.util.Arrays.copyOf(buffer, used);
            String etag =
                    retried(
                            () ->
                                    s3.uploadPart(
                                                    b ->
                                                            b.bucket(bucket)
                                                                    .key(key)
                                                                    .uploadId(uploadId)
                                                                    .partNumber(number),
                                                    RequestBody.fromBytes(bytes))
                                            .eTag(),
                            "upload part " + number + " of " + describe(key));
            parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
            used = 0;
        }

        private <T> T retried(java.util.function.Supplier<T> call, String what) throws IOException {
            return uploadRetry.call(
                    () -> {
                        try {
                            return call.get();
                        } catch (RuntimeException e) {
                            throw translate(e, what, null);
                        }
                    },
                    RetryPolicy.RetryListener.NONE,
                    RetryPolicy.Sleeper.SYSTEM);
        }

        @Override
        public long bytesWritten() {
            return written;
        }

        @Override
        public void close() throws IOException {
            if (done) {
                return;
            }
            done = true;
            try {
                if (uploadId == null) {
                    byte[] bytes = java.util.Arrays.copyOf(buffer, used);
                    retried(
                            () ->
                                    s3.putObject(
                                            b -> b.bucket(bucket).key(key),
                                            RequestBody.fromBytes(bytes)),
                            "PUT " + describe(key));
                } else {
                    if (used > 0) {
                        uploadPart();
                    }
                    retried(
                            () ->
                                    s3.completeMultipartUpload(
                                            b ->
                                                    b.bucket(bucket)
                                                            .key(key)
                                                            .uploadId(uploadId)
                                                            .multipartUpload(
                                                                    CompletedMultipartUpload
                                                                            .builder()
                                                                            .parts(parts)
                                                                            .build())),
                            "complete the multipart upload of " + describe(key));
                }
            } catch (IOException | RuntimeException e) {
                abortQuietly();
                throw e;
            } finally {
                buffer = null;
            }
        }

        @Override
        public void abort() {
            if (!done) {
                done = true;
                abortQuietly();
                buffer = null;
            }
        }

        private void abortQuietly() {
            if (uploadId != null) {
                try {
                    s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
                } catch (RuntimeException ignored) {
                    // the bucket's lifecycle rule for incomplete uploads is the safety net
                }
            }
        }
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
            return new IOException(
                    what
                            + ": "
                            + status
                            + " "
                            + (s.awsErrorDetails() == null ? "" : s.awsErrorDetails().errorCode()),
                    e);
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
