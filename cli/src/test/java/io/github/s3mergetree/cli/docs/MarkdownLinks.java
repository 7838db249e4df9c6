package io.github.s3mergetree.cli.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The relative links of Markdown pages and whether they resolve: {@code [text](path)} and {@code
 * ![alt](path)} to a file that exists, and {@code #anchor} to a heading of the linked page
 * (GitHub's anchors: the heading lower-cased, punctuation dropped, spaces as dashes, {@code -1},
 * {@code -2} for repeats). Links inside code spans and fenced code blocks are not links; {@code
 * http(s):} and {@code mailto:} targets are not checked.
 */
final class MarkdownLinks {
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    private MarkdownLinks() {}

    /** One line per link of {@code page} that does not resolve, naming the page, line and link. */
    static List<String> broken(Path root, Path page) throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
        boolean fenced = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher m = LINK.matcher(withoutCodeSpans(line));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("(?i)(https?|mailto|ftp):.*")) {
                    continue;
                }
                String problem = problem(page, target);
                if (problem != null) {
                    problems.add(
                            root.relativize(page)
                                    + ":"
                                    + (i + 1)
                                    + ": link '"
                                    + target
                                    + "' "
                                    + problem);
                }
            }
        }
        return problems;
    }

    private static String problem(Path page, String target) throws IOException {
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path linked = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(linked)) {
            return "names no file (" + linked + ")";
        }
        if (anchor != null && linked.toString().endsWith(".md")) {
            if (!anchors(linked).contains(anchor)) {
                return "names no heading of " + linked.getFileName() + " (#" + anchor + ")";
            }
        }
        return null;
    }

    /** The anchors GitHub gives the headings of a page. */
    static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (fenced || !m.matches()) {
                continue;
            }
            String slug = slug(m.group(1));
            int n = seen.merge(slug, 1, Integer::sum);
            anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return anchors;
    }

    /** GitHub's anchor of a heading's text. */
    static String slug(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
        StringBuilder b = new StringBuilder();
        for (int cp : (Iterable<Integer>) text.toLowerCase(Locale.ROOT).codePoints()::iterator) {
            if (Character.isLetterOrDigit(cp) || cp == '-' || cp == '_') {
                b.appendCodePoint(cp);
            } else if (cp == ' ') {
                b.append('-');
            }
        }
        return b.toString();
    }

    private static String withoutCodeSpans(String line) {
        return line.replaceAll("`[^`]*`", "``");
    }
}
