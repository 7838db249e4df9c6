package io.github.s3mergetree.engine.compress;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.hash.Hash128;
import io.github.s3mergetree.engine.hash.HashingOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Decodes the golden parts ClickHouse wrote and checks them against their own checksums.txt. */
class GoldenPartDecodeTest {

    record Entry(
            long size,
            Hash128 hash,
            boolean compressed,
            long uncompressedSize,
            Hash128 uncompressedHash) {}

    static Path sharedDir() {
        String p = System.getProperty("shared.dir");
        Path dir = p != null ? Paths.get(p) : Paths.get("../../shared");
        return dir.toAbsolutePath().normalize();
    }

    static Path partsDir() {
        return sharedDir().resolve("reference/parts");
    }

    /** Minimal checksums.txt v4 parser: header line, then compressed blocks holding the body. */
    static Map<String, Entry> parseChecksums(Path file) throws IOException {
        byte[] raw = Files.readAllBytes(file);
        int nl = 0;
        while (raw[nl] != '\n') {
            nl++;
        }
        assertThat(new String(raw, 0, nl, StandardCharsets.US_ASCII))
                .isEqualTo("checksums format version: 4");
        byte[] body =
                CompressedBlockReader.decompressAll(
                        raw, nl + 1, raw.length - nl - 1, file.toString());
        int[] pos = {0};
        long count = varUInt(body, pos);
        Map<String, Entry> entries = new LinkedHashMap<>();
        for (long i = 0; i < count; i++) {
            int nameLen = (int) varUInt(body, pos);
            String name = new String(body, pos[0], nameLen, StandardCharsets.UTF_8);
            pos[0] += nameLen;
            long size = varUInt(body, pos);
            Hash128 hash = Hash128.readFrom(body, pos[0]);
            pos[0] += 16;
            boolean compressed = body[pos[0]++] != 0;
            long usize = 0;
            Hash128 uhash = null;
            if (compressed) {
                usize = varUInt(body, pos);
                uhash = Hash128.readFrom(body, pos[0]);
                pos[0] += 16;
            }
            entries.put(name, new Entry(size, hash, compressed, usize, uhash));
        }
        assertThat(pos[0]).isEqualTo(body.length);
        return entries;
    }

    private static long varUInt(byte[] b, int[] pos) {
        long v = 0;
        for (int shift = 0; ; shift += 7) {
            int x = b[pos[0]++] & 0xff;
            v |= (long) (x & 0x7f) << shift;
            if ((x & 0x80) == 0) {
                return v;
            }
        }
    }

    @Test
    void simplePartDecodesToWhatChecksumsTxtSays() throws IOException {
        Path part = partsDir().resolve("simple_uint32_string/all_1_1_0");
        Map<String, Entry> cs = parseChecksums(part.resolve("checksums.txt"));
        assertThat(cs).hasSize(9);

        List<Path> bins;
        try (Stream<Path> s = Files.list(part)) {
            bins = s.filter(p -> p.getFileName().toString().endsWith(".bin")).sorted().toList();
        }
        assertThat(bins)
                .extracting(p -> p.getFileName().toString())
                .containsExactly("a.bin", "s.bin", "s.size.bin");
        for (Path bin : bins) {
            String name = bin.getFileName().toString();
            byte[] file = Files.readAllBytes(bin);
            byte[] content = CompressedBlockReader.decompressAll(file, name);
            Entry e = cs.get(name);
            assertThat(e.compressed()).isTrue();
            assertThat((long) file.length).as(name).isEqualTo(e.size());
            assertThat(HashingOutput.hash(file, 0, file.length)).as(name).isEqualTo(e.hash());
            assertThat((long) content.length).as(name).isEqualTo(e.uncompressedSize());
            assertThat(HashingOutput.hash(content, 0, content.length))
                    .as(name)
                    .isEqualTo(e.uncompressedHash());
        }
        // README: a.bin uncompressed 4000 bytes, hash fc84c626dc8f526f 5a7b65d9db8d46b1 (low high)
        assertThat(cs.get("a.bin").uncompressedHash())
                .isEqualTo(new Hash128(0xfc84c626dc8f526fL, 0x5a7b65d9db8d46b1L));
    }

    @Test
    void simplePartContentReadsAsTheInsertedRows() throws IOException {
        Path part = partsDir().resolve("simple_uint32_string/all_1_1_0");
        // INSERT INTO simple SELECT number, toString(number) FROM numbers(1000)
        CompressedBlockReader a =
                new CompressedBlockReader(Files.readAllBytes(part.resolve("a.bin")), "a.bin");
        CompressedBlockReader sizes =
                new CompressedBlockReader(
                        Files.readAllBytes(part.resolve("s.size.bin")), "s.size.bin");
        CompressedBlockReader s =
                new CompressedBlockReader(Files.readAllBytes(part.resolve("s.bin")), "s.bin");
        for (int i = 0; i < 1000; i++) {
            assertThat(a.readIntLE()).isEqualTo(i);
            int len = (int) sizes.readLongLE();
            byte[] str = new byte[len];
            s.readFully(str, 0, len);
            assertThat(new String(str, StandardCharsets.US_ASCII)).isEqualTo(Integer.toString(i));
        }
        assertThat(a.eof()).isTrue();
        assertThat(sizes.eof()).isTrue();
        assertThat(s.eof()).isTrue();
        // final marks (0, 4000) etc. point at the end of the only block
        a.seek(0, 4000);
        assertThat(a.eof()).isTrue();
        a.seek(0, 3996);
        assertThat(a.readIntLE()).isEqualTo(999);
        // ZSTD(3) block written by ClickHouse: primary.cidx = UInt32 0 and 999
        byte[] pk =
                CompressedBlockReader.decompressAll(
                        Files.readAllBytes(part.resolve("primary.cidx")), "primary.cidx");
        assertThat(pk).containsExactly(0, 0, 0, 0, 0xe7, 0x03, 0, 0);
        // the stored checksum of a.bin's block as ClickHouse prints it (spec §14)
        assertThat(Hash128.readFrom(Files.readAllBytes(part.resolve("a.bin")), 0).toHex())
                .isEqualTo("19f1a729049f9365b945bd85b0a6623a");
    }

    @Test
    void everyGoldenPartMatchesItsChecksumsTxt() throws IOException {
        List<Path> parts = new ArrayList<>();
        try (Stream<Path> s = Files.walk(partsDir(), 2)) {
            s.filter(p -> Files.isRegularFile(p.resolve("checksums.txt")))
                    .sorted()
                    .forEach(parts::add);
        }
        assertThat(parts).hasSizeGreaterThanOrEqualTo(9);
        int compressedFiles = 0;
        for (Path part : parts) {
            Map<String, Entry> cs = parseChecksums(part.resolve("checksums.txt"));
            for (Map.Entry<String, Entry> me : cs.entrySet()) {
                String what =
                        part.getParent().getFileName()
                                + "/"
                                + part.getFileName()
                                + "/"
                                + me.getKey();
                byte[] file = Files.readAllBytes(part.resolve(me.getKey()));
                Entry e = me.getValue();
                assertThat((long) file.length).as(what + " size").isEqualTo(e.size());
                assertThat(HashingOutput.hash(file, 0, file.length))
                        .as(what + " hash")
                        .isEqualTo(e.hash());
                if (e.compressed()) {
                    byte[] content = CompressedBlockReader.decompressAll(file, what);
                    assertThat((long) content.length)
                            .as(what + " uncompressed size")
                            .isEqualTo(e.uncompressedSize());
                    assertThat(HashingOutput.hash(content, 0, content.length))
                            .as(what + " uncompressed hash")
                            .isEqualTo(e.uncompressedHash());
                    // the streaming reader sees the same bytes
                    CompressedBlockReader r = new CompressedBlockReader(file, what);
                    byte[] streamed = new byte[content.length];
                    for (int off = 0; off < streamed.length; off += 1000) {
                        r.readFully(streamed, off, Math.min(1000, streamed.length - off));
                    }
                    assertThat(r.eof()).isTrue();
                    assertThat(streamed).isEqualTo(content);
                    compressedFiles++;
                }
            }
        }
        assertThat(compressedFiles).isGreaterThan(50);
    }
}
