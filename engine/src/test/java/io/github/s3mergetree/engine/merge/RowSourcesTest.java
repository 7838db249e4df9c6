package io.github.s3mergetree.engine.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.LocalParts;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The vertical merge's row-source file reads back the runs written, for every gathered column. */
class RowSourcesTest {
    @TempDir Path dir;

    @Test
    void runsReadBackInOrderOnEveryPass() throws IOException {
        Random rnd = new Random(11);
        List<long[]> expected = new ArrayList<>();
        try (RowSources rows = new RowSources(LocalParts.store(dir))) {
            int previous = -1;
            long[] run = null;
            // 300,000 runs: several buffer refills, a run split across two buffers included
            for (int i = 0; i < 300_000; i++) {
                int source =
                        switch (rnd.nextInt(10)) {
                            case 0 -> 65535;
                            case 1 -> previous < 0 ? 0 : previous; // extends the previous run
                            default -> rnd.nextInt(300);
                        };
                long length =
                        switch (rnd.nextInt(20)) {
                            case 0 -> (1L << 40) + rnd.nextInt(1000);
                            case 1 -> Long.MAX_VALUE / 4;
                            default -> 1 + rnd.nextInt(3);
                        };
                rows.add(source, length);
                if (source == previous) {
                    run[1] += length;
                } else {
                    run = new long[] {source, length};
                    expected.add(run);
                    previous = source;
                }
            }
            rows.finishWriting();
            for (int pass = 0; pass < 2; pass++) {
                RowSources.Reader reader = rows.reader();
                List<long[]> read = new ArrayList<>();
                while (reader.next()) {
                    read.add(new long[] {reader.source(), reader.length()});
                }
                assertThat(read).hasSameSizeAs(expected);
                for (int i = 0; i < read.size(); i++) {
                    assertThat(read.get(i)).as("run %d", i).containsExactly(expected.get(i));
                }
            }
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left).as("the file is removed at close").isEmpty();
        }
    }

    @Test
    void aFileEndingInsideARunIsAnError() throws IOException {
        RowSources rows = new RowSources(LocalParts.store(dir));
        rows.add(3, 1L << 20);
        rows.finishWriting();
        Path file;
        try (Stream<Path> files = Files.list(dir)) {
            file = files.findFirst().orElseThrow();
        }
        byte[] whole = Files.readAllBytes(file);
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(whole, 0, whole.length - 1);
        }
        RowSources.Reader reader = rows.reader();
        assertThatThrownBy(reader::next)
                .isInstanceOf(IOException.class)
                .hasMessageContaining("ends inside a run");
        rows.close();
    }
}
