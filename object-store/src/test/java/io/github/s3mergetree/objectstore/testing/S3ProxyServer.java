package io.github.s3mergetree.objectstore.testing;

import io.github.s3mergetree.objectstore.s3proxy.AtomicConditionalPuts;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * A real S3 API server on loopback for tests: S3Proxy 2.9.0 in-process over jclouds' transient
 * (in-memory) or filesystem blob store, plus an AWS SDK v2 client to put test objects. S3Proxy
 * 2.9.0 enforces conditional writes ({@code If-None-Match: *}, {@code If-Match}), which the table
 * store's commit log relies on; {@link AtomicConditionalPuts} (the product's guard, shared with the
 * command's embedded server) makes them atomic.
 */
public class S3ProxyServer implements AutoCloseable {
    public static final String ACCESS_KEY = "test-access";
    public static final String SECRET_KEY = "test-secret";

    private final S3Proxy proxy;
    private final BlobStoreContext context;
    private final S3Client client;
    private final java.nio.file.Path baseDir;

    /** A server over jclouds' in-memory blob store. */
    public S3ProxyServer() throws Exception {
        this(null);
    }

    /**
     * A server over jclouds' filesystem blob store rooted at {@code baseDir} (null: in memory).
     * Objects of a filesystem store can be written directly as files ({@link #writeDirect}), which
     * is much faster than PUTs for thousands of test objects.
     */
    public S3ProxyServer(java.nio.file.Path baseDir) throws Exception {
        this.baseDir = baseDir;
        Properties props = new Properties();
        if (baseDir != null) {
            props.setProperty("jclouds.filesystem.basedir", baseDir.toString());
        }
        context =
                ContextBuilder.newBuilder(baseDir == null ? "transient" : "filesystem")
                        .credentials("identity", "credential")
                        .overrides(props)
                        .build(BlobStoreContext.class);
        proxy =
                S3Proxy.builder()
                        .blobStore(new AtomicConditionalPuts(context.getBlobStore()))
                        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                        .endpoint(URI.create("http://127.0.0.1:0"))
                        .ignoreUnknownHeaders(true)
                        .v4MaxNonChunkedRequestSize(1L << 30)
                        .build();
        proxy.start();
        long deadline = System.currentTimeMillis() + 30_000;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
            }
            Thread.sleep(10);
        }
        client = newClient(endpoint());
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    public int port() {
        return proxy.getPort();
    }

    /** An SDK client configured for S3Proxy (path-style, checksums only when required). */
    public static S3Client newClient(URI endpoint) {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(
                        StaticCredentialsProvider.create(
                                AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClientBuilder(Apache5HttpClient.builder().maxConnections(16))
                .build();
    }

    public S3Client client() {
        return client;
    }

    public void createBucket(String bucket) {
        client.createBucket(b -> b.bucket(bucket));
    }

    public void put(String bucket, String key, byte[] bytes) {
        client.putObject(
                PutObjectRequest.builder().bucket(bucket).key(key).build(),
                RequestBody.fromBytes(bytes));
    }

    /** Puts many objects using a few threads. */
    public void putAll(
            String bucket, List<String> keys, java.util.function.Function<String, byte[]> body)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (String k : keys) {
                fs.add(pool.submit(() -> put(bucket, k, body.apply(k))));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Writes an object as a file of a filesystem store (its ETag is computed on read). */
    public void writeDirect(String bucket, String key, byte[] bytes) throws java.io.IOException {
        if (baseDir == null) {
            throw new IllegalStateException("writeDirect needs a filesystem store");
        }
        java.nio.file.Path p = baseDir.resolve(bucket).resolve(key);
        java.nio.file.Files.createDirectories(p.getParent());
        java.nio.file.Files.write(p, bytes);
    }

    public void delete(String bucket, String key) {
        client.deleteObject(b -> b.bucket(bucket).key(key));
    }

    @Override
    public void close() throws Exception {
        client.close();
        proxy.stop();
        context.close();
    }
}
