package io.github.s3mergetree.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link of the user documentation resolves: README.md, BENCHMARKS.md, docs/*.md and
 * each module's README.md, to files that exist and to headings those pages have.
 */
class DocsLinksTest {

    @Test
    void everyLinkOfTheDocumentationResolves() throws IOException {
        Path root = OptionsReference.repositoryRoot();
        List<Path> pages = pages(root);
        assertThat(pages).contains(root.resolve("README.md"), root.resolve("docs/options.md"));
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            broken.addAll(MarkdownLinks.broken(root, page));
        }
        assertThat(broken).as("links that do not resolve").isEmpty();
    }

    @Test
    void aMissingFileOrHeadingIsReportedWithPageAndLine(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("b.md"), "# The `b` page: what, why\n\n## Twice\n## Twice\n");
        Files.writeString(
                dir.resolve("a.md"),
                "# A\n"
                        + "[ok](b.md) [anchor](b.md#the-b-page-what-why) [again](b.md#twice-1)"
                        + " [self](#a) [web](https://example.com/x.md)\n"
                        + "`[code](nowhere.md)`\n"
                        + "```\n[fenced](nowhere.md)\n```\n"
                        + "[gone](c.md) ![img](pic.svg)\n"
                        + "[bad anchor](b.md#nope)\n",
                StandardCharsets.UTF_8);
        assertThat(MarkdownLinks.broken(dir, dir.resolve("a.md")))
                .containsExactly(
                        "a.md:7: link 'c.md' names no file (" + dir.resolve("c.md") + ")",
                        "a.md:7: link 'pic.svg' names no file (" + dir.resolve("pic.svg") + ")",
                        "a.md:8: link 'b.md#nope' names no heading of b.md (#nope)");
    }

    /** README.md, BENCHMARKS.md, docs/**.md and the modules' README.md files. */
    static List<Path> pages(Path root) throws IOException {
        List<Path> pages = new ArrayList<>();
        for (String name : List.of("README.md", "BENCHMARKS.md")) {
            if (Files.isRegularFile(root.resolve(name))) {
                pages.add(root.resolve(name));
            }
        }
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            pages.addAll(
                    docs.filter(p -> p.toString().endsWith(".md"))
                            .sorted()
                            .collect(Collectors.toList()));
        }
        try (Stream<Path> modules = Files.list(root)) {
            pages.addAll(
                    modules.map(m -> m.resolve("README.md"))
                            .filter(Files::isRegularFile)
                            .sorted()
                            .collect(Collectors.toList()));
        }
        return pages;
    }
}
