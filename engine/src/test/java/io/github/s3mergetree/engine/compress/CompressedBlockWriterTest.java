package io.github.s3mergetree.engine.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.hash.Hash128;
import io.github.s3mergetree.engine.hash.HashingOutput;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompressedBlockWriterTest {

    /** (offset, method, compressed size incl. header, uncompressed size) of each block. */
    record Block(int offset, int method, int compressedSize, int uncompressedSize) {}

    static List<Block> blocks(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        List<Block> out = new ArrayList<>();
        int p = 0;
        while (p < file.length) {
            int c = b.getInt(p + 17);
            out.add(new Block(p, file[p + 16] & 0xff, c, b.getInt(p + 21)));
            p += 16 + c;
        }
        assertThat(p).isEqualTo(file.length);
        return out;
    }

    @Test
    void tinyNoneBlockLayoutByteByByte() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompressedBlockWriter w = new CompressedBlockWriter(out, CompressionCodecs.none());
        w.writeByte(0x0b);
        assertThat(w.pendingBytes()).isEqualTo(1);
        assertThat(w.compressedOffset()).isZero();
        w.close();
        // CityHash128(020a000000010000000b) = (6f0337032b38811e, c85fafe931c252ee), spec §3.2
        assertThat(HexFormat.of().formatHex(out.toByteArray()))
                .isEqualTo(
                        "1e81382b0337036f" // LE(low64)
                                + "ee52c231e9af5fc8" // LE(high64)
                                + "02" // method NONE
                                + "0a000000" // compressed_size = 9 + 1
                                + "01000000" // uncompressed_size
                                + "0b"); // payload
        assertThat(w.fileSize()).isEqualTo(26);
        assertThat(w.compressedOffset()).isEqualTo(26);
        assertThat(w.uncompressedSize()).isEqualTo(1);
        assertThat(w.fileHash()).isEqualTo(HashingOutput.hash(out.toByteArray(), 0, 26));
        assertThat(w.uncompressedHash()).isEqualTo(HashingOutput.hash(new byte[] {0x0b}, 0, 1));
    }

    @Test
    void splitsBlocksAtMaxCompressBlockSize() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompressedBlockWriter w = new CompressedBlockWriter(out, CompressionCodecs.none(), 64);
        byte[] data = CompressionCodecsTest.randomBytes(200, 5);
        w.write(data, 0, 63);
        assertThat(w.compressedOffset()).isZero();
        assertThat(w.uncompressedOffsetInBlock()).isEqualTo(63);
        w.writeByte(data[63]);
        // The buffer became full: the block is emitted at once, the next mark is (89, 0).
        assertThat(w.compressedOffset()).isEqualTo(16 + 9 + 64);
        assertThat(w.uncompressedOffsetInBlock()).isZero();
        w.write(data, 64, 136); // two more full blocks and 8 pending bytes
        assertThat(w.compressedOffset()).isEqualTo(3 * 89);
        assertThat(w.pendingBytes()).isEqualTo(8);
        w.close();
        byte[] file = out.toByteArray();
        assertThat(blocks(file))
                .containsExactly(
                        new Block(0, 0x02, 73, 64),
                        new Block(89, 0x02, 73, 64),
                        new Block(178, 0x02, 73, 64),
                        new Block(267, 0x02, 17, 8));
        assertThat(CompressedBlockReader.decompressAll(file, "x.bin")).isEqualTo(data);
        assertThat(w.uncompressedSize()).isEqualTo(200);
        assertThat(w.uncompressedHash()).isEqualTo(HashingOutput.hash(data, 0, 200));
        assertThat(w.fileSize()).isEqualTo(file.length);
        assertThat(w.fileHash()).isEqualTo(HashingOutput.hash(file, 0, file.length));
    }

    @Test
    void defaultBlockSizeIsOneMebibyte() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompressedBlockWriter w = new CompressedBlockWriter(out, CompressionCodecs.lz4());
        assertThat(w.maxCompressBlockSize()).isEqualTo(1_048_576);
        byte[] data = CompressionCodecsTest.compressible(1_048_576 + 1000);
        w.write(data, 0, data.length);
        w.close();
        List<Block> blocks = blocks(out.toByteArray());
        assertThat(blocks).extracting(Block::uncompressedSize).containsExactly(1_048_576, 1000);
        assertThat(blocks).extracting(Block::method).containsOnly(0x82);
        assertThat(CompressedBlockReader.decompressAll(out.toByteArray(), "x.bin")).isEqualTo(data);
    }

    @Test
    void flushBlockEmitsPendingBytesAndNeverAnEmptyBlock() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompressedBlockWriter w = new CompressedBlockWriter(out, CompressionCodecs.zstd(3));
        w.flushBlock();
        assertThat(out.size()).isZero();
        w.writeIntLE(7);
        w.flushBlock();
        long afterFirst = w.compressedOffset();
        assertThat(afterFirst).isEqualTo(out.size()).isGreaterThan(25);
        w.flushBlock();
        assertThat(w.compressedOffset()).isEqualTo(afterFirst);
        w.writeIntLE(8);
        w.close();
        assertThat(blocks(out.toByteArray()))
                .extracting(Block::uncompressedSize)
                .containsExactly(4, 4);
        assertThat(blocks(out.toByteArray())).extracting(Block::method).containsOnly(0x90);
    }

    @Test
    void emptyStreamIsAZeroByteFileWithZeroHashes() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompressedBlockWriter w = new CompressedBlockWriter(out, CompressionCodecs.lz4());
        w.write(new byte[0], 0, 0);
        w.close();
        assertThat(out.size()).isZero();
        assertThat(w.fileSize()).isZero();
        assertThat(w.uncompressedSize()).isZero();
        assertThat(w.fileHash()).isEqualTo(Hash128.ZERO);
        assertThat(w.uncompressedHash()).isEqualTo(Hash128.ZERO);
    }

    @Test
    void primitiveWritesAreLittleEndianAcrossBlockBoundaries() throws IOException {
        ByteBuffer expected = ByteBuffer.allocate(10_000).order(ByteOrder.LITTLE_ENDIAN);
        for (int blockSize : new int[] {1, 2, 3, 5, 7, 11, 64, 1 << 20}) {
            expected.clear();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            CompressedBlockWriter w =
                    new CompressedBlockWriter(out, CompressionCodecs.lz4(), blockSize);
            for (int i = 0; i < 50; i++) {
                w.writeByte(i * 37);
                expected.put((byte) (i * 37));
                w.writeShortLE(0x1234 + i * 1111);
                expected.putShort((short) (0x1234 + i * 1111));
                w.writeIntLE(0x89abcdef + i);
                expected.putInt(0x89abcdef + i);
                w.writeLongLE(0x0123456789abcdefL * (i + 1));
                expected.putLong(0x0123456789abcdefL * (i + 1));
                w.writeVarUInt(i * 1_000_003L);
                putVarUInt(expected, i * 1_000_003L);
                w.write(new byte[] {1, 2, 3}, 1, 2);
                expected.put((byte) 2).put((byte) 3);
            }
            w.writeVarUInt(-1L);
            putVarUInt(expected, -1L);
            w.close();
            byte[] exp = java.util.Arrays.copyOf(expected.array(), expected.position());
            assertThat(CompressedBlockReader.decompressAll(out.toByteArray(), "p.bin"))
                    .as("block size %d", blockSize)
                    .isEqualTo(exp);
            for (Block b : blocks(out.toByteArray())) {
                assertThat(b.uncompressedSize()).isBetween(1, blockSize);
            }
        }
    }

    private static void putVarUInt(ByteBuffer b, long v) {
        while ((v & ~0x7FL) != 0) {
            b.put((byte) (v | 0x80));
            v >>>= 7;
        }
        b.put((byte) v);
    }

    @Test
    void varUIntEncodings() throws IOException {
        Object[][] cases = {
            {0L, "00"},
            {1L, "01"},
            {127L, "7f"},
            {128L, "8001"},
            {300L, "ac02"},
            {16384L, "808001"},
            {Long.MAX_VALUE, "ffffffffffffffff7f"},
            {-1L, "ffffffffffffffffff01"},
        };
        for (Object[] c : cases) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            CompressedBlockWriter w = new CompressedBlockWriter(out, CompressionCodecs.none());
            w.writeVarUInt((Long) c[0]);
            w.close();
            byte[] file = out.toByteArray();
            assertThat(HexFormat.of().formatHex(file, 25, file.length))
                    .as("%s", c[0])
                    .isEqualTo(c[1]);
        }
    }

    @Test
    void hashesMatchTheBytesWrittenForManyBlocks() throws IOException {
        for (CompressionCodec codec :
                List.of(
                        CompressionCodecs.none(),
                        CompressionCodecs.lz4(),
                        CompressionCodecs.zstd(1))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            CompressedBlockWriter w = new CompressedBlockWriter(out, codec, 3000);
            byte[] data = CompressionCodecsTest.compressible(20_000);
            for (int off = 0; off < data.length; off += 777) {
                w.write(data, off, Math.min(777, data.length - off));
            }
            w.close();
            byte[] file = out.toByteArray();
            assertThat(w.fileSize()).isEqualTo(file.length);
            assertThat(w.fileHash()).isEqualTo(HashingOutput.hash(file, 0, file.length));
            assertThat(w.uncompressedSize()).isEqualTo(data.length);
            assertThat(w.uncompressedHash()).isEqualTo(HashingOutput.hash(data, 0, data.length));
            assertThat(blocks(file)).hasSize(7);
        }
    }

    @Test
    void closeIsIdempotentFlushesButDoesNotCloseTheStream() throws IOException {
        boolean[] flags = new boolean[2];
        OutputStream out =
                new ByteArrayOutputStream() {
                    @Override
                    public void flush() {
                        flags[0] = true;
                    }

                    @Override
                    public void close() {
                        flags[1] = true;
                    }
                };
        CompressedBlockWriter w = new CompressedBlockWriter(out, CompressionCodecs.lz4());
        w.writeLongLE(5);
        w.close();
        w.close();
        assertThat(flags[0]).as("flushed").isTrue();
        assertThat(flags[1]).as("closed").isFalse();
        assertThat(((ByteArrayOutputStream) out).size()).isEqualTo(w.fileSize());
        assertThatThrownBy(() -> w.writeByte(1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> w.writeLongLE(1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> w.write(new byte[1], 0, 1))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(w::flushBlock).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void preconditionsNameTheBadValue() {
        OutputStream out = new ByteArrayOutputStream();
        assertThatThrownBy(() -> new CompressedBlockWriter(out, CompressionCodecs.none(), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got 0");
        assertThatThrownBy(
                        () ->
                                new CompressedBlockWriter(
                                        out, CompressionCodecs.none(), (1 << 30) + 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(String.valueOf((1 << 30) + 1));
        assertThatThrownBy(() -> new CompressedBlockWriter(null, CompressionCodecs.none()))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("out");
        CompressedBlockWriter w = new CompressedBlockWriter(out, CompressionCodecs.none(), 16);
        assertThatThrownBy(() -> w.write(new byte[4], 2, 3))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }
}
