package io.github.s3mergetree.delivery.part;

import io.github.s3mergetree.delivery.store.TableFiles;
import io.github.s3mergetree.engine.hash.HashingOutput;
import io.github.s3mergetree.engine.part.Checksums;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.ProjectionParts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads which parts the written table has and what files they consist of.
 *
 * <p>What is committed is the table's commit log's word ({@link
 * TableFiles#activePartsByCommitLog}): its active parts, and the parts on storage those cover (the
 * sources of a merge, kept for {@code old_parts_lifetime}, which delivery may send instead of a
 * merge that mixes delivered and new blocks). A directory the log does not know (a part it removed
 * without a cover, such as one detached as broken or dropped; a part committed after the log was
 * read, which the next round sees) is not delivered. A part counts only once its {@code
 * checksums.txt} is published (the engine's publisher writes it last, after the commit entry;
 * {@code tmp_*} directories never parse). Without a commit log in reach, the directories with
 * {@code checksums.txt} are the committed parts. Active parts are those no other part covers, as in
 * ClickHouse.
 */
public final class PartInventory {
    private final TableFiles files;

    public PartInventory(TableFiles files) {
        this.files = files;
    }

    /** Every committed part (active or covered by a merge and not yet removed), sorted. */
    public List<PartName> committedParts() throws IOException {
        // the log first: a part committed after this read is listed but not active, and waits
        Optional<List<PartName>> byLog = files.activePartsByCommitLog();
        List<PartName> out = new ArrayList<>();
        for (String dir : files.listDirectories("")) {
            Optional<PartName> name = PartName.tryParse(dir);
            if (name.isEmpty()
                    || (byLog.isPresent() && !activeOrCovered(name.get(), byLog.get()))) {
                continue;
            }
            if (files.listFiles(dir).contains("checksums.txt")) {
                out.add(name.get());
            }
        }
        out.sort(null);
        return out;
    }

    private static boolean activeOrCovered(PartName part, List<PartName> active) {
        for (PartName a : active) {
            if (a.equals(part) || a.contains(part)) {
                return true;
            }
        }
        return false;
    }

    /** The parts of {@code all} that no other part of {@code all} covers. */
    public static List<PartName> active(List<PartName> all) {
        List<PartName> active = new ArrayList<>();
        for (PartName p : all) {
            boolean covered = false;
            for (PartName q : all) {
                if (!q.equals(p) && q.contains(p)) {
                    covered = true;
                    break;
                }
            }
            if (!covered) {
                active.add(p);
            }
        }
        return active;
    }

    /** Rows of {@code part} (its {@code count.txt}). */
    public long rows(PartName part) throws IOException {
        String count =
                new String(readRequired(part + "/count.txt"), StandardCharsets.US_ASCII).trim();
        try {
            return Long.parseLong(count);
        } catch (NumberFormatException e) {
            throw new IOException(
                    "bad count.txt in " + files.describe(part.toString()) + ": '" + count + "'", e);
        }
    }

    /**
     * Every file of {@code part} with its size and checksum: listed files from {@code
     * checksums.txt}, the others (and {@code checksums.txt}) hashed by reading them.
     */
    public DeliverablePart describe(PartName part) throws IOException {
        String dir = part.toString();
        List<PartFile> out = new ArrayList<>();
        for (String projection : describeFiles(dir, out)) {
            // a projection sub-part: its files, named <name>.proj/<file>
            List<PartFile> own = new ArrayList<>();
            describeFiles(dir + "/" + projection, own);
            for (PartFile f : own) {
                out.add(new PartFile(projection + "/" + f.name(), f.size(), f.checksum()));
            }
        }
        return new DeliverablePart(part, rows(part), out);
    }

    /**
     * Adds the files of the part (or projection part) in {@code dir} to {@code out}; returns the
     * projection sub-parts its {@code checksums.txt} lists ({@code <name>.proj}).
     */
    private List<String> describeFiles(String dir, List<PartFile> out) throws IOException {
        byte[] checksumsBytes = readRequired(dir + "/checksums.txt");
        Map<String, Checksums.Entry> listed =
                Checksums.parse(checksumsBytes, files.describe(dir + "/checksums.txt")).entries();
        List<String> projections = new ArrayList<>();
        for (String name : listed.keySet()) {
            if (ProjectionParts.isProjection(name)) {
                projections.add(name);
            }
        }
        int first = out.size();
        for (String name : files.listFiles(dir)) {
            Checksums.Entry e = listed.get(name);
            if (name.equals("checksums.txt")) {
                out.add(
                        new PartFile(
                                name,
                                checksumsBytes.length,
                                HashingOutput.hash(checksumsBytes, 0, checksumsBytes.length)));
            } else if (e != null) {
                out.add(new PartFile(name, e.fileSize(), e.fileHash()));
            } else {
                out.add(hash(dir, name));
            }
        }
        List<PartFile> mine = out.subList(first, out.size());
        for (String name : listed.keySet()) {
            if (projections.contains(name)) {
                if (!files.listFiles(dir + "/" + name).contains("checksums.txt")) {
                    throw new IOException(
                            "part "
                                    + files.describe(dir)
                                    + " lists projection "
                                    + name
                                    + " in checksums.txt but has no such projection part");
                }
                continue;
            }
            if (mine.stream().noneMatch(f -> f.name().equals(name))) {
                throw new IOException(
                        "part "
                                + files.describe(dir)
                                + " lists "
                                + name
                                + " in checksums.txt but has no such file");
            }
        }
        return projections;
    }

    private PartFile hash(String dir, String name) throws IOException {
        HashingOutput h = new HashingOutput();
        long size = 0;
        byte[] buf = new byte[64 * 1024];
        try (InputStream in = files.open(dir + "/" + name)) {
            int n;
            while ((n = in.read(buf)) > 0) {
                h.update(buf, 0, n);
                size += n;
            }
        }
        return new PartFile(name, size, h.finish());
    }

    private byte[] readRequired(String path) throws IOException {
        return files.read(path)
                .orElseThrow(() -> new IOException("missing " + files.describe(path)));
    }
}
