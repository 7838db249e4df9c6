package io.github.s3mergetree.delivery.part;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.delivery.store.LocalTableFiles;
import io.github.s3mergetree.delivery.store.TableFiles;
import io.github.s3mergetree.delivery.testing.WrittenTable;
import io.github.s3mergetree.engine.part.PartName;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What delivery counts as committed is the commit log's word: its active parts and the sources of
 * its merges still on storage, never a directory the log does not know, even a complete one (with
 * {@code checksums.txt}) under a valid part name; without a log in reach, the directories with
 * {@code checksums.txt}.
 */
class PartInventoryTest {
    @TempDir Path dir;

    @Test
    void committedPartsAreTheCommitLogsActivePartsAndTheSourcesOfItsMerges() throws Exception {
        WrittenTable t = WrittenTable.create(dir.resolve("t"), "");
        List<PartName> inserted = new ArrayList<>(t.insert(0, 300));
        inserted.addAll(t.insert(300, 300));
        assertThat(inserted).hasSize(6);
        PartInventory inventory = new PartInventory(new LocalTableFiles(t.dir()));
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

        // without the log: every directory with checksums.txt
        TableFiles noLog = new NoLog(new LocalTableFiles(t.dir()));
        assertThat(new PartInventory(noLog).committedParts()).contains(stray);
    }

    private static void copyDirectory(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
    }

    /** Files that do not reach the commit log. */
    private static final class NoLog implements TableFiles {
        private final TableFiles d;

        NoLog(TableFiles d) {
            this.d = d;
        }

        @Override
        public Optional<byte[]> read(String path) throws IOException {
            return d.read(path);
        }

        @Override
        public java.io.InputStream open(String path) throws IOException {
            return d.open(path);
        }

        @Override
        public long size(String path) throws IOException {
            return d.size(path);
        }

        @Override
        public void write(String path, byte[] content) throws IOException {
            d.write(path, content);
        }

        @Override
        public boolean createIfAbsent(String path, byte[] content) throws IOException {
            return d.createIfAbsent(path, content);
        }

        @Override
        public void delete(String path) throws IOException {
            d.delete(path);
        }

        @Override
        public List<String> listFiles(String dir) throws IOException {
            return d.listFiles(dir);
        }

        @Override
        public List<String> listDirectories(String dir) throws IOException {
            return d.listDirectories(dir);
        }

        @Override
        public String describe(String path) {
            return d.describe(path);
        }
    }
}
