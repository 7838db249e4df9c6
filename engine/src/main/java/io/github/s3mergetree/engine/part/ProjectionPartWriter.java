package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.hash.Hash128;
import io.github.s3mergetree.engine.hash.SipHash128;
import io.github.s3mergetree.engine.store.TableStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Writes a part's projections: for each of the table's projections a sub-part {@code <name>.proj/}
 * inside the part's directory (ClickHouse's {@code MergeTreeDataWriter::writeProjectionPart}), and
 * the entry that lists it in the parent's {@code checksums.txt}.
 *
 * <p>A projection part is a part of its own: its columns (no codecs of the table's columns, as
 * ClickHouse's projection metadata has none: the default codec), its primary index on the
 * projection's sorting key, marks, {@code count.txt}, {@code columns.txt} and {@code
 * checksums.txt}; granules are chosen from its rows as for any part, and it has no partition, no
 * min/max index and no skip indexes. It is Wide, like every part this engine writes. The parent
 * lists it as the file {@code <name>.proj} whose size is the total size of the projection's listed
 * files and whose hash is the projection's total checksum ({@code
 * MergeTreeDataPartChecksums::getTotalChecksumUInt128}), not compressed.
 */
final class ProjectionPartWriter {
    private ProjectionPartWriter() {}

    /**
     * Writes every projection of {@code options} for the part whose rows are {@code rows} into
     * {@code parentDir}, adding their entries to {@code parentChecksums}.
     */
    static void writeAll(
            PartWriterOptions options,
            TableStore store,
            String parentDir,
            Block rows,
            Checksums parentChecksums)
            throws IOException {
        PartWriterOptions own = options.withSkipIndexes(List.of()).withProjections(List.of());
        PartWriter writer = new PartWriter(own);
        for (PartProjection p : options.projections()) {
            PartProjection.Rows computed = p.compute(rows);
            if (computed.block().rows() == 0) {
                continue;
            }
            String name = p.definition().directoryName();
            WrittenPartFiles files =
                    writer.write(
                            new PartWriter.Input(
                                    computed.block(),
                                    computed.primaryKey(),
                                    PartitionData.UNPARTITIONED,
                                    Map.of()),
                            store,
                            parentDir + "/" + name);
            parentChecksums.add(name, entry(files.checksums()));
        }
    }

    /** The parent's entry for a projection part with these checksums. */
    static Checksums.Entry entry(Checksums projection) {
        return new Checksums.Entry(
                projection.totalBytes(), totalChecksum(projection), false, 0, Hash128.ZERO);
    }

    /**
     * ClickHouse's {@code getTotalChecksumUInt128}: SipHash over every listed file's name (its
     * length as UInt64, then its bytes) and file hash, in the listing's order.
     */
    static Hash128 totalChecksum(Checksums checksums) {
        SipHash128 h = new SipHash128();
        byte[] hash = new byte[Hash128.BYTES];
        for (Map.Entry<String, Checksums.Entry> e : checksums.entries().entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            h.updateLong(name.length);
            h.update(name);
            e.getValue().fileHash().writeTo(hash, 0);
            h.update(hash);
        }
        return Hash128.readFrom(h.finish(), 0);
    }
}
