package io.github.s3mergetree.objectstore;

import java.util.Objects;

/**
 * The precondition of a write ({@link ObjectStoreClient#put}): none, the key must not exist yet
 * ({@code If-None-Match: *}), or the key must still have a given ETag ({@code If-Match}). These
 * make an object store a compare-and-swap register, which is all a lock-free commit log needs.
 *
 * @param kind which precondition
 * @param etag the ETag {@link Kind#IF_MATCH} requires, else null
 */
public record WriteCondition(Kind kind, String etag) {
    /** The kinds of precondition. */
    public enum Kind {
        NONE,
        IF_ABSENT,
        IF_MATCH
    }

    /** Write whatever is there. */
    public static final WriteCondition NONE = new WriteCondition(Kind.NONE, null);

    /** Create only: fail if the key exists ({@code If-None-Match: *}). */
    public static final WriteCondition IF_ABSENT = new WriteCondition(Kind.IF_ABSENT, null);

    /** Validates. */
    public WriteCondition {
        Objects.requireNonNull(kind, "kind");
        if ((kind == Kind.IF_MATCH) != (etag != null && !etag.isEmpty())) {
            throw new IllegalArgumentException("If-Match needs an ETag, and only it: " + etag);
        }
    }

    /** Replace only the version with {@code etag} ({@code If-Match}). */
    public static WriteCondition ifMatch(String etag) {
        return new WriteCondition(Kind.IF_MATCH, ObjectSummary.normalizeEtag(etag));
    }
}
