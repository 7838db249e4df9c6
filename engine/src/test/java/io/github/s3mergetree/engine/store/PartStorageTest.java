package io.github.s3mergetree.engine.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.objectstore.ObjectSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartStorageTest {
    @TempDir Path tmp;

    private TableStore store() {
        return TableStore.local(tmp.toString());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static PartStorage part(TableStore store, String dir) throws IOException {
        PartStorage p = new PartStorage(store, dir);
        p.write("a.bin", bytes("a"), false);
        p.write(PartFiles.COUNT, bytes("3"), false);
        p.writeChecksums(bytes("sums"), false);
        return p;
    }

    private static List<String> names(PartStorage p) throws IOException {
        List<String> out = new ArrayList<>();
        for (ObjectSummary f : p.list()) {
            out.add(p.fileName(f));
        }
        return out;
    }

    @Test
    void keysOfAPartsFilesAreItsDirectoryAndTheFileName() {
        assertThat(PartStorage.fileKey("all_1_1_0", PartFiles.CHECKSUMS))
                .isEqualTo("all_1_1_0/checksums.txt");
        assertThat(PartStorage.prefix("all_1_1_0")).isEqualTo("all_1_1_0/");
        assertThat(new PartStorage(store(), "tmp_x").fileKey(PartFiles.COUNT))
                .isEqualTo("tmp_x/count.txt");
        assertThatThrownBy(() -> new PartStorage(store(), "all_1_1_0/"))
                .hasMessageContaining("invalid part directory 'all_1_1_0/'");
    }

    @Test
    void aCopiedMoveWritesChecksumsLastAndKeepsTheSourceUntilTheTargetIsComplete()
            throws IOException {
        TableStore store = store();
        PartStorage source = part(store, "tmp_insert_1");
        PartStorage target = new PartStorage(store, "all_1_1_0");
        List<String> seen = new ArrayList<>();
        source.moveTo(
                target,
                PartStorage.Handover.COPY,
                false,
                new PartStorage.MoveSteps() {
                    @Override
                    public void beforeChecksums() {
                        try {
                            seen.add("target " + names(target) + " source " + names(source));
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    }

                    @Override
                    public void beforeRemovingSource() {
                        try {
                            seen.add("target " + names(target) + " source " + names(source));
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                });
        assertThat(seen)
                .containsExactly(
                        "target [a.bin, count.txt] source [a.bin, checksums.txt, count.txt]",
                        "target [a.bin, checksums.txt, count.txt]"
                                + " source [a.bin, checksums.txt, count.txt]");
        assertThat(source.list()).isEmpty();
        assertThat(new String(target.read(PartFiles.CHECKSUMS), StandardCharsets.UTF_8))
                .isEqualTo("sums");
    }

    @Test
    void aMoveOfAVisiblePartTakesItsChecksumsOutBeforeTheTargetGetsThem() throws IOException {
        TableStore store = store();
        PartStorage source = part(store, "all_1_1_0");
        PartStorage target = new PartStorage(store, "detached/broken_all_1_1_0");
        List<String> seen = new ArrayList<>();
        source.moveTo(
                target,
                PartStorage.Handover.TAKE_OUT_FIRST,
                false,
                new PartStorage.MoveSteps() {
                    @Override
                    public void beforeRemovingSource() {
                        try {
                            seen.add("target " + names(target) + " source " + names(source));
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                });
        assertThat(seen)
                .containsExactly(
                        "target [a.bin, checksums.txt, count.txt] source [a.bin, count.txt]");
        assertThat(source.list()).isEmpty();
        assertThat(target.hasChecksums()).isTrue();
    }

    @Test
    void aTemporaryPartWithoutChecksumsIsNotMovedAndKeepsItsFiles() throws IOException {
        TableStore store = store();
        PartStorage source = new PartStorage(store, "tmp_insert_2");
        source.write("a.bin", bytes("a"), false);
        PartStorage target = new PartStorage(store, "all_2_2_0");
        assertThatThrownBy(
                        () ->
                                source.moveTo(
                                        target,
                                        PartStorage.Handover.COPY,
                                        false,
                                        PartStorage.NO_STEPS))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("tmp_insert_2")
                .hasMessageContaining("has no checksums.txt");
        assertThat(names(source)).containsExactly("a.bin");
        assertThat(target.hasChecksums()).isFalse();
    }

    @Test
    void removalTakesChecksumsFirst() throws IOException {
        PartStorage p = part(store(), "all_3_3_0");
        List<List<String>> between = new ArrayList<>();
        p.remove(
                () -> {
                    try {
                        between.add(names(p));
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
        assertThat(between).containsExactly(List.of("a.bin", "count.txt"));
        assertThat(p.list()).isEmpty();
    }
}
