package io.github.s3mergetree.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The code shown by the docs is the code: the Java examples of {@code docs/datastream.md} are the
 * regions of {@link DataStreamDocExample} (which compiles with the tests), verbatim but for the
 * common indentation, and {@code docs/cli.md} shows what {@code s3-mergetree --help} prints.
 */
class DocSnippetsTest {
    private static final String EXAMPLE =
            "cli/src/test/java/io/github/s3mergetree/cli/docs/DataStreamDocExample.java";

    @Test
    void theDataStreamPageShowsTheCompiledExamples() throws IOException {
        Path root = OptionsReference.repositoryRoot();
        String source = Files.readString(root.resolve(EXAMPLE), StandardCharsets.UTF_8);
        String page = Files.readString(root.resolve("docs/datastream.md"), StandardCharsets.UTF_8);
        for (String region : List.of("blocks", "rows")) {
            String snippet = region(source, region);
            assertThat(snippet).as("region %s of %s", region, EXAMPLE).isNotBlank();
            String block = "```java\n" + snippet + "```\n";
            assertThat(page.contains(block))
                    .as(
                            "docs/datastream.md holds region '%s' of %s verbatim:%n%s",
                            region, EXAMPLE, block)
                    .isTrue();
        }
    }

    @Test
    void theCommandPageShowsTheCommandsOwnHelp() throws IOException {
        Path root = OptionsReference.repositoryRoot();
        String page = Files.readString(root.resolve("docs/cli.md"), StandardCharsets.UTF_8);
        String block = "```\n" + OptionsReference.commandHelp().strip() + "\n```\n";
        assertThat(page.contains(block))
                .as("docs/cli.md holds what s3-mergetree --help prints now:%n%s", block)
                .isTrue();
    }

    /** The lines between {@code // [START name]} and {@code // [END name]}, dedented. */
    static String region(String source, String name) {
        List<String> lines = new ArrayList<>();
        boolean in = false;
        for (String line : source.split("\n", -1)) {
            if (line.strip().equals("// [START " + name + "]")) {
                in = true;
            } else if (line.strip().equals("// [END " + name + "]")) {
                in = false;
            } else if (in) {
                lines.add(line);
            }
        }
        int indent =
                lines.stream()
                        .filter(l -> !l.isBlank())
                        .mapToInt(l -> l.length() - l.stripLeading().length())
                        .min()
                        .orElse(0);
        StringBuilder b = new StringBuilder();
        for (String l : lines) {
            b.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
        }
        return b.toString();
    }
}
