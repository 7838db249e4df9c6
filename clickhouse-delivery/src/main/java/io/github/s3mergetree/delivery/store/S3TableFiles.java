package io.github.s3mergetree.delivery.store;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link TableFiles} of a table under an S3 prefix ({@code s3://bucket/prefix/}, ClickHouse's plain
 * layout: object key = prefix + relative path). {@link #createIfAbsent} is a PUT with {@code
 * If-None-Match: *}; a store that ignores the condition (S3Proxy before 2.9, some S3-compatible
 * stores) would let two deliverers both "create" a ledger record, so delivery refuses to use such a
 * store (see the module README).
 */
public final class S3TableFiles implements TableFiles {
    private final S3Client s3;
    private final String bucket;
    private final String prefix;

    /**
     * @param s3 a client the caller owns and closes
     * @param prefix the table's key prefix; a trailing {@code /} is added if missing
     */
    public S3TableFiles(S3Client s3, String bucket, String prefix) {
        this.s3 = Objects.requireNonNull(s3, "s3");
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        String p = prefix == null ? "" : prefix;
        while (p.startsWith("/")) {
            p = p.substring(1);
        }
        this.prefix = p.isEmpty() || p.endsWith("/") ? p : p + "/";
    }

    public String bucket() {
        return bucket;
    }

    /** The table's key prefix, ending in {@code /} (or empty for a bucket's root). */
    public String prefix() {
        return prefix;
    }

    private String key(String path) {
        if (path.startsWith("/") || path.contains("/../") || path.startsWith("../")) {
            throw new IllegalArgumentException("path " + path + " leaves the table's prefix");
        }
        return prefix + path;
    }

    @Override
    public Optional<byte[]> read(String path) throws IOException {
        try {
            return Optional.of(
                    s3.getObjectAsBytes(b -> b.bucket(bucket).key(key(path))).asByteArray());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw io("read", path, e);
        }
    }

    @Override
    public InputStream open(String path) throws IOException {
        try {
            return s3.getObject(b -> b.bucket(bucket).key(key(path)));
        } catch (SdkException e) {
            throw io("read", path, e);
        }
    }

    @Override
    public long size(String path) throws IOException {
        try {
            return s3.headObject(b -> b.bucket(bucket).key(key(path))).contentLength();
        } catch (SdkException e) {
            throw io("HEAD", path, e);
        }
    }

    @Override
    public void write(String path, byte[] content) throws IOException {
        try {
            s3.putObject(
                    PutObjectRequest.builder().bucket(bucket).key(key(path)).build(),
                    RequestBody.fromBytes(content));
        } catch (SdkException e) {
            throw io("write", path, e);
        }
    }

    @Override
    public boolean createIfAbsent(String path, byte[] content) throws IOException {
        try {
            s3.putObject(
                    PutObjectRequest.builder()
                            .bucket(bucket)
                            .key(key(path))
                            .ifNoneMatch("*")
                            .build(),
                    RequestBody.fromBytes(content));
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == 412 || e.statusCode() == 409) {
                return false;
            }
            throw io("create", path, e);
        } catch (SdkException e) {
            throw io("create", path, e);
        }
    }

    @Override
    public void delete(String path) throws IOException {
        try {
            s3.deleteObject(b -> b.bucket(bucket).key(key(path)));
        } catch (SdkException e) {
            throw io("delete", path, e);
        }
    }

    @Override
    public List<String> listFiles(String dir) throws IOException {
        List<String> out = new ArrayList<>();
        for (ListObjectsV2Response page : pages(dir)) {
            for (S3Object o : page.contents()) {
                String name = o.key().substring(dirKey(dir).length());
                if (!name.isEmpty()) {
                    out.add(name);
                }
            }
        }
        out.sort(null);
        return out;
    }

    @Override
    public List<String> listDirectories(String dir) throws IOException {
        List<String> out = new ArrayList<>();
        for (ListObjectsV2Response page : pages(dir)) {
            for (CommonPrefix p : page.commonPrefixes()) {
                String name = p.prefix().substring(dirKey(dir).length());
                out.add(name.endsWith("/") ? name.substring(0, name.length() - 1) : name);
            }
        }
        out.sort(null);
        return out;
    }

    private String dirKey(String dir) {
        return dir.isEmpty() ? prefix : key(dir.endsWith("/") ? dir : dir + "/");
    }

    private Iterable<ListObjectsV2Response> pages(String dir) throws IOException {
        try {
            return s3
                    .listObjectsV2Paginator(
                            ListObjectsV2Request.builder()
                                    .bucket(bucket)
                                    .prefix(dirKey(dir))
                                    .delimiter("/")
                                    .build())
                    .stream()
                    .toList();
        } catch (SdkException e) {
            throw io("list", dir, e);
        }
    }

    @Override
    public String describe(String path) {
        return "s3://" + bucket + "/" + key(path);
    }

    private IOException io(String what, String path, SdkException e) {
        return new IOException("cannot " + what + " " + describe(path) + ": " + e.getMessage(), e);
    }

    @Override
    public String toString() {
        return "s3://" + bucket + "/" + prefix;
    }
}
