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
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Opens a Wide MergeTree part (ours or ClickHouse's): its column list, row count and checksums;
 * {@link #verify()} recomputes what ClickHouse's {@code CHECK TABLE} recomputes (every listed
 * file's size, every compressed block's checksum, uncompressed hashes of compressed files, hashes
 * of the others, no unexpected files); {@link #readAll()} reads every column into a {@link Block}.
 */
public final class PartReader {
    /** Files a part may hold that {@code checksums.txt} does not list. */
    private static final Set<String> UNLISTED =
            Set.of(
                    "checksums.txt",
                    "columns.txt",
                    "default_compression_codec.txt",
                    "txn_version.txt",
                    "metadata_version.txt",
                    "columns_substreams.txt");

    private final Path dir;
    private final List<String> names;
    private final List<DataType> types;
    private final long rows;
    private final Checksums checksums;

    private PartReader(
            Path dir, List<String> names, List<DataType> types, long rows, Checksums checksums) {
        this.dir = dir;
        this.names = names;
        this.types = types;
        this.rows = rows;
        this.checksums = checksums;
    }

    /** Opens the part in {@code dir}, reading {@code columns.txt}, {@code count.txt}, checksums. */
    public static PartReader open(Path dir) throws IOException {
        Checksums checksums =
                Checksums.parse(
                        Files.readAllBytes(dir.resolve("checksums.txt")),
                        dir.resolve("checksums.txt").toString());
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        parseColumnsTxt(dir.resolve("columns.txt"), names, types);
        Path countFile = dir.resolve("count.txt");
        String count = Files.readString(countFile, StandardCharsets.US_ASCII);
        long rows;
        try {
            rows = Long.parseLong(count);
        } catch (NumberFormatException e) {
            throw new CorruptPartException(countFile.toString(), 0, "a decimal row count", count);
        }
        return new PartReader(dir, List.copyOf(names), List.copyOf(types), rows, checksums);
    }

    private static void parseColumnsTxt(Path file, List<String> names, List<DataType> types)
            throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.size() < 2 || !lines.get(0).equals("columns format version: 1")) {
            throw new CorruptPartException(
                    file.toString(),
                    0,
                    "columns format version: 1",
                    lines.isEmpty() ? "" : lines.get(0));
        }
        int n = Integer.parseInt(lines.get(1).replace(" columns:", ""));
        for (int i = 0; i < n; i++) {
            String line = lines.get(2 + i);
            if (!line.startsWith("`")) {
                throw new CorruptPartException(file.toString(), i + 2, "`name` Type", line);
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

    public Path directory() {
        return dir;
    }

    public String name() {
        return dir.getFileName().toString();
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
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                String n = f.getFileName().toString();
                if (!UNLISTED.contains(n) && !checksums.entries().containsKey(n)) {
                    throw new CorruptPartException(
                            f.toString(), 0, "no file (not listed in checksums.txt)", "a file");
                }
            }
        }
        for (Map.Entry<String, Checksums.Entry> e : checksums.entries().entrySet()) {
            verifyFile(e.getKey(), e.getValue());
        }
        for (String required : List.of("count.txt")) {
            if (!checksums.entries().containsKey(required)) {
                throw new CorruptPartException(
                        dir.resolve("checksums.txt").toString(),
                        0,
                        "an entry for " + required,
                        "none");
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
        for (Map.Entry<String, Checksums.Entry> e : checksums.entries().entrySet()) {
            Checksums.Entry want = e.getValue();
            if (want.compressed() && e.getKey().endsWith(".bin")) {
                Path f = dir.resolve(e.getKey());
                long size = Files.size(f);
                if (size != want.fileSize()) {
                    throw new CorruptPartException(
                            f.toString(), size, "size " + want.fileSize(), "size " + size);
                }
            } else {
                verifyFile(e.getKey(), want);
            }
        }
    }

    private void verifyFile(String name, Checksums.Entry want) throws IOException {
        Path f = dir.resolve(name);
        if (!Files.exists(f)) {
            throw new CorruptPartException(f.toString(), 0, "a file", "missing");
        }
        byte[] content = Files.readAllBytes(f);
        if (content.length != want.fileSize()) {
            throw new CorruptPartException(
                    f.toString(),
                    content.length,
                    "size " + want.fileSize(),
                    "size " + content.length);
        }
        if (want.compressed()) {
            byte[] raw = CompressedBlockReader.decompressAll(content, f.toString());
            Hash128 h = HashingOutput.hash(raw, 0, raw.length);
            if (raw.length != want.uncompressedSize() || !h.equals(want.uncompressedHash())) {
                throw new CorruptPartException(
                        f.toString(),
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
                        f.toString(), 0, "hash " + want.fileHash().toHex(), "hash " + h.toHex());
            }
        }
    }

    /**
     * Whether the part's {@code serialization.json} declares the size-stream String layout for a
     * column of {@code type}; sparse columns are refused with a clear error.
     */
    boolean stringsWithSizeStream(DataType type) throws IOException {
        Path f = dir.resolve("serialization.json");
        if (!Files.exists(f)) {
            return false;
        }
        String json = Files.readString(f).replace(" ", "");
        if (json.contains("\"kind\":\"Sparse\"")) {
            throw new UnsupportedOperationException(
                    "part "
                            + dir
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
            throw new IllegalStateException("part " + dir + " has too many rows to read at once");
        }
        List<DataType> outTypes = new ArrayList<>();
        List<Column> out = new ArrayList<>();
        for (String col : columns) {
            int i = names.indexOf(col);
            if (i < 0) {
                throw new IllegalArgumentException("part " + dir + " has no column " + col);
            }
            DataType type = types.get(i);
            BulkSerialization s =
                    BulkSerialization.forColumn(col, type, stringsWithSizeStream(type));
            Map<String, ByteSource> sources = new HashMap<>();
            for (String stream : s.streams()) {
                Path f = dir.resolve(PartWriter.fileName(stream) + ".bin");
                byte[] raw =
                        CompressedBlockReader.decompressAll(Files.readAllBytes(f), f.toString());
                sources.put(stream, new ByteArraySource(raw, f.toString()));
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
}
