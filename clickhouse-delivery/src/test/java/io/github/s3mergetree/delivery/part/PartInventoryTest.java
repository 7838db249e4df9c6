package io.github.s3mergetree.delivery.part;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.delivery.testing.WrittenTable;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.store.TableStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What delivery counts as committed is the commit log's word: its active parts and the sources of
 * its merges still on storage, never a directory the log does not know, even a complete one (with
 * {@code checksums.txt}) under a valid part name.
 */
class PartInventoryTest {
    @TempDir Path dir;

    @Test
    void committedPartsAreTheCommitLogsActivePartsAndTheSourcesOfItsMerges() throws Exception {
        WrittenTable t = WrittenTable.create(dir.resolve("t"), "");
        List<PartName> inserted = new ArrayList<>(t.insert(0, 300));
        inserted.addAll(t.insert(300, 300));
        assertThat(inserted).hasSize(6);
        PartInventory inventory = new PartInventory(TableStore.local(t.dir().toString()));
        assertThat(inventory.committedParts()).containsExactlyInAnyOrderElementsOf(inserted);

        List<PartName> merged = t.table().optimizeFinal(false);
        assertThat(merged).hasSize(3);
        List<PartName> expected = new ArrayList<>(inserted);
        expected.addAll(merged);
        assertThat(inventory.committedParts())
                .as("merged parts and their sources still on storage")
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(PartInventory.active(inventory.committedParts()))
                .containsExactlyInAnyOrderElementsOf(merged);

        // a complete part directory the log never committed (copied in by hand, or left by a
        // part the log removed without a cover): not delivered
        PartName stray =
                PartName.tryParse(merged.get(0).partitionId() + "_900_900_0").orElseThrow();
        copyDirectory(
                t.dir().resolve(inserted.get(0).toString()), t.dir().resolve(stray.toString()));
        assertThat(inventory.committedParts()).doesNotContain(stray);
    }

    private static void copyDirectory(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
    }
}
