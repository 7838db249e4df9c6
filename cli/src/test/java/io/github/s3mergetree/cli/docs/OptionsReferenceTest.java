package io.github.s3mergetree.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.sql.S3ObjectsTableOptions;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/options.md} is what {@link OptionsReference} renders from the code now: an option
 * added, removed or re-described in a {@code *Options} class fails this test until the file is
 * regenerated (the failure names the command). With {@code -Ds3mergetree.docs.regenerate=true} the
 * test rewrites the file instead.
 */
class OptionsReferenceTest {

    @Test
    void checkedInReferenceIsWhatTheOptionsClassesRender() throws Exception {
        Path file = OptionsReference.repositoryRoot().resolve(OptionsReference.DOCS_FILE);
        String rendered = OptionsReference.render();
        if (Boolean.getBoolean("s3mergetree.docs.regenerate")) {
            Files.writeString(file, rendered, StandardCharsets.UTF_8);
        }
        assertThat(file)
                .as("%s (generate it with: %s)", file, OptionsReference.REGENERATE_COMMAND)
                .isRegularFile();
        String checkedIn = Files.readString(file, StandardCharsets.UTF_8);
        String difference = OptionsDocsDifference.of(checkedIn, rendered);
        assertThat(difference)
                .as(
                        "%s differs from the *Options classes; regenerate it with: %s",
                        OptionsReference.DOCS_FILE, OptionsReference.REGENERATE_COMMAND)
                .isEmpty();
    }

    @Test
    void everyConfigOptionOfTheConnectorsHasARow() throws Exception {
        List<Class<?>> classes = OptionsReference.optionsClasses();
        assertThat(classes)
                .contains(
                        S3SourceOptions.class,
                        S3ObjectsTableOptions.class,
                        MergeTreeSinkOptions.class);
        String rendered = OptionsReference.render();
        int rows = 0;
        for (Class<?> c : classes) {
            for (Field f : OptionsReference.configOptionFields(c)) {
                ConfigOption<?> o = (ConfigOption<?>) f.get(null);
                assertThat(rendered).contains("| `" + o.key() + "`");
                rows++;
            }
        }
        assertThat(rows).isGreaterThan(50);
        assertThat(rendered)
                .contains(
                        "| `settings.max_download_threads`<br>(deprecated: `max_download_threads`)"
                                + " | Integer | `4` |")
                .contains("| `merges_at_end_of_input` |")
                .contains("s3-mergetree ingest --source");
    }

    @Test
    void aStaleReferenceIsReportedWithTheFirstDifferingLine() {
        String rendered = "# Options\n\n| `a` | Integer | `4` | A. |\n";
        String stale = "# Options\n\n| `a` | Integer | `3` | A. |\n";
        assertThat(OptionsDocsDifference.of(rendered, rendered)).isEmpty();
        assertThat(OptionsDocsDifference.of(stale, rendered))
                .isEqualTo(
                        "line 3: the file has \"| `a` | Integer | `3` | A. |\", the code renders"
                                + " \"| `a` | Integer | `4` | A. |\"");
        assertThat(OptionsDocsDifference.of("# Options\n", rendered))
                .startsWith("line 3: the file has (end of file), the code renders \"| `a`");
    }

    @Test
    void testCodeIsNotSearched() throws Exception {
        assertThat(
                        OptionsReference.isTestCode(
                                new java.net.URL(
                                        "file:/r/cli/target/test-classes/io/github/s3mergetree")))
                .isTrue();
        assertThat(
                        OptionsReference.isTestCode(
                                new java.net.URL(
                                        "jar:file:/m2/mergetree-engine-0.1.0-SNAPSHOT-tests.jar!/io/github/s3mergetree")))
                .isTrue();
        assertThat(
                        OptionsReference.isTestCode(
                                new java.net.URL(
                                        "file:/r/engine/target/classes/io/github/s3mergetree")))
                .isFalse();
    }

    @Test
    void theRepositoryRootHoldsTheCiScript() {
        assertThat(OptionsReference.repositoryRoot().resolve(".ci/run")).isRegularFile();
    }
}
