package io.github.s3mergetree.cli.s3server;

import io.github.s3mergetree.objectstore.s3proxy.AtomicConditionalPuts;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * An S3 API server (S3Proxy, filesystem store) over a local directory, bound to 127.0.0.1 only.
 *
 * <p>Buckets are the directory's subdirectories; object keys are paths below them. Requests must be
 * signed (AWS V2 or V4) with the given access key and secret key. Used by {@code demo} and {@code
 * s3-server}.
 */
public final class LocalS3Server implements AutoCloseable {
    private final BlobStoreContext context;
    private final S3Proxy proxy;

    private LocalS3Server(BlobStoreContext context, S3Proxy proxy) {
        this.context = context;
        this.proxy = proxy;
    }

    /**
     * Starts a server over {@code root} on {@code 127.0.0.1:port} ({@code 0} = a free port) and
     * waits until it accepts requests; {@link IllegalArgumentException} if a subdirectory of {@code
     * root} is not a valid S3 bucket name ({@link BucketNames}).
     */
    public static LocalS3Server start(Path root, int port, String accessKey, String secretKey)
            throws Exception {
        Objects.requireNonNull(accessKey, "accessKey");
        Objects.requireNonNull(secretKey, "secretKey");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be in 0..65535, not " + port);
        }
        BucketNames.checkBucketDirectories(root);
        BlobStoreContext context = blobStore(root);
        S3Proxy proxy =
                S3Proxy.builder()
                        .blobStore(new AtomicConditionalPuts(context.getBlobStore()))
                        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
                        .endpoint(URI.create("http://127.0.0.1:" + port))
                        .ignoreUnknownHeaders(true)
                        .build();
        try {
            proxy.start();
            long deadline = System.currentTimeMillis() + 30_000;
            while (!"STARTED".equals(proxy.getState())) {
                if ("FAILED".equals(proxy.getState()) || System.currentTimeMillis() > deadline) {
                    throw new IOException(
                            "the S3 API server did not start on 127.0.0.1:"
                                    + port
                                    + " (state "
                                    + proxy.getState()
                                    + "; is the port in use?)");
                }
                Thread.sleep(10);
            }
        } catch (Exception e) {
            try {
                proxy.stop();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            context.close();
            throw e;
        }
        return new LocalS3Server(context, proxy);
    }

    /** The port the server listens on. */
    public int port() {
        return proxy.getPort();
    }

    /** {@code http://127.0.0.1:<port>}. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port());
    }

    @Override
    public void close() throws Exception {
        try {
            proxy.stop();
        } finally {
            context.close();
        }
    }

    private static BlobStoreContext blobStore(Path root) throws IOException {
        Files.createDirectories(root);
        Properties props = new Properties();
        props.setProperty("jclouds.filesystem.basedir", root.toAbsolutePath().toString());
        return ContextBuilder.newBuilder("filesystem")
                .credentials("identity", "credential")
                .overrides(props)
                .build(BlobStoreContext.class);
    }
}
