package io.github.s3mergetree.source.s3.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Arrow without {@code --add-opens=java.base/java.nio=ALL-UNNAMED}: a JVM started without the flag
 * that reads an Arrow object written by ClickHouse gets an error that names the flag (not a bare
 * {@code NoClassDefFoundError} or "Memory was leaked"); this test's own JVM (with the flag) reads
 * it.
 */
class ArrowJvmFlagTest {
    @TempDir Path dir;

    /** Run in a child JVM: reads {@code args[0]/o.arrow}, prints the rows or the error. */
    public static void main(String[] args) throws Exception {
        System.out.println(read(Path.of(args[0])));
    }

    static String read(Path dir) {
        try (FormatTesting t =
                new FormatTesting(
                        ObjectStoreConfig.localDirectory(dir.toString()).createClient(),
                        new Configuration())) {
            ArrowBlockFormat f =
                    new ArrowBlockFormat(
                            ArrowBlockFormat.Kind.ARROW, TargetSchema.parse("id UInt64, s String"));
            return "ROWS " + FormatTesting.rows(t.readAll(f, t.wholeSplit("o.arrow")));
        } catch (Throwable e) {
            StringBuilder b = new StringBuilder("ERROR " + e);
            for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                b.append("\n  caused by ").append(c);
            }
            return b.toString();
        }
    }

    @Test
    void aJvmWithoutTheFlagIsToldWhichFlagItNeeds() throws Exception {
        try (ChDb chdb = ChDb.start(dir.resolve("chdb"))) {
            chdb.execute(
                    "INSERT INTO FUNCTION file('o.arrow', 'Arrow') SELECT number AS id,"
                            + " toString(number) AS s FROM numbers(1000)"
                            + " SETTINGS engine_file_truncate_on_insert = 1");
            Files.createDirectories(dir.resolve("data"));
            Files.copy(chdb.userFilesDir().resolve("o.arrow"), dir.resolve("data/o.arrow"));
        }
        assertThat(read(dir.resolve("data"))).isEqualTo("ROWS 1000");

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p =
                new ProcessBuilder(
                                java,
                                "-cp",
                                System.getProperty("java.class.path"),
                                ArrowJvmFlagTest.class.getName(),
                                dir.resolve("data").toString())
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(out)
                .as(out)
                .containsPattern(
                        "ERROR [^\\n]*o\\.arrow[^\\n]*Arrow needs the JVM flag"
                                + " --add-opens=java\\.base/java\\.nio=ALL-UNNAMED")
                .doesNotContain("ERROR java.lang.IllegalStateException: Memory was leaked");
    }
}
