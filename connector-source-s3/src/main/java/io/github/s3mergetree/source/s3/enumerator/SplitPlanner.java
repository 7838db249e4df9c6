package io.github.s3mergetree.source.s3.enumerator;

import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.source.s3.format.S3ObjectFormat;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns listed objects into splits: one split per object up to {@code splitSize} bytes; larger
 * objects of a splittable format are cut into equal byte ranges of at most {@code splitSize}, so
 * several readers share them. Where a range boundary falls inside a record, the format decides who
 * owns it (Parquet: the range holding a row group's midpoint; line formats: the range where a line
 * starts).
 */
@org.apache.flink.annotation.Internal
public final class SplitPlanner {
    private final S3ObjectFormat<?> format;
    private final long splitSize;
    private final boolean compressionForced;

    public SplitPlanner(S3ObjectFormat<?> format, long splitSize) {
        this(format, splitSize, "auto");
    }

    /**
     * @param compressionMethod the {@code compression_method} option: anything but {@code auto} and
     *     {@code none} makes every object unsplittable
     */
    public SplitPlanner(S3ObjectFormat<?> format, long splitSize, String compressionMethod) {
        if (splitSize < 0) {
            throw new IllegalArgumentException("s3.split.size must be >= 0, got " + splitSize);
        }
        this.format = format;
        this.splitSize = splitSize;
        String m =
                compressionMethod == null
                        ? "auto"
                        : compressionMethod.toLowerCase(java.util.Locale.ROOT);
        this.compressionForced = !m.equals("auto") && !m.equals("none") && !m.isEmpty();
    }

    public List<S3ObjectSplit> plan(ObjectSummary o) {
        long size = o.size();
        if (splitSize == 0
                || size <= splitSize
                || compressionForced
                || !format.isSplittable(o.key())) {
            return List.of(S3ObjectSplit.of(o.key(), o.etag(), size, 0, size));
        }
        int n = (int) Math.min(Integer.MAX_VALUE, (size + splitSize - 1) / splitSize);
        List<S3ObjectSplit> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long s = size / n * i + Math.min(i, size % n);
            long e = size / n * (i + 1) + Math.min(i + 1, size % n);
            out.add(S3ObjectSplit.of(o.key(), o.etag(), size, s, e));
        }
        return out;
    }
}
