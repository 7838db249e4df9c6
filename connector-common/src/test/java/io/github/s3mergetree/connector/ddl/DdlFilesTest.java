package io.github.s3mergetree.connector.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.ddl.DdlLimits;
import io.github.s3mergetree.engine.ddl.DdlParseException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A DDL file is read only within max_query_size: a larger one is refused from its size. */
class DdlFilesTest {
    @TempDir Path tmp;

    @Test
    void aFileLargerThanMaxQuerySizeIsRefusedFromItsSize() throws Exception {
        Path big = tmp.resolve("big.sql");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(200L * 1024 * 1024); // sparse: 200 MB that take no disk
        }
        assertThatThrownBy(() -> DdlFiles.read(big))
                .isInstanceOf(DdlParseException.class)
                .hasMessage(
                        "DDL file "
                                + big
                                + ": Max query size exceeded: the DDL is 209715200 bytes,"
                                + " max_query_size is 262144 bytes");
    }

    @Test
    void readsAFileUpToTheLimitAsUtf8() throws Exception {
        String ddl = "CREATE TABLE t (s String DEFAULT 'é') ENGINE = MergeTree ORDER BY s";
        Path file = tmp.resolve("t.sql");
        Files.writeString(file, ddl, StandardCharsets.UTF_8);
        int bytes = ddl.getBytes(StandardCharsets.UTF_8).length;
        assertThat(DdlFiles.read(file, DdlLimits.DEFAULTS.withMaxQuerySize(bytes))).isEqualTo(ddl);
        assertThatThrownBy(
                        () -> DdlFiles.read(file, DdlLimits.DEFAULTS.withMaxQuerySize(bytes - 1)))
                .hasMessageContaining(
                        "the DDL is " + bytes + " bytes, max_query_size is " + (bytes - 1));
        assertThatThrownBy(() -> DdlFiles.read(tmp.resolve("none.sql")))
                .isInstanceOf(NoSuchFileException.class);
    }
}
