package io.github.s3mergetree.engine.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link WriterBuffers} and the {@link CompressedBlockWriter}s that share them: arrays reused on a
 * thread, never shared by two open writers, and the bytes written exactly those of writers that had
 * fresh arrays.
 */
class WriterBuffersTest {

    /** Each test starts from an empty pool on its thread (the tests of a class share a thread). */
    @BeforeEach
    void drainThisThreadsPool() {
        WriterBuffers local = WriterBuffers.local();
        while (local.pooledBytes() > 0) {
            local.takePending(1, Integer.MAX_VALUE);
        }
    }

    @Test
    void aClosedWritersPendingBufferGoesToTheThreadsNextWriter() throws IOException {
        WriterBuffers local = WriterBuffers.local();
        CompressedBlockWriter a =
                new CompressedBlockWriter(new ByteArrayOutputStream(), CompressionCodecs.lz4());
        a.write(new byte[10], 0, 10);
        long before = local.pooledBytes();
        a.close();
        assertThat(local.pooledBytes()).isGreaterThan(before);
        CompressedBlockWriter b =
                new CompressedBlockWriter(new ByteArrayOutputStream(), CompressionCodecs.lz4());
        assertThat(local.pooledBytes()).isEqualTo(before);
        b.close();
    }

    @Test
    void aClosedWriterRefusesWritesInsteadOfWritingIntoAGivenBackBuffer() throws IOException {
        CompressedBlockWriter w =
                new CompressedBlockWriter(new ByteArrayOutputStream(), CompressionCodecs.lz4());
        w.close();
        assertThatThrownBy(() -> w.writeLongLE(1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> w.writeVarUInt(1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> w.write(new byte[3], 0, 3))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void openWritersNeverShareAPendingBuffer() {
        WriterBuffers local = WriterBuffers.local();
        byte[] given = new byte[64 * 1024];
        local.givePending(given);
        byte[] first = local.takePending(64 * 1024, 1 << 20);
        byte[] second = local.takePending(64 * 1024, 1 << 20);
        assertThat(first).isSameAs(given);
        assertThat(second).isNotSameAs(given).hasSize(64 * 1024);
    }

    @Test
    void keepsNoMoreThanTheCapPerThread() {
        WriterBuffers local = WriterBuffers.local();
        int size = 1 << 20;
        for (long i = 0; i <= WriterBuffers.MAX_POOLED_BYTES / size + 4; i++) {
            local.givePending(new byte[size]);
        }
        assertThat(local.pooledBytes())
                .isGreaterThan(WriterBuffers.MAX_POOLED_BYTES - size)
                .isLessThanOrEqualTo(WriterBuffers.MAX_POOLED_BYTES);
    }

    @Test
    void aBufferLargerThanTheWritersBlockSizeIsNotTaken() {
        WriterBuffers local = WriterBuffers.local();
        byte[] big = new byte[1 << 20];
        local.givePending(big);
        assertThat(local.takePending(1024, 4096)).isNotSameAs(big).hasSize(1024);
        assertThat(local.takePending(1024, 1 << 20)).isSameAs(big);
    }

    @Test
    void aNestedCompressionOnTheSameThreadGetsAnArrayOfItsOwn() {
        WriterBuffers local = WriterBuffers.local();
        byte[] outer = local.takeCompressed(100);
        byte[] inner = local.takeCompressed(100);
        assertThat(inner).isNotSameAs(outer);
        local.giveCompressed(inner);
        local.giveCompressed(outer);
        assertThat(local.takeCompressed(50)).isIn(outer, inner);
    }

    /**
     * Many streams open at once, as a part's columns are, written in interleaved pieces of random
     * sizes (a block flushed once 64 KiB are pending, as at a mark), some growing their buffers to
     * the block size, then closed, part after part on one thread: every file is byte for byte what
     * a writer alone on a fresh thread (fresh arrays) writes for the same pieces.
     */
    @Test
    void interleavedWritersOverReusedArraysWriteWhatFreshWritersWrite() throws Exception {
        Random random = new Random(20261205L);
        for (int part = 0; part < 6; part++) {
            int streams = 2 + random.nextInt(12);
            List<byte[]> inputs = new ArrayList<>();
            List<int[]> pieces = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                byte[] in = new byte[random.nextInt(3 << 20)];
                for (int i = 0; i < in.length; i++) {
                    in[i] = (byte) (random.nextInt(7) == 0 ? random.nextInt() : i / 97);
                }
                inputs.add(in);
                List<Integer> cuts = new ArrayList<>();
                for (int at = 0; at < in.length; ) {
                    int n = Math.min(in.length - at, 1 + random.nextInt(200_000));
                    cuts.add(n);
                    at += n;
                }
                pieces.add(cuts.stream().mapToInt(Integer::intValue).toArray());
            }
            int blockSize = random.nextBoolean() ? 1 << 20 : 100_000;
            CompressionCodec codec =
                    random.nextBoolean() ? CompressionCodecs.lz4() : CompressionCodecs.zstd(1);
            List<ByteArrayOutputStream> outs = new ArrayList<>();
            List<CompressedBlockWriter> writers = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                outs.add(out);
                writers.add(new CompressedBlockWriter(out, codec, blockSize));
            }
            int[] at = new int[streams];
            int[] piece = new int[streams];
            boolean more = true;
            while (more) {
                more = false;
                for (int s = 0; s < streams; s++) {
                    if (piece[s] < pieces.get(s).length) {
                        at[s] =
                                writePiece(
                                        writers.get(s),
                                        inputs.get(s),
                                        at[s],
                                        pieces.get(s)[piece[s]++]);
                    }
                    more |= piece[s] < pieces.get(s).length;
                }
            }
            for (CompressedBlockWriter w : writers) {
                w.close();
            }
            for (int s = 0; s < streams; s++) {
                byte[] expected =
                        writeAloneOnAFreshThread(inputs.get(s), pieces.get(s), codec, blockSize);
                assertThat(outs.get(s).toByteArray())
                        .as("part %d, stream %d of %d", part, s, streams)
                        .isEqualTo(expected);
            }
        }
    }

    private static int writePiece(CompressedBlockWriter w, byte[] in, int at, int n)
            throws IOException {
        w.write(in, at, n);
        if (w.pendingBytes() >= 65_536) {
            w.flushBlock();
        }
        return at + n;
    }

    private static byte[] writeAloneOnAFreshThread(
            byte[] in, int[] pieces, CompressionCodec codec, int blockSize) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Exception[] failure = new Exception[1];
        Thread t =
                new Thread(
                        () -> {
                            try (CompressedBlockWriter w =
                                    new CompressedBlockWriter(out, codec, blockSize)) {
                                int at = 0;
                                for (int n : pieces) {
                                    at = writePiece(w, in, at, n);
                                }
                            } catch (IOException e) {
                                failure[0] = e;
                            }
                        });
        t.start();
        t.join();
        if (failure[0] != null) {
            throw failure[0];
        }
        return out.toByteArray();
    }
}
