package io.github.s3mergetree.source.s3.enumerator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The parked objects of a source ({@code s3.failed-objects = PARK}), as the enumerator writes them
 * to {@code s3.failed-objects.report}: one JSON document
 *
 * <pre>{@code
 * {"version":1,"failed_objects":[{"object":"s3://bucket/key","key":"key","etag":"...",
 *   "object_size":N,"range_start":N,"range_end":N,"offset":N,"records_to_skip":N,
 *   "rows_read":N,"error":"..."}]}
 * }</pre>
 *
 * <p>Each entry is one failed split (a whole object, or one byte range of a large object) at the
 * position where it failed: {@code rows_read} rows of it were emitted before the failure (and, once
 * the job's last checkpoint completed, committed by an exactly-once sink). {@link #read} turns the
 * entries back into the failed splits, which a later job can resume ({@code
 * S3SourceBuilder#setSplits}).
 *
 * <p>Why a file: the outcome of a bounded job that finished must outlive it, and Flink keeps
 * nothing of a finished job's state. The file is written through Flink's {@link FileSystem} (any
 * scheme the cluster has: local, S3, ...), to a temporary name and renamed into place.
 */
@PublicEvolving
public final class FailedObjectsReport {
    private static final ObjectMapper JSON = new ObjectMapper();

    private FailedObjectsReport() {}

    /** Writes {@code failed} (failed splits) to {@code path}; {@code describe} names an object. */
    public static void write(
            String path, Collection<S3ObjectSplit> failed, Function<String, String> describe)
            throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", 1);
        ArrayNode list = root.putArray("failed_objects");
        for (S3ObjectSplit s : failed) {
            ObjectNode o = list.addObject();
            o.put("object", describe.apply(s.key()));
            o.put("key", s.key());
            o.put("etag", s.etag());
            o.put("object_size", s.objectSize());
            o.put("range_start", s.rangeStart());
            o.put("range_end", s.rangeEnd());
            o.put("offset", s.offset());
            o.put("records_to_skip", s.recordsToSkip());
            o.put("rows_read", s.rowsRead());
            o.put("error", s.failure().orElse(""));
        }
        Path target = new Path(path);
        // a temporary file of its own: two writers never rename (or lose) each other's
        Path tmp = new Path(path + "." + java.util.UUID.randomUUID() + ".tmp");
        FileSystem fs = target.getFileSystem();
        try (OutputStream out = fs.create(tmp, FileSystem.WriteMode.OVERWRITE)) {
            JSON.writerWithDefaultPrettyPrinter().writeValue(out, root);
        }
        replace(fs, tmp, target);
    }

    /**
     * Moves {@code tmp} over {@code target} so that a reader finds the old report or the new one,
     * never none: the enumerator rewrites the report when it closes, which can be after the client
     * saw the job finish and reads it. Flink's local {@code rename} is {@code Files.move} with
     * {@code REPLACE_EXISTING}, which on POSIX deletes the target before it renames; on a local
     * file system the move is {@code ATOMIC_MOVE} instead ({@code rename(2)} replaces the target in
     * one step). Object stores' renames copy onto the target, which replaces it whole.
     */
    private static void replace(FileSystem fs, Path tmp, Path target) throws IOException {
        if ("file".equals(fs.getUri().getScheme())) {
            try {
                Files.move(
                        Paths.get(tmp.toUri().getPath()),
                        Paths.get(target.toUri().getPath()),
                        StandardCopyOption.ATOMIC_MOVE);
                return;
            } catch (IOException e) {
                fs.delete(tmp, false);
                throw new IOException("could not rename " + tmp + " to " + target, e);
            }
        }
        if (!fs.rename(tmp, target)) {
            fs.delete(target, false);
            if (!fs.rename(tmp, target)) {
                fs.delete(tmp, false);
                throw new IOException("could not rename " + tmp + " to " + target);
            }
        }
    }

    /** The failed splits listed in {@code path}; empty when it does not exist. */
    public static List<S3ObjectSplit> read(String path) throws IOException {
        Path p = new Path(path);
        FileSystem fs = p.getFileSystem();
        if (!fs.exists(p)) {
            return List.of();
        }
        JsonNode root;
        try (InputStream in = fs.open(p)) {
            root = JSON.readTree(in);
        }
        if (root == null || root.path("version").asInt() != 1) {
            throw new IOException(path + " is not a version-1 failed objects report");
        }
        List<S3ObjectSplit> out = new ArrayList<>();
        for (JsonNode o : root.path("failed_objects")) {
            out.add(
                    new S3ObjectSplit(
                            o.path("key").asText(),
                            o.path("etag").asText(),
                            o.path("object_size").asLong(),
                            o.path("range_start").asLong(),
                            o.path("range_end").asLong(),
                            o.path("offset").asLong(),
                            o.path("records_to_skip").asLong(),
                            o.path("rows_read").asLong(),
                            o.path("error").asText()));
        }
        return out;
    }
}
