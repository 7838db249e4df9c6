package io.github.s3mergetree.cli.parts;

import io.github.s3mergetree.cli.args.Args;
import io.github.s3mergetree.cli.command.Subcommand;
import io.github.s3mergetree.engine.part.CorruptPartException;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayouts;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code s3-mergetree check --table-path DIR}: verifies every active part as ClickHouse's {@code
 * CHECK TABLE} does.
 *
 * <p>For each active part, {@link PartReader#verify()} checks that every file listed in {@code
 * checksums.txt} exists with the listed size and hash (compressed files: every block's CityHash128
 * and the uncompressed size and hash), that no unlisted file is there, and that {@code count.txt}
 * is listed. One line per part on stdout: {@code <part> OK}, or {@code <part> CORRUPT file <file>
 * at offset <n>: expected ..., actual ...}, or {@code <part> ERROR <problem>} when the part cannot
 * be read at all (e.g. no {@code checksums.txt}). The last line is a JSON summary {@code
 * {"parts":N,"ok":K,"failed":F}}. Exit code 0 when every part is OK, 1 otherwise. By default the
 * table is only read: nothing is moved to {@code detached/}; parts already there as {@code
 * broken_*} are counted in a note on stderr.
 *
 * <p>With {@code --detach-broken}, each part that fails is then moved to {@code
 * detached/broken_<name>} as a merge that finds a broken part does (a detach entry in the commit
 * log, a {@code RemovePart} event in the part log naming the problem), so later merges and ingests
 * go on without it; the summary gets {@code "detached":D}. The exit code stays 1: the table lost
 * those rows, and the operator decides what to do with the detached parts.
 */
public final class CheckCommand implements Subcommand {
    @Override
    public String name() {
        return "check";
    }

    @Override
    public String usage() {
        return "check --table-path s3://BUCKET/PREFIX|DIR [--s3-endpoint URL] [--s3-region R]"
                + " [--s3-access-key K --s3-secret-key S] [--s3-path-style] [--detach-broken]";
    }

    @Override
    public int run(List<String> argv, PrintStream out, PrintStream err) throws Exception {
        Set<String> flags = new java.util.HashSet<>(TableParts.FLAGS);
        flags.add("--verbose");
        flags.add("--detach-broken");
        Args a = Args.parse(argv, TableParts.OPTIONS, flags, Set.of());
        try (TableParts table = TableParts.open(a)) {
            return check(table, a.has("--detach-broken"), out, err);
        }
    }

    private static int check(TableParts table, boolean detach, PrintStream out, PrintStream err)
            throws IOException {
        String dir = table.storage.describe();
        List<PartName> parts = table.active();
        int width = 4;
        for (PartName p : parts) {
            width = Math.max(width, p.toString().length());
        }
        int failed = 0;
        Map<PartName, String> problems = new LinkedHashMap<>();
        for (PartName p : parts) {
            String problem = verify(table.store, p.toString());
            String name = p + " ".repeat(width - p.toString().length());
            if (problem == null) {
                out.println(name + "  OK");
            } else {
                failed++;
                problems.put(p, problem);
                out.println(name + "  " + problem);
            }
        }
        int detached = detach && !problems.isEmpty() ? detach(table, problems, err) : 0;
        err.printf(
                Locale.ROOT,
                "%s: %d active parts, %s%n",
                dir,
                parts.size(),
                failed == 0 ? "all OK" : failed + " failed the check");
        long broken = brokenDetached(table.store);
        if (broken > 0) {
            err.printf(
                    Locale.ROOT,
                    "note: detached/ holds %d part(s) moved there as broken (broken_*), not"
                            + " checked%n",
                    broken);
        }
        out.printf(
                Locale.ROOT,
                "{\"parts\":%d,\"ok\":%d,\"failed\":%d%s}%n",
                parts.size(),
                parts.size() - failed,
                failed,
                detach ? ",\"detached\":" + detached : "");
        out.flush();
        return failed == 0 ? 0 : 1;
    }

    /**
     * Moves each part of {@code problems} to {@code detached/broken_<name>} through the table's
     * commit log (a part merged or detached meanwhile by a running job is left alone).
     *
     * @return how many parts were moved
     */
    private static int detach(TableParts parts, Map<PartName, String> problems, PrintStream err)
            throws IOException {
        int n = 0;
        try (MergeTreeTable table =
                MergeTreeTable.open(
                        parts.store, TableLayouts.fromDdl(parts.ddl), Clock.systemUTC())) {
            for (Map.Entry<PartName, String> e : problems.entrySet()) {
                Optional<String> where =
                        table.detachBroken(e.getKey(), "CHECK TABLE: " + e.getValue());
                if (where.isPresent()) {
                    n++;
                    err.printf(Locale.ROOT, "%s: moved to %s%n", e.getKey(), where.get());
                } else {
                    err.printf(
                            Locale.ROOT,
                            "%s: no longer active (merged or detached meanwhile), left alone%n",
                            e.getKey());
                }
            }
        }
        return n;
    }

    /** Null when the part passes, else {@code CORRUPT ...} or {@code ERROR ...} on one line. */
    static String verify(TableStore store, String part) {
        String partDir = store.describe(part);
        try {
            PartReader.open(store, part).verify();
            return null;
        } catch (CorruptPartException e) {
            return "CORRUPT  file "
                    + relative(partDir, e.file())
                    + " at offset "
                    + e.offset()
                    + ": "
                    + oneLine(afterLocation(e.getMessage()));
        } catch (FileNotFoundException e) {
            return "ERROR  missing file "
                    + relative(partDir, e.getMessage().replaceAll(": not found.*$", ""));
        } catch (IOException | RuntimeException e) {
            return "ERROR  "
                    + oneLine(
                            e.getMessage() == null
                                    ? e.getClass().getSimpleName()
                                    : e.getMessage().replace(partDir + "/", ""));
        }
    }

    private static long brokenDetached(TableStore store) throws IOException {
        return store.listDirectories("detached/").stream()
                .filter(n -> n.startsWith("broken_"))
                .count();
    }

    /** The file's name inside the part directory (the exception may carry a full path). */
    private static String relative(String partDir, String file) {
        if (file == null) {
            return "?";
        }
        String prefix = partDir + "/";
        return file.startsWith(prefix) ? file.substring(prefix.length()) : file;
    }

    /** The message after {@code Corrupt data in file '...' at offset N: }. */
    private static String afterLocation(String message) {
        int i = message.indexOf("' at offset ");
        if (i < 0) {
            return message;
        }
        int colon = message.indexOf(": ", i);
        return colon < 0 ? message : message.substring(colon + 2);
    }

    private static String oneLine(String s) {
        return s.replace('\n', ' ').replace('\r', ' ');
    }
}
