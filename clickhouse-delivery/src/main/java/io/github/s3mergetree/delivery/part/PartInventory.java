package io.github.s3mergetree.delivery.part;

import io.github.s3mergetree.engine.hash.HashingOutput;
import io.github.s3mergetree.engine.part.Checksums;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.ProjectionParts;
import io.github.s3mergetree.engine.store.PartFiles;
import io.github.s3mergetree.engine.store.PartStorage;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
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
 * <p>What is committed is the table's commit log's word ({@link MergeTreeTable#readActiveParts}):
 * its active parts, and the parts on storage those cover (the sources of a merge, kept for {@code
 * old_parts_lifetime}, which delivery may send instead of a merge that mixes delivered and new
 * blocks). A directory the log does not know (a part it removed without a cover, such as one
 * detached as broken or dropped; a part committed after the log was read, which the next round
 * sees) is not delivered. A part counts only once its {@code checksums.txt} is published (the
 * engine's publisher writes it last, after the commit entry; {@code tmp_*} directories never
 * parse). Active parts are those no other part covers, as in ClickHouse.
 */
public final class PartInventory {
    private final TableStore files;

    /** The parts of the table in {@code files} (a store the caller owns and closes). */
    public PartInventory(TableStore files) {
        this.files = files;
    }

    /** Every committed part (active or covered by a merge and not yet removed), sorted. */
    public List<PartName> committedParts() throws IOException {
        // the log first: a part committed after this read is listed but not active, and waits
        List<PartName> byLog = new ArrayList<>();
        for (ActivePart part : MergeTreeTable.readActiveParts(files)) {
            byLog.add(part.name());
        }
        List<PartName> out = new ArrayList<>();
        for (String dir : files.listDirectories("")) {
            Optional<PartName> name = PartName.tryParse(dir);
            if (name.isEmpty() || !activeOrCovered(name.get(), byLog)) {
                continue;
            }
            if (files.exists(PartStorage.fileKey(dir, PartFiles.CHECKSUMS))) {
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
                new String(
                                readRequired(PartStorage.fileKey(part.toString(), PartFiles.COUNT)),
                                StandardCharsets.US_ASCII)
                        .trim();
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
        String checksumsKey = PartStorage.fileKey(dir, PartFiles.CHECKSUMS);
        byte[] checksumsBytes = readRequired(checksumsKey);
        Map<String, Checksums.Entry> listed =
                Checksums.parse(checksumsBytes, files.describe(checksumsKey)).entries();
        List<String> projections = new ArrayList<>();
        for (String name : listed.keySet()) {
            if (ProjectionParts.isProjection(name)) {
                projections.add(name);
            }
        }
        int first = out.size();
        for (String name : files.listFileNames(dir + "/")) {
            Checksums.Entry e = listed.get(name);
            if (name.equals(PartFiles.CHECKSUMS)) {
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
                if (!files.exists(PartStorage.fileKey(dir + "/" + name, PartFiles.CHECKSUMS))) {
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
        try (InputStream in = files.openStream(dir + "/" + name)) {
            int n;
            while ((n = in.read(buf)) > 0) {
                h.update(buf, 0, n);
                size += n;
            }
        }
        return new PartFile(name, size, h.finish());
    }

    private byte[] readRequired(String path) throws IOException {
        return files.readIfExists(path)
                .orElseThrow(() -> new IOException("missing " + files.describe(path)));
    }
}
