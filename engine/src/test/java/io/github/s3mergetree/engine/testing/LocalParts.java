package io.github.s3mergetree.engine.testing;

import io.github.s3mergetree.engine.merge.MergeSpec;
import io.github.s3mergetree.engine.merge.PartMerger;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.part.PartWriter;
import io.github.s3mergetree.engine.part.PartitionData;
import io.github.s3mergetree.engine.part.Parts;
import io.github.s3mergetree.engine.part.WrittenPartFiles;
import io.github.s3mergetree.engine.store.TableStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Tests' bridge from local paths to the engine's {@link TableStore}: a part directory {@code
 * /x/t/all_1_1_0} is directory {@code all_1_1_0} of the POSIX store rooted at {@code /x/t}.
 */
public final class LocalParts {
    private LocalParts() {}

    /** The POSIX store of directory {@code dir}. */
    public static TableStore store(Path dir) {
        return TableStore.local(dir.toAbsolutePath().toString());
    }

    /** The local directory of a table in a POSIX store. */
    public static Path root(io.github.s3mergetree.engine.table.MergeTreeTable table) {
        return Path.of(table.store().location());
    }

    /** Opens the part in local directory {@code partDir}. */
    public static PartReader open(Path partDir) throws IOException {
        Path abs = partDir.toAbsolutePath();
        return PartReader.open(store(abs.getParent()), abs.getFileName().toString());
    }

    /** Writes a whole part into local directory {@code partDir} (checksums.txt included). */
    public static WrittenPartFiles write(PartWriter writer, PartWriter.Input input, Path partDir)
            throws IOException {
        Path abs = partDir.toAbsolutePath();
        Files.createDirectories(abs.getParent());
        return writer.write(input, store(abs.getParent()), abs.getFileName().toString());
    }

    /** Merges into local directory {@code outDir} and writes its checksums.txt. */
    public static WrittenPartFiles merge(
            PartWriter writer,
            List<PartReader> sources,
            MergeSpec spec,
            PartitionData partition,
            Path outDir,
            PartMerger.Progress progress,
            Boolean vertical)
            throws IOException {
        Path abs = outDir.toAbsolutePath();
        TableStore s = store(abs.getParent());
        String dir = abs.getFileName().toString();
        Path scratch = Files.createTempDirectory("merge-scratch-");
        try {
            WrittenPartFiles f =
                    new PartMerger(writer, store(scratch))
                            .merge(sources, spec, partition, s, dir, progress, vertical);
            writer.writeChecksums(s, dir, f);
            return f;
        } finally {
            // the row-source file of a vertical merge is removed by the merge; the directory here
            Parts.deleteRecursively(scratch);
        }
    }
}
