package io.github.s3mergetree.objectstore.s3proxy;

import org.gaul.s3proxy.PutOptions2;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.domain.BlobMetadata;
import org.jclouds.blobstore.options.PutOptions;
import org.jclouds.blobstore.util.ForwardingBlobStore;
import org.jclouds.http.HttpResponse;
import org.jclouds.http.HttpResponseException;

/**
 * Makes S3Proxy's conditional PUTs atomic, as S3's are. S3Proxy 2.9.0 checks {@code If-None-Match}
 * / {@code If-Match} and then writes, so two writers racing for one key can both "win"; S3
 * guarantees exactly one, and the table's commit log relies on it (two TaskManagers committing at
 * once). This blob store repeats the check and the write under a lock of the key's stripe and
 * answers 412 to the loser.
 *
 * <p>The one copy of this guard: the product's embedded S3 API server ({@code s3-mergetree
 * s3-server}, the demo's server) and the tests' S3 server ({@code S3ProxyServer}) both wrap their
 * blob store in it. S3Proxy is an optional dependency of this module: whoever runs an S3Proxy has
 * it on the classpath; nothing else loads this class.
 */
public final class AtomicConditionalPuts extends ForwardingBlobStore {
    private final Object[] stripes = new Object[256];

    /** Guards the conditional PUTs into {@code delegate}. */
    public AtomicConditionalPuts(BlobStore delegate) {
        super(delegate);
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new Object();
        }
    }

    @Override
    public String putBlob(String container, Blob blob) {
        return putBlob(container, blob, PutOptions.NONE);
    }

    @Override
    public String putBlob(String container, Blob blob, PutOptions options) {
        String name = blob.getMetadata().getName();
        Object lock = stripes[Math.floorMod((container + "/" + name).hashCode(), stripes.length)];
        synchronized (lock) {
            if (options instanceof PutOptions2 o) {
                BlobMetadata current = delegate().blobMetadata(container, name);
                String ifNoneMatch = o.getIfNoneMatch();
                if (ifNoneMatch != null && ifNoneMatch.trim().equals("*") && current != null) {
                    throw preconditionFailed(container, name);
                }
                String ifMatch = o.getIfMatch();
                if (ifMatch != null
                        && (current == null || !strip(ifMatch).equals(strip(current.getETag())))) {
                    throw preconditionFailed(container, name);
                }
            }
            return delegate().putBlob(container, blob, options);
        }
    }

    private static String strip(String etag) {
        String e = etag == null ? "" : etag.trim();
        if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) {
            e = e.substring(1, e.length() - 1);
        }
        return e;
    }

    private static HttpResponseException preconditionFailed(String container, String name) {
        return new HttpResponseException(
                "precondition failed for " + container + "/" + name,
                null,
                HttpResponse.builder().statusCode(412).message("Precondition Failed").build());
    }
}
