package io.github.s3mergetree.objectstore;

import java.io.Serializable;
import java.util.Objects;

/**
 * One listed object: its key, size, ETag (pinned for every later read) and last-modified time.
 *
 * <p>Keys are untrusted input: they are only ever used as S3 keys, never as local paths.
 */
public final class ObjectSummary implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String key;
    private final long size;
    private final String etag;
    private final long lastModifiedMillis;

    public ObjectSummary(String key, long size, String etag, long lastModifiedMillis) {
        this.key = Objects.requireNonNull(key, "key");
        if (size < 0) {
            throw new IllegalArgumentException("size of " + key + " must be >= 0, got " + size);
        }
        this.size = size;
        this.etag = etag == null ? "" : normalizeEtag(etag);
        this.lastModifiedMillis = lastModifiedMillis;
    }

    /** Strips the quotes S3 puts around ETags so that listings and GET responses compare. */
    public static String normalizeEtag(String etag) {
        if (etag == null) {
            return "";
        }
        String e = etag.trim();
        if (e.startsWith("W/")) {
            e = e.substring(2);
        }
        if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) {
            e = e.substring(1, e.length() - 1);
        }
        return e;
    }

    public String key() {
        return key;
    }

    public long size() {
        return size;
    }

    public String etag() {
        return etag;
    }

    public long lastModifiedMillis() {
        return lastModifiedMillis;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ObjectSummary s
                && s.key.equals(key)
                && s.size == size
                && s.etag.equals(etag)
                && s.lastModifiedMillis == lastModifiedMillis;
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, size, etag, lastModifiedMillis);
    }

    @Override
    public String toString() {
        return key + " (" + size + " bytes, etag " + etag + ")";
    }
}
