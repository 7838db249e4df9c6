package io.github.s3mergetree.engine.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.s3mergetree.engine.hash.CityHash102;
import io.github.s3mergetree.engine.hash.Hash128;
import io.github.s3mergetree.engine.io.CorruptDataException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CompressedBlockReaderTest {

    private record Mark(long compressedOffset, int offsetInBlock, int granule) {}

    /** Builds one block with a correct checksum from raw header fields and payload. */
    static byte[] block(int method, int compressedSize, int uncompressedSize, byte[] payload) {
        byte[] b = new byte[25 + payload.length];
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        b[16] = (byte) method;
        bb.putInt(17, compressedSize);
        bb.putInt(21, uncompressedSize);
        System.arraycopy(payload, 0, b, 25, payload.length);
        long[] h = new long[2];
        CityHash102.cityHash128(b, 16, 9 + payload.length, h);
        Hash128.of(h).writeTo(b, 0);
        return b;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] write(CompressionCodec codec, int blockSize, byte[] data)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (CompressedBlockWriter w = new CompressedBlockWriter(out, codec, blockSize)) {
            w.write(data, 0, data.length);
        }
        return out.toByteArray();
    }

    @Test
    void roundTripWithSeeksToMarks() throws IOException {
        Random rnd = new Random(11);
        for (CompressionCodec codec :
                List.of(
                        CompressionCodecs.none(),
                        CompressionCodecs.lz4(),
                        CompressionCodecs.zstd(3))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            CompressedBlockWriter w = new CompressedBlockWriter(out, codec, 1000);
            List<Mark> marks = new ArrayList<>();
            List<long[]> granules = new ArrayList<>();
            for (int g = 0; g < 60; g++) {
                if (w.pendingBytes() >= 300) {
                    w.flushBlock(); // ClickHouse's min_compress_block_size rule, scaled down
                }
                marks.add(new Mark(w.compressedOffset(), w.uncompressedOffsetInBlock(), g));
                long[] values = new long[rnd.nextInt(100)];
                for (int i = 0; i < values.length; i++) {
                    values[i] = rnd.nextInt(4) == 0 ? rnd.nextLong() : i;
                    w.writeLongLE(values[i]);
                }
                granules.add(values);
            }
            Mark end = new Mark(w.compressedOffset(), w.uncompressedOffsetInBlock(), -1);
            w.close();
            byte[] file = out.toByteArray();

            CompressedBlockReader r = new CompressedBlockReader(file, "v.bin");
            // sequential
            for (long[] values : granules) {
                for (long v : values) {
                    assertThat(r.readLongLE()).isEqualTo(v);
                }
            }
            assertThat(r.eof()).isTrue();
            // random order of marks
            List<Mark> shuffled = new ArrayList<>(marks);
            Collections.shuffle(shuffled, rnd);
            for (Mark m : shuffled) {
                r.seek(m.compressedOffset(), m.offsetInBlock());
                assertThat(r.currentBlockOffset()).isEqualTo(m.compressedOffset());
                assertThat(r.offsetInBlock()).isEqualTo(m.offsetInBlock());
                for (long v : granules.get(m.granule())) {
                    assertThat(r.readLongLE()).as("%s granule %d", codec, m.granule()).isEqualTo(v);
                }
            }
            // the final mark is the end of the stream (end of the last block or file end)
            r.seek(end.compressedOffset(), end.offsetInBlock());
            assertThat(r.eof()).isTrue();
        }
    }

    @Test
    void primitiveReadsAcrossBlockBoundaries() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompressedBlockWriter w = new CompressedBlockWriter(out, CompressionCodecs.lz4(), 3);
        w.writeByte(0xfe);
        w.writeShortLE(0xbeef);
        w.writeIntLE(0xcafebabe);
        w.writeLongLE(0x0123456789abcdefL);
        w.writeVarUInt(-1L);
        w.writeVarUInt(300);
        w.write(new byte[] {9, 8, 7, 6, 5}, 0, 5);
        w.close();
        CompressedBlockReader r = new CompressedBlockReader(out.toByteArray(), "p.bin");
        assertThat(r.readByte()).isEqualTo(0xfe);
        assertThat(r.readShortLE()).isEqualTo((short) 0xbeef);
        assertThat(r.readIntLE()).isEqualTo(0xcafebabe);
        assertThat(r.readLongLE()).isEqualTo(0x0123456789abcdefL);
        assertThat(r.readVarUInt()).isEqualTo(-1L);
        assertThat(r.readVarUInt()).isEqualTo(300);
        byte[] five = new byte[7];
        r.readFully(five, 1, 5);
        assertThat(five).containsExactly(0, 9, 8, 7, 6, 5, 0);
        assertThat(r.eof()).isTrue();
        CorruptDataException e = catchThrowableOfType(CorruptDataException.class, r::readByte);
        assertThat(e.getMessage()).contains("p.bin", "end of stream");
    }

    @Test
    void seekToTheEndOfABlockContinuesInTheNextOne() throws IOException {
        byte[] data = CompressionCodecsTest.randomBytes(100, 2);
        byte[] file = write(CompressionCodecs.none(), 64, data);
        CompressedBlockReader r = new CompressedBlockReader(file, "x.bin");
        r.seek(0, 64);
        assertThat(r.eof()).isFalse();
        assertThat((byte) r.readByte()).isEqualTo(data[64]);
        r.seek(89, 36);
        assertThat(r.eof()).isTrue();
        r.seek(file.length, 0);
        assertThat(r.eof()).isTrue();
        r.seek(89, 0);
        assertThat((byte) r.readByte()).isEqualTo(data[64]);
        assertThatThrownBy(() -> r.seek(0, 65))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("x.bin")
                .hasMessageContaining("65");
        assertThatThrownBy(() -> r.seek(file.length + 1, 0))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining(String.valueOf(file.length + 1));
        assertThatThrownBy(() -> r.seek(-1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
        // a seek into the middle of a block is caught by the checksum / header checks
        assertThatThrownBy(() -> r.seek(5, 0)).isInstanceOf(CorruptDataException.class);
    }

    @Test
    void flippedPayloadByteNamesFileOffsetExpectedAndActualChecksum() throws IOException {
        byte[] data = CompressionCodecsTest.compressible(5000);
        byte[] file = write(CompressionCodecs.lz4(), 4096, data);
        int second = 16 + ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).getInt(17);
        byte[] bad = file.clone();
        bad[second + 30] ^= 0x01;

        Hash128 stored = Hash128.readFrom(bad, second);
        int compressedSize =
                ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).getInt(second + 17);
        long[] h = new long[2];
        CityHash102.cityHash128(bad, second + 16, compressedSize, h);
        Hash128 actual = Hash128.of(h);

        CorruptDataException e =
                catchThrowableOfType(
                        CorruptDataException.class,
                        () -> CompressedBlockReader.decompressAll(bad, "all_1_1_0/a.bin"));
        assertThat(e.file()).isEqualTo("all_1_1_0/a.bin");
        assertThat(e.offset()).isEqualTo(second);
        assertThat(e.expected()).isEqualTo(stored.toHex());
        assertThat(e.actual()).isEqualTo(actual.toHex());
        assertThat(e.getMessage())
                .contains(
                        "all_1_1_0/a.bin",
                        "offset " + second,
                        stored.toHex(),
                        actual.toHex(),
                        "checksum");

        // the streaming reader reads the intact first block, then fails the same way
        CompressedBlockReader r = new CompressedBlockReader(bad, "a.bin");
        byte[] first = new byte[4096];
        r.readFully(first, 0, first.length);
        assertThat(first).isEqualTo(Arrays.copyOf(data, 4096));
        assertThatThrownBy(r::readByte)
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("offset " + second);
        // the reader stays in front of the damaged block; the intact block is still reachable
        assertThat(r.eof()).isFalse();
        assertThat(r.currentBlockOffset()).isEqualTo(second);
        assertThatThrownBy(r::readByte).isInstanceOf(CorruptDataException.class);
        r.seek(0, 10);
        assertThat((byte) r.readByte()).isEqualTo(data[10]);
    }

    @Test
    void emptyBlockHeaderIsRejected() {
        byte[] empty = block(0x02, 9, 0, new byte[0]);
        assertThatThrownBy(() -> CompressedBlockReader.decompressAll(empty, "e.bin"))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("e.bin")
                .hasMessageContaining("decompressed size 0");
        byte[] zeroCompressed = block(0x02, 0, 1, new byte[0]);
        assertThatThrownBy(() -> new CompressedBlockReader(zeroCompressed, "z.bin").readByte())
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("compressed size 0");
        // an empty stream is a 0-byte file
        assertThat(CompressedBlockReader.decompressAll(new byte[0], "n.bin")).isEmpty();
        assertThat(new CompressedBlockReader(new byte[0], "n.bin").eof()).isTrue();
    }

    @Test
    void badHeadersAreRejected() {
        byte[] good = block(0x02, 12, 3, new byte[] {1, 2, 3});
        assertThat(CompressedBlockReader.decompressAll(good, "g.bin")).containsExactly(1, 2, 3);

        byte[] truncatedHeader = Arrays.copyOf(good, 20);
        assertThatThrownBy(() -> CompressedBlockReader.decompressAll(truncatedHeader, "t.bin"))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("truncated block header");
        byte[] truncated = Arrays.copyOf(good, good.length - 1);
        assertThatThrownBy(() -> CompressedBlockReader.decompressAll(truncated, "t.bin"))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("truncated block");
        byte[] tooSmall = block(0x02, 8, 3, new byte[] {1, 2, 3});
        assertThatThrownBy(() -> CompressedBlockReader.decompressAll(tooSmall, "s.bin"))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("compressed size")
                .hasMessageContaining("actual 8");
        byte[] sizeMismatch = block(0x02, 12, 4, new byte[] {1, 2, 3});
        assertThatThrownBy(() -> CompressedBlockReader.decompressAll(sizeMismatch, "m.bin"))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("m.bin");
        assertThatThrownBy(() -> new CompressedBlockReader(sizeMismatch, "m.bin").readByte())
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("m.bin");
        byte[] delta = block(0x92, 12, 3, new byte[] {1, 2, 3});
        assertThatThrownBy(() -> CompressedBlockReader.decompressAll(delta, "d.bin"))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("0x92 (Delta)");
    }

    @Test
    void lz4BlockAnnouncingWrongUncompressedSizeIsRejected() {
        byte[] data = CompressionCodecsTest.compressible(1000);
        CompressionCodec lz4 = CompressionCodecs.lz4();
        byte[] payload = new byte[lz4.maxCompressedLength(1000)];
        int n = lz4.compress(data, 0, 1000, payload, 0);
        payload = Arrays.copyOf(payload, n);
        assertThat(CompressedBlockReader.decompressAll(block(0x82, 9 + n, 1000, payload), "ok.bin"))
                .isEqualTo(data);
        byte[] wrong = block(0x82, 9 + n, 999, payload);
        assertThatThrownBy(() -> CompressedBlockReader.decompressAll(wrong, "w.bin"))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("w.bin")
                .hasMessageContaining("999");
    }

    @Test
    void blocksOfOneStreamMayUseDifferentCodecs() throws IOException {
        byte[] a = CompressionCodecsTest.compressible(3000);
        byte[] b = CompressionCodecsTest.randomBytes(2000, 9);
        byte[] c = CompressionCodecsTest.compressible(100);
        byte[] file =
                concat(
                        write(CompressionCodecs.lz4(), 1 << 20, a),
                        write(CompressionCodecs.zstd(3), 1 << 20, b),
                        write(CompressionCodecs.none(), 1 << 20, c));
        assertThat(CompressedBlockReader.decompressAll(file, "mix.bin")).isEqualTo(concat(a, b, c));
        CompressedBlockReader r = new CompressedBlockReader(file, "mix.bin");
        byte[] all = new byte[5100];
        r.readFully(all, 0, all.length);
        assertThat(all).isEqualTo(concat(a, b, c));
        assertThat(r.eof()).isTrue();
    }

    @Test
    void readsAStreamEmbeddedInALargerArray() throws IOException {
        byte[] data = CompressionCodecsTest.compressible(777);
        byte[] stream = write(CompressionCodecs.lz4(), 100, data);
        byte[] header =
                "checksums format version: 4\n"
                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] file = concat(header, stream);
        assertThat(CompressedBlockReader.decompressAll(file, header.length, stream.length, "c.txt"))
                .isEqualTo(data);
        CompressedBlockReader r =
                new CompressedBlockReader(file, header.length, stream.length, "c.txt");
        r.seek(stream.length, 0);
        assertThat(r.eof()).isTrue();
        r.seek(0, 5);
        assertThat((byte) r.readByte()).isEqualTo(data[5]);
    }
}
