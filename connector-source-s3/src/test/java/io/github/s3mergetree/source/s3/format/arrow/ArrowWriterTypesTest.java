package io.github.s3mergetree.source.s3.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.source.s3.format.ReadAsClickHouse;
import io.github.s3mergetree.source.s3.format.RealWorldFilesITCase;
import io.github.s3mergetree.source.s3.format.RealWorldFilesITCase.Case;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Arrow types and shapes that pyarrow writes and Arrow Java does not read as ClickHouse does, one
 * feature per test, against chDB ({@code tools/realworld/arrow_cases.py} writes the files): {@code
 * decimal32} / {@code decimal64} (whose schema Arrow Java refuses; read through {@link
 * ArrowSchemas}) into equal, wider and other-scale targets; {@code Utf8View} / {@code BinaryView}
 * inline, in several variadic buffers, empty, NULL and not UTF-8; NULL struct, list, map and
 * fixed-size list slots over stored children (ClickHouse reads the children as stored), in Arrow
 * and in Parquet. Each case as an IPC file and as an IPC stream.
 */
class ArrowWriterTypesTest {
    @ChDbSession static ChDb chdb;

    @TempDir static Path dir;

    static List<Case> cases;

    @BeforeAll
    static void generate() throws Exception {
        cases = RealWorldFilesITCase.generate("arrow_cases.py", dir.resolve("files"));
    }

    /** Every case of files named {@code prefix*} read as chDB reads it; how many there were. */
    private static int assertSameAsClickHouse(String prefix) throws Exception {
        List<String> done = new ArrayList<>();
        for (Case c : cases) {
            if (c.file().startsWith(prefix)) {
                long rows =
                        ReadAsClickHouse.assertSame(
                                chdb,
                                dir.resolve("files").resolve(c.file()),
                                c.format(),
                                c.structure());
                assertThat(rows).as("%s as %s", c.file(), c.structure()).isPositive();
                done.add(c.file() + " as " + c.structure());
            }
        }
        return done.size();
    }

    @Test
    void decimal32AndDecimal64() throws Exception {
        // 4 targets, file and stream
        assertThat(assertSameAsClickHouse("decimal32-64.")).isEqualTo(8);
    }

    @Test
    void stringAndBinaryViews() throws Exception {
        assertThat(assertSameAsClickHouse("views.")).isEqualTo(4);
        assertThat(assertSameAsClickHouse("views-variadic.")).isEqualTo(2);
    }

    @Test
    void nullParentsAsClickHouseReadsThem() throws Exception {
        // Nullable and plain children; Arrow file, stream and Parquet
        assertThat(assertSameAsClickHouse("null-parents.")).isEqualTo(6);
    }
}
