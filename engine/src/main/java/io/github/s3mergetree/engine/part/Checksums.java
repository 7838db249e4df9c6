package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.compress.CompressedBlockReader;
import io.github.s3mergetree.engine.compress.CompressedBlockWriter;
import io.github.s3mergetree.engine.compress.CompressionCodecs;
import io.github.s3mergetree.engine.hash.Hash128;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.io.ByteArraySource;
import io.github.s3mergetree.engine.store.PartFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The content of a part's {@code checksums.txt}: for every listed file its size and
 * HashingWriteBuffer hash, and for compressed files the size and hash of the decompressed content.
 * Written in format version 4 (an LZ4-compressed binary body, entries sorted byte-wise by name),
 * the format every ClickHouse since 18.16 writes; versions 3 and 4 are read.
 */
public final class Checksums {
    /** One file's entry. */
    public record Entry(
            long fileSize,
            Hash128 fileHash,
            boolean compressed,
            long uncompressedSize,
            Hash128 uncompressedHash) {}

    /** The file name. */
    public static final String FILE_NAME = PartFiles.CHECKSUMS;

    private static final String HEADER = "checksums format version: ";
    private final TreeMap<String, Entry> entries = new TreeMap<>(Checksums::compareBytewise);

    public void add(String file, Entry entry) {
        entries.put(file, entry);
    }

    public Map<String, Entry> entries() {
        return Collections.unmodifiableMap(entries);
    }

    /** Total bytes of all listed files. */
    public long totalBytes() {
        long t = 0;
        for (Entry e : entries.values()) {
            t += e.fileSize();
        }
        return t;
    }

    private static int compareBytewise(String a, String b) {
        byte[] x = a.getBytes(StandardCharsets.UTF_8);
        byte[] y = b.getBytes(StandardCharsets.UTF_8);
        return java.util.Arrays.compareUnsigned(x, y);
    }

    /** The bytes of {@code checksums.txt}, format version 4. */
    public byte[] serialize() {
        ByteArraySink body = new ByteArraySink(64 * entries.size() + 16);
        body.writeVarUInt(entries.size());
        byte[] hash = new byte[16];
        for (Map.Entry<String, Entry> e : entries.entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            body.writeVarUInt(name.length);
            body.write(name, 0, name.length);
            Entry v = e.getValue();
            body.writeVarUInt(v.fileSize());
            v.fileHash().writeTo(hash, 0);
            body.write(hash, 0, 16);
            body.writeByte(v.compressed() ? 1 : 0);
            if (v.compressed()) {
                body.writeVarUInt(v.uncompressedSize());
                v.uncompressedHash().writeTo(hash, 0);
                body.write(hash, 0, 16);
            }
        }
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(body.size() + 64);
            out.write((HEADER + "4\n").getBytes(StandardCharsets.US_ASCII));
            CompressedBlockWriter w =
                    new CompressedBlockWriter(out, CompressionCodecs.lz4(), 64 * 1024);
            w.write(body.buffer(), 0, body.size());
            w.close();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses {@code checksums.txt} (format versions 3 and 4). */
    public static Checksums parse(byte[] file, String nameForErrors) {
        int nl = 0;
        while (nl < file.length && file[nl] != '\n') {
            nl++;
        }
        String first = new String(file, 0, nl, StandardCharsets.US_ASCII);
        if (!first.startsWith(HEADER) || nl >= file.length) {
            throw new CorruptPartException(nameForErrors, 0, HEADER + "<version>", first);
        }
        int version;
        try {
            version = Integer.parseInt(first.substring(HEADER.length()).trim());
        } catch (NumberFormatException e) {
            throw new CorruptPartException(nameForErrors, 0, "a version number", first);
        }
        byte[] body;
        if (version == 4) {
            byte[] rest = java.util.Arrays.copyOfRange(file, nl + 1, file.length);
            body = CompressedBlockReader.decompressAll(rest, nameForErrors);
        } else if (version == 3) {
            body = java.util.Arrays.copyOfRange(file, nl + 1, file.length);
        } else {
            throw new CorruptPartException(
                    nameForErrors, 0, "checksums format version 3 or 4", first);
        }
        ByteArraySource in = new ByteArraySource(body, nameForErrors);
        Checksums c = new Checksums();
        long count = in.readVarUInt();
        byte[] hash = new byte[16];
        for (long i = 0; i < count; i++) {
            int len = (int) in.readVarUInt();
            byte[] name = new byte[len];
            in.readFully(name, 0, len);
            long size = in.readVarUInt();
            in.readFully(hash, 0, 16);
            Hash128 fileHash = Hash128.readFrom(hash, 0);
            boolean compressed = in.readByte() != 0;
            long usize = 0;
            Hash128 uhash = Hash128.ZERO;
            if (compressed) {
                usize = in.readVarUInt();
                in.readFully(hash, 0, 16);
                uhash = Hash128.readFrom(hash, 0);
            }
            c.add(
                    new String(name, StandardCharsets.UTF_8),
                    new Entry(size, fileHash, compressed, usize, uhash));
        }
        return c;
    }
}
