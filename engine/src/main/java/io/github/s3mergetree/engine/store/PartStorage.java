package io.github.s3mergetree.engine.store;

import io.github.s3mergetree.objectstore.ObjectSummary;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The files of one part directory in a {@link TableStore} (ClickHouse's {@code IDataPartStorage}):
 * list, read, write, remove, and move or publish them with {@link PartFiles#CHECKSUMS
 * checksums.txt} last — ClickHouse takes a directory for a part only once that file is there, so
 * every move and publication of a part goes through {@link #moveTo}, and every removal through
 * {@link #remove}, which take it away first. Keys of a part's files are built here only ({@link
 * #fileKey(String, String)}).
 */
public final class PartStorage {
    private final TableStore store;
    private final String directory;

    /** The part directory {@code directory} (e.g. {@code 202401_1_1_0}, {@code tmp_…}) of store. */
    public PartStorage(TableStore store, String directory) {
        this.store = Objects.requireNonNull(store, "store");
        if (directory == null || directory.isEmpty() || directory.endsWith("/")) {
            throw new IllegalArgumentException("invalid part directory '" + directory + "'");
        }
        this.directory = directory;
    }

    /** The key of file {@code file} of part directory {@code directory}: {@code dir/file}. */
    public static String fileKey(String directory, String file) {
        return directory + "/" + file;
    }

    /** The key prefix of every file of part directory {@code directory}: {@code dir/}. */
    public static String prefix(String directory) {
        return directory + "/";
    }

    /** The store the part is in. */
    public TableStore store() {
        return store;
    }

    /** The part's directory (relative to the table). */
    public String directory() {
        return directory;
    }

    /** The key of this part's file {@code file}. */
    public String fileKey(String file) {
        return fileKey(directory, file);
    }

    /** How {@code file} of this part is named in messages (the store's location and the key). */
    public String describe(String file) {
        return store.describe(fileKey(file));
    }

    /** How this part's directory is named in messages. */
    public String describe() {
        return store.describe(directory);
    }

    /** The part's files (every object under its directory). */
    public List<ObjectSummary> list() throws IOException {
        return store.list(prefix(directory));
    }

    /** The name of {@code f}, a file of this part listed by {@link #list()}, in the part. */
    public String fileName(ObjectSummary f) {
        return f.key().substring(directory.length() + 1);
    }

    /** Whether file {@code file} of the part exists. */
    public boolean exists(String file) throws IOException {
        return store.exists(fileKey(file));
    }

    /** Whether the part is visible to ClickHouse: its {@code checksums.txt} is there. */
    public boolean hasChecksums() throws IOException {
        return exists(PartFiles.CHECKSUMS);
    }

    /** The content of file {@code file}. */
    public byte[] read(String file) throws IOException {
        return store.read(fileKey(file));
    }

    /** The content of file {@code file}, if it exists. */
    public Optional<byte[]> readIfExists(String file) throws IOException {
        return store.readIfExists(fileKey(file));
    }

    /** Writes file {@code file} ({@code durable}: synced before this returns, where it applies). */
    public void write(String file, byte[] content, boolean durable) throws IOException {
        store.write(fileKey(file), content, durable);
    }

    /** Writes {@code checksums.txt} — the last file of a part, which makes it visible. */
    public void writeChecksums(byte[] checksums, boolean durable) throws IOException {
        write(PartFiles.CHECKSUMS, checksums, durable);
    }

    /** Deletes file {@code file} (nothing if it does not exist). */
    public void delete(String file) throws IOException {
        store.delete(fileKey(file));
    }

    /** Deletes every file of the part, in no particular order (for directories nobody reads). */
    public void deleteAll() throws IOException {
        store.deletePrefix(prefix(directory));
    }

    /**
     * Removes the part: {@code checksums.txt} first — from then on ClickHouse does not see the part
     * — then the other files. {@code afterChecksums} runs in between (a crash test's fault point).
     */
    public void remove(Runnable afterChecksums) throws IOException {
        delete(PartFiles.CHECKSUMS);
        afterChecksums.run();
        deleteAll();
    }

    /** Where the {@code checksums.txt} of a part that is moved goes, and when. */
    public enum Handover {
        /**
         * The source is a temporary directory nobody takes for a part: its {@code checksums.txt} is
         * copied into the target and removed with the rest afterwards, so that a move interrupted
         * at any step can be completed from the source.
         */
        COPY,
        /**
         * The source is a visible part: its {@code checksums.txt} is taken out of it before it is
         * written into the target, so that ClickHouse never sees two copies of the part.
         */
        TAKE_OUT_FIRST
    }

    /** The steps of a {@link #moveTo move}, for fault points between them. */
    public interface MoveSteps {
        /** Every other file is in the target; {@code checksums.txt} is not. */
        default void beforeChecksums() {}

        /** The target is complete; the source's files are still there. */
        default void beforeRemovingSource() {}
    }

    /** {@link MoveSteps} that do nothing. */
    public static final MoveSteps NO_STEPS = new MoveSteps() {};

    /**
     * Moves the part's files to {@code target} (server-side copies: no bytes pass through this
     * process on S3; hard links locally): every file but {@code checksums.txt}, then {@code
     * checksums.txt} as {@code handover} says, then the source's files are removed. Every step may
     * be repeated, so a move interrupted by a crash is completed by repeating it.
     *
     * @throws FileNotFoundException if a file of the part (with {@link Handover#COPY}: its {@code
     *     checksums.txt}) is not there, e.g. because another process completed the same move and
     *     removed the source (nothing is removed from the source then)
     */
    public void moveTo(PartStorage target, Handover handover, boolean durable, MoveSteps steps)
            throws IOException {
        boolean sawChecksums = false;
        for (ObjectSummary f : list()) {
            String file = fileName(f);
            if (file.equals(PartFiles.CHECKSUMS)) {
                sawChecksums = true;
            } else {
                store.copy(f.key(), target.fileKey(file));
            }
        }
        if (!sawChecksums && handover == Handover.COPY) {
            // not found, as a copy of a file removed meanwhile is: a concurrent mover may have
            // completed this move and removed the source
            throw new FileNotFoundException(
                    "part "
                            + describe()
                            + " has no "
                            + PartFiles.CHECKSUMS
                            + ": it cannot be moved");
        }
        steps.beforeChecksums();
        if (handover == Handover.COPY) {
            store.copy(fileKey(PartFiles.CHECKSUMS), target.fileKey(PartFiles.CHECKSUMS));
        } else {
            Optional<byte[]> sums = readIfExists(PartFiles.CHECKSUMS);
            delete(PartFiles.CHECKSUMS);
            if (sums.isPresent()) {
                target.writeChecksums(sums.get(), durable);
            }
        }
        steps.beforeRemovingSource();
        deleteAll();
    }

    @Override
    public String toString() {
        return describe();
    }
}
