package io.github.s3mergetree.sink.mergetree.writer;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.merge.InsertReduction;
import io.github.s3mergetree.engine.merge.MergingMode;
import io.github.s3mergetree.engine.part.PartWriter;
import io.github.s3mergetree.engine.part.Parts;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.part.WrittenPartFiles;
import io.github.s3mergetree.engine.table.BlockSplitter;
import io.github.s3mergetree.engine.table.EvaluatedKeys;
import io.github.s3mergetree.engine.table.PartitionedBlock;
import io.github.s3mergetree.engine.table.TableDirectory;
import io.github.s3mergetree.engine.table.TableLayout;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * Writes one insert block as temporary parts, one per partition: evaluates the partition and
 * sorting keys, splits and sorts ({@link BlockSplitter}), reduces rows per the engine when {@code
 * optimize_on_insert}, and writes each piece with {@link PartWriter} into a directory named for
 * this sink ({@link TempPartNames}). This is {@code MergeTreeTable.writeTemporaryParts} with the
 * directory name chosen by the sink and the sort and write phases timed separately.
 *
 * <p>Thread-safe: one instance per writer is shared by its background insert threads.
 */
@Internal
final class PartsWriter {
    private final TableLayout layout;
    private final TableDirectory directory;

    /** Phase timings of one block, in nanoseconds. */
    static final class Timings {
        long sortNanos;
        long writeNanos;
    }

    PartsWriter(TableLayout layout, TableDirectory directory) {
        this.layout = layout;
        this.directory = directory;
    }

    List<TemporaryPart> write(Block block, String purpose, Timings timings) throws IOException {
        if (block.rows() == 0) {
            return List.of();
        }
        long t0 = System.nanoTime();
        List<Column> partitionColumns = layout.partitionKey().evaluate(block, layout.evaluation());
        List<Column> sortColumns = layout.sortingKey().evaluate(block, layout.evaluation());
        EvaluatedKeys keys =
                new EvaluatedKeys(
                        layout.partitionKey().types(),
                        partitionColumns,
                        layout.minmaxColumns(),
                        layout.sortingKey().columnNames(),
                        layout.sortingKey().types(),
                        sortColumns,
                        layout.primaryKeySize());
        List<PartitionedBlock> pieces = BlockSplitter.split(block, keys);
        timings.sortNanos += System.nanoTime() - t0;
        PartWriter writer = new PartWriter(layout.partFormat());
        List<TemporaryPart> out = new ArrayList<>(pieces.size());
        try {
            for (PartitionedBlock pb : pieces) {
                long s = System.nanoTime();
                Block rows = pb.rows();
                Block pk = pb.primaryKey();
                if (layout.settings().optimizeOnInsert()
                        && layout.mergingMode().kind() != MergingMode.Kind.ORDINARY) {
                    List<Column> k = layout.sortingKey().evaluate(rows, layout.evaluation());
                    rows =
                            InsertReduction.reduce(
                                    rows, k, layout.mergingMode(), layout.sortingKey());
                    List<Column> reduced = layout.sortingKey().evaluate(rows, layout.evaluation());
                    pk =
                            new Block(
                                    pk.names(),
                                    pk.types(),
                                    reduced.subList(0, layout.primaryKeySize()));
                }
                long w = System.nanoTime();
                timings.sortNanos += w - s;
                if (rows.rows() == 0) {
                    continue;
                }
                Path tmp =
                        directory.newTemporaryPartDirectory(purpose, pb.partition().partitionId());
                try {
                    WrittenPartFiles files =
                            writer.write(
                                    new PartWriter.Input(
                                            rows, pk, pb.partition(), layout.columnCodecs()),
                                    tmp);
                    out.add(new TemporaryPart(tmp, pb.partition(), files));
                } catch (IOException | RuntimeException e) {
                    Parts.deleteRecursively(tmp);
                    throw e;
                }
                timings.writeNanos += System.nanoTime() - w;
            }
        } catch (IOException | RuntimeException e) {
            for (TemporaryPart p : out) {
                p.abort();
            }
            throw e;
        }
        return out;
    }
}
