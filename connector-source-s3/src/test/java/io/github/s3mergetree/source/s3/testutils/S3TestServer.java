package io.github.s3mergetree.source.s3.testutils;

import io.github.s3mergetree.objectstore.testing.S3ProxyServer;

/**
 * The S3 API server of the source's tests: the shared {@link S3ProxyServer} (S3Proxy 2.9.0 on
 * loopback) under the name these tests have always used.
 */
public final class S3TestServer extends S3ProxyServer {
    /** A server over jclouds' in-memory blob store. */
    public S3TestServer() throws Exception {
        super();
    }

    /** A server over jclouds' filesystem blob store rooted at {@code baseDir} (null: in memory). */
    public S3TestServer(java.nio.file.Path baseDir) throws Exception {
        super(baseDir);
    }
}
