package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.PartName;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A part as the commit log records it: its name, where an insert's files were written ({@code
 * tmp_…}, null for a merged part, written under its final name), its sizes and, for merged parts,
 * the bytes of its {@code checksums.txt} (published only once the merge's commit won, so a crash in
 * between is completed from the log).
 *
 * @param name the part's name
 * @param temporaryDirectory the insert's temporary directory, or null
 * @param rows rows
 * @param bytesOnDisk compressed bytes of its files
 * @param dataUncompressedBytes uncompressed bytes of its column streams
 * @param checksums the {@code checksums.txt} bytes of a merged part, else null
 */
public record CommittedPart(
        PartName name,
        String temporaryDirectory,
        long rows,
        long bytesOnDisk,
        long dataUncompressedBytes,
        byte[] checksums) {
    /** Validates. */
    public CommittedPart {
        Objects.requireNonNull(name, "name");
    }

    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name.toString());
        if (temporaryDirectory != null) {
            m.put("tmp", temporaryDirectory);
        }
        m.put("rows", rows);
        m.put("bytes", bytesOnDisk);
        m.put("uncompressed", dataUncompressedBytes);
        if (checksums != null) {
            m.put("checksums", Base64.getEncoder().encodeToString(checksums));
        }
        return m;
    }

    static CommittedPart fromJson(Object v) {
        Map<String, Object> m = Json.object(v, "part");
        String name = Json.string(m, "name");
        String sums = Json.string(m, "checksums");
        return new CommittedPart(
                PartName.tryParse(name)
                        .orElseThrow(() -> new IllegalArgumentException("bad part name " + name)),
                Json.string(m, "tmp"),
                Json.number(m, "rows", 0),
                Json.number(m, "bytes", 0),
                Json.number(m, "uncompressed", 0),
                sums == null ? null : Base64.getDecoder().decode(sums));
    }
}
