package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.compress.CompressedBlockReader;
import io.github.s3mergetree.engine.hash.Hash128;
import io.github.s3mergetree.engine.hash.HashingOutput;
import io.github.s3mergetree.engine.io.ByteArraySource;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.serde.BulkSerialization;
import io.github.s3mergetree.engine.serde.DeserializationState;
import io.github.s3mergetree.engine.serde.NestedOffsets;
import io.github.s3mergetree.engine.store.PartFiles;
import io.github.s3mergetree.engine.store.PartStorage;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.objectstore.ObjectSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Opens a Wide MergeTree part (ours or ClickHouse's): its column list, row count and checksums;
 * {@link #verify()} recomputes what ClickHouse's {@code CHECK TABLE} recomputes (every listed
 * file's size, every compressed block's checksum, uncompressed hashes of compressed files, hashes
 * of the others, no unexpected files); {@link #readAll()} reads every column into a {@link Block}.
 * The part is a directory (key prefix) of a {@link TableStore}: local or on S3, where {@link
 * #blocks} reads the column files with ranged GETs.
 */
public final class PartReader {
    /** Files a part may hold that {@code checksums.txt} does not list. */
    private static final Set<String> UNLISTED =
            Set.of(
                    PartFiles.CHECKSUMS,
                    PartFiles.COLUMNS,
                    "default_compression_codec.txt",
                    "txn_version.txt",
                    "metadata_version.txt",
                    "columns_substreams.txt");

    private final TableStore store;
    private final String dir;
    private final List<String> names;
    private final List<DataType> types;
    private final long rows;
    private final Checksums checksums;
    private Optional<String> serializationJson;

    private PartReader(
            TableStore store,
            String dir,
            List<String> names,
            List<DataType> types,
            long rows,
            Checksums checksums) {
        this.store = store;
        this.dir = dir;
        this.names = names;
        this.types = types;
        this.rows = rows;
        this.checksums = checksums;
    }

    /**
     * Opens the part in directory {@code dir} (a key prefix without the trailing {@code /}) of
     * {@code store}, reading {@code columns.txt}, {@code count.txt} and the checksums.
     */
    public static PartReader open(TableStore store, String dir) throws IOException {
        Checksums checksums = readChecksums(store, dir);
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        parseColumnsTxt(
                store.describe(PartStorage.fileKey(dir, PartFiles.COLUMNS)),
                new String(
                        store.read(PartStorage.fileKey(dir, PartFiles.COLUMNS)),
                        StandardCharsets.UTF_8),
                names,
                types);
        String countFile = store.describe(PartStorage.fileKey(dir, PartFiles.COUNT));
        String count =
                new String(
                        store.read(PartStorage.fileKey(dir, PartFiles.COUNT)),
                        StandardCharsets.US_ASCII);
        long rows;
        try {
            rows = Long.parseLong(count);
        } catch (NumberFormatException e) {
            throw new CorruptPartException(countFile, 0, "a decimal row count", count);
        }
        return new PartReader(store, dir, List.copyOf(names), List.copyOf(types), rows, checksums);
    }

    /**
     * Opens the part in {@code dir} for {@link #verify()} only, without reading {@code
     * columns.txt}: a projection part, whose aggregate state columns have types this reader does
     * not parse.
     */
    static PartReader openForVerification(TableStore store, String dir) throws IOException {
        return new PartReader(store, dir, List.of(), List.of(), 0, readChecksums(store, dir));
    }

    /** The part's {@code checksums.txt}, parsed. */
    public static Checksums readChecksums(TableStore store, String dir) throws IOException {
        String key = PartStorage.fileKey(dir, PartFiles.CHECKSUMS);
        byte[] bytes = store.read(key);
        try {
            return Checksums.parse(bytes, store.describe(key));
        } catch (io.github.s3mergetree.engine.io.CorruptDataException e) {
            throw CorruptPartException.of(e);
        }
    }

    private static void parseColumnsTxt(
            String file, String text, List<String> names, List<DataType> types) {
        List<String> lines = Arrays.asList(text.split("\n", -1));
        if (lines.size() < 2 || !lines.get(0).equals("columns format version: 1")) {
            throw new CorruptPartException(
                    file, 0, "columns format version: 1", lines.isEmpty() ? "" : lines.get(0));
        }
        int n = Integer.parseInt(lines.get(1).replace(" columns:", ""));
        for (int i = 0; i < n; i++) {
            String line = lines.get(2 + i);
            if (!line.startsWith("`")) {
                throw new CorruptPartException(file, i + 2, "`name` Type", line);
            }
            StringBuilder name = new StringBuilder();
            int p = 1;
            while (p < line.length() && line.charAt(p) != '`') {
                if (line.charAt(p) == '\\') {
                    p++;
                }
                name.append(line.charAt(p++));
            }
            names.add(name.toString());
            types.add(DataTypeParser.parse(line.substring(p + 2)));
        }
    }

    /** The store holding the part. */
    public TableStore store() {
        return store;
    }

    /** The part's directory in its store (a key prefix without the trailing {@code /}). */
    public String directory() {
        return dir;
    }

    /** The part's directory name (its part name, or a {@code tmp_*} name). */
    public String name() {
        int slash = dir.lastIndexOf('/');
        return slash < 0 ? dir : dir.substring(slash + 1);
    }

    /** The bytes of one of the part's files ({@code partition.dat}, ...). */
    public byte[] readFile(String file) throws IOException {
        return store.read(PartStorage.fileKey(dir, file));
    }

    /**
     * The part's {@code ttl.txt} times, or null if it has no {@code ttl.txt} (a part of a table
     * without TTL, or whose TTL times are all empty).
     */
    public TtlInfos ttlInfos() throws IOException {
        if (!checksums.entries().containsKey(TtlInfos.FILE_NAME)) {
            return null;
        }
        return TtlInfos.parse(readFile(TtlInfos.FILE_NAME), describe(TtlInfos.FILE_NAME));
    }

    /** A file's full name, for messages. */
    String describe(String file) {
        return store.describe(PartStorage.fileKey(dir, file));
    }

    /** The size of one of the part's files: from the checksums, else from the store. */
    long fileSize(String file) throws IOException {
        Checksums.Entry e = checksums.entries().get(file);
        if (e != null) {
            return e.fileSize();
        }
        return store.stat(PartStorage.fileKey(dir, file))
                .map(ObjectSummary::size)
                .orElseThrow(
                        () -> new CorruptPartException(describe(file), 0, "a file", "missing"));
    }

    public long rows() {
        return rows;
    }

    public List<String> columnNames() {
        return names;
    }

    public List<DataType> columnTypes() {
        return types;
    }

    public Checksums checksums() {
        return checksums;
    }

    /**
     * Verifies the part like {@code CHECK TABLE}; throws {@link CorruptPartException} naming the
     * file, the offset and the expected and actual values on the first mismatch.
     */
    public void verify() throws IOException {
        java.util.Set<String> present = new java.util.HashSet<>();
        for (ObjectSummary o : store.list(PartStorage.prefix(dir))) {
            String n = o.key().substring(dir.length() + 1);
            if (ProjectionParts.isInListedProjection(n, checksums)) {
                continue; // verified as the projection's own part below
            }
            present.add(n);
            if (!UNLISTED.contains(n) && !checksums.entries().containsKey(n)) {
                throw new CorruptPartException(
                        describe(n), 0, "no file (not listed in checksums.txt)", "a file");
            }
        }
        for (Map.Entry<String, Checksums.Entry> e : checksums.entries().entrySet()) {
            if (ProjectionParts.isProjection(e.getKey())) {
                ProjectionParts.verify(store, dir, e.getKey(), e.getValue(), true);
                continue;
            }
            if (!present.contains(e.getKey())) {
                throw new CorruptPartException(describe(e.getKey()), 0, "a file", "missing");
            }
            verifyFile(e.getKey(), e.getValue());
        }
        for (String required : List.of(PartFiles.COUNT)) {
            if (!checksums.entries().containsKey(required)) {
                throw new CorruptPartException(
                        describe(Checksums.FILE_NAME), 0, "an entry for " + required, "none");
            }
        }
    }

    /**
     * The cheap part of {@link #verify()}, run before a merge reads the part: every listed file
     * exists with its listed size, and every file but the column data (marks, compressed or not,
     * {@code primary.idx}, {@code count.txt}, {@code partition.dat}, min/max indexes) has its
     * listed hash. The {@code .bin} files are not read here: the merge checks each of their blocks'
     * checksums as it decompresses them. These files are small (a few bytes per granule and
     * column), and a merge does not read all of them (it recomputes {@code primary.idx}), so a
     * damaged one would otherwise go unnoticed or be silently replaced.
     *
     * @throws CorruptPartException on the first mismatch, naming the file
     */
    public void verifyUncompressedFiles() throws IOException {
        java.util.Map<String, Long> sizes = new HashMap<>();
        for (ObjectSummary o : store.list(PartStorage.prefix(dir))) {
            sizes.put(o.key().substring(dir.length() + 1), o.size());
        }
        for (Map.Entry<String, Checksums.Entry> e : checksums.entries().entrySet()) {
            Checksums.Entry want = e.getValue();
            if (ProjectionParts.isProjection(e.getKey())) {
                ProjectionParts.verify(store, dir, e.getKey(), want, false);
                continue;
            }
            if (want.compressed() && e.getKey().endsWith(".bin")) {
                String f = describe(e.getKey());
                Long size = sizes.get(e.getKey());
                if (size == null) {
                    throw new CorruptPartException(f, 0, "a file", "missing");
                }
                if (size != want.fileSize()) {
                    throw new CorruptPartException(
                            f, size, "size " + want.fileSize(), "size " + size);
                }
            } else {
                if (!sizes.containsKey(e.getKey())) {
                    throw new CorruptPartException(describe(e.getKey()), 0, "a file", "missing");
                }
                verifyFile(e.getKey(), want);
            }
        }
    }

    private void verifyFile(String name, Checksums.Entry want) throws IOException {
        String f = describe(name);
        byte[] content;
        try {
            content = store.read(PartStorage.fileKey(dir, name));
        } catch (java.io.FileNotFoundException e) {
            throw new CorruptPartException(f, 0, "a file", "missing");
        }
        if (content.length != want.fileSize()) {
            throw new CorruptPartException(
                    f, content.length, "size " + want.fileSize(), "size " + content.length);
        }
        if (want.compressed()) {
            byte[] raw = decompressAll(content, f);
            Hash128 h = HashingOutput.hash(raw, 0, raw.length);
            if (raw.length != want.uncompressedSize() || !h.equals(want.uncompressedHash())) {
                throw new CorruptPartException(
                        f,
                        0,
                        "uncompressed "
                                + want.uncompressedSize()
                                + " bytes, hash "
                                + want.uncompressedHash().toHex(),
                        "uncompressed " + raw.length + " bytes, hash " + h.toHex());
            }
        } else {
            Hash128 h = HashingOutput.hash(content, 0, content.length);
            if (!h.equals(want.fileHash())) {
                throw new CorruptPartException(
                        f, 0, "hash " + want.fileHash().toHex(), "hash " + h.toHex());
            }
        }
    }

    /**
     * Whether the part's {@code serialization.json} declares the size-stream String layout for a
     * column of {@code type}; sparse columns are refused with a clear error.
     */
    boolean stringsWithSizeStream(DataType type) throws IOException {
        if (serializationJson == null) {
            serializationJson =
                    checksums.entries().containsKey("serialization.json")
                            ? store.readIfExists(dir + "/serialization.json")
                                    .map(b -> new String(b, StandardCharsets.UTF_8))
                            : Optional.empty();
        }
        if (serializationJson.isEmpty()) {
            return false;
        }
        String json = serializationJson.get().replace(" ", "");
        if (json.contains("\"kind\":\"Sparse\"")) {
            throw new UnsupportedOperationException(
                    "part "
                            + describe("")
                            + " has sparse columns (serialization.json), which are not supported");
        }
        if (!json.contains("\"string\":1")) {
            return false;
        }
        boolean propagate =
                json.contains("\"propagate_types_serialization_versions_to_nested_types\":true");
        return propagate || type.kind() == io.github.s3mergetree.engine.types.TypeKind.STRING;
    }

    /**
     * The serialization of column {@code column} of {@code type} as this part stores it: where its
     * outermost array sizes are (its own {@code <column>.size0}, or the {@code n.size0} it shares
     * with the other columns of its Nested structure, see {@link NestedOffsets}) is read from the
     * part's files, so parts written with either {@code share_nested_offsets} read back.
     */
    BulkSerialization serialization(String column, DataType type) throws IOException {
        String shared = NestedOffsets.sharedSizesStream(column, type).orElse(null);
        if (shared != null
                && (checksums.entries().containsKey(binFile(NestedOffsets.ownSizesStream(column)))
                        || !checksums.entries().containsKey(binFile(shared)))) {
            shared = null;
        }
        return BulkSerialization.forColumn(column, type, stringsWithSizeStream(type), shared, true);
    }

    private static String binFile(String stream) {
        return PartWriter.fileName(stream) + ".bin";
    }

    /**
     * Reads the named columns sequentially in blocks of at most {@code maxRows} rows, with bounded
     * memory (for merges).
     */
    public PartBlockReader blocks(List<String> columns, int maxRows) throws IOException {
        return new PartBlockReader(this, columns, maxRows, 0);
    }

    /**
     * As {@link #blocks(List, int)}, with blocks also limited to about {@code maxBytes} of
     * uncompressed column data (ClickHouse's {@code merge_max_block_size_bytes}).
     */
    public PartBlockReader blocks(List<String> columns, int maxRows, long maxBytes)
            throws IOException {
        return new PartBlockReader(this, columns, maxRows, maxBytes);
    }

    /** Reads every column of the part. */
    public Block readAll() throws IOException {
        return read(names);
    }

    /** Reads the named columns of the part, in the order given. */
    public Block read(List<String> columns) throws IOException {
        if (rows > Integer.MAX_VALUE) {
            throw new IllegalStateException(
                    "part " + describe("") + " has too many rows to read at once");
        }
        List<DataType> outTypes = new ArrayList<>();
        List<Column> out = new ArrayList<>();
        for (String col : columns) {
            int i = names.indexOf(col);
            if (i < 0) {
                throw new IllegalArgumentException(
                        "part " + describe("") + " has no column " + col);
            }
            DataType type = types.get(i);
            BulkSerialization s = serialization(col, type);
            Map<String, ByteSource> sources = new HashMap<>();
            for (String stream : s.streams()) {
                String file = PartWriter.fileName(stream) + ".bin";
                byte[] raw = decompressAll(readFile(file), describe(file));
                sources.put(stream, new ByteArraySource(raw, describe(file)));
            }
            DeserializationState state = new DeserializationState();
            s.readPrefix(sources::get, state);
            Column c = Columns.create(type, (int) rows);
            s.deserialize(c, (int) rows, sources::get, state);
            outTypes.add(type);
            out.add(c);
        }
        return new Block(columns, outTypes, out);
    }

    /** Decompresses a whole file; a damaged block is reported as a damaged part file. */
    static byte[] decompressAll(byte[] content, String file) {
        try {
            return CompressedBlockReader.decompressAll(content, file);
        } catch (CorruptPartException e) {
            throw e;
        } catch (io.github.s3mergetree.engine.io.CorruptDataException e) {
            throw CorruptPartException.of(e);
        }
    }
}
