package io.github.s3mergetree.delivery.part;

import io.github.s3mergetree.engine.part.PartName;
import java.util.List;

/**
 * A committed part of the written table as delivery sees it: its name, rows ({@code count.txt}) and
 * every file of its directory (those {@code checksums.txt} lists and those it does not, such as
 * {@code columns.txt} and {@code checksums.txt} itself).
 */
public record DeliverablePart(PartName name, long rows, List<PartFile> files) {
    public DeliverablePart {
        files = List.copyOf(files);
    }

    /** Bytes of all files. */
    public long bytes() {
        long b = 0;
        for (PartFile f : files) {
            b += f.size();
        }
        return b;
    }
}
