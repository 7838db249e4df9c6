package io.github.s3mergetree.cli.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.S3MergeTreeCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of the {@code s3-mergetree} command in this JVM: its exit code and what it printed to
 * stdout and stderr. The command tests of every subcommand run it this way (instead of each
 * capturing the two streams itself), and read the JSON summary line the subcommands print last.
 */
public record CommandRun(int code, String out, String err) {

    /** Runs the command with {@code args}. */
    public static CommandRun of(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code =
                new S3MergeTreeCommand(
                                new PrintStream(out, true, StandardCharsets.UTF_8),
                                new PrintStream(err, true, StandardCharsets.UTF_8))
                        .run(args);
        return new CommandRun(
                code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Runs the command with {@code args}. */
    public static CommandRun of(List<String> args) {
        return of(args.toArray(String[]::new));
    }

    /** The last line of stdout: the subcommand's JSON summary. */
    public String lastLine() {
        return lastLine(out);
    }

    /** Whole-number field {@code name} of the summary line (fails the test where it is missing). */
    public long field(String name) {
        return Long.parseLong(field(lastLine(), name, "\\d+"));
    }

    /** The last line of {@code text}. */
    public static String lastLine(String text) {
        String[] lines = text.strip().split("\n");
        return lines[lines.length - 1];
    }

    /**
     * The text of field {@code name} of JSON line {@code json}, matching {@code valueRegex} (fails
     * the test where it is missing).
     */
    public static String field(String json, String name, String valueRegex) {
        Matcher m = Pattern.compile("\"" + name + "\":(" + valueRegex + ")").matcher(json);
        assertThat(m.find()).as("%s in %s", name, json).isTrue();
        return m.group(1);
    }
}
