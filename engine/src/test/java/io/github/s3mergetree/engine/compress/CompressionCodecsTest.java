package io.github.s3mergetree.engine.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class CompressionCodecsTest {

    private static List<CompressionCodec> allCodecs() {
        return List.of(
                CompressionCodecs.none(),
                CompressionCodecs.lz4(),
                CompressionCodecs.lz4hc(1),
                CompressionCodecs.lz4hc(9),
                CompressionCodecs.lz4hc(12),
                CompressionCodecs.zstd(1),
                CompressionCodecs.zstd(3),
                CompressionCodecs.zstd(19));
    }

    static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    static byte[] compressible(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            // short repeated runs with a slowly changing value: compressible by every codec
            b[i] = (byte) ("abcdefgh".charAt(i % 8) + (i / 256) % 3);
        }
        return b;
    }

    private static byte[] roundTrip(CompressionCodec codec, byte[] data, int[] compressedLen) {
        byte[] dst = new byte[7 + codec.maxCompressedLength(data.length)];
        int n = codec.compress(data, 0, data.length, dst, 7);
        assertThat(n).isBetween(1, codec.maxCompressedLength(data.length));
        compressedLen[0] = n;
        byte[] out = new byte[data.length + 5];
        codec.decompress(dst, 7, n, out, 3, data.length);
        return Arrays.copyOfRange(out, 3, 3 + data.length);
    }

    @Test
    void roundTripsRandomAndCompressibleData() {
        int[] len = new int[1];
        for (CompressionCodec codec : allCodecs()) {
            for (int size : new int[] {1, 2, 17, 100, 4000, 65536, 1 << 20}) {
                byte[] random = randomBytes(size, size);
                assertThat(roundTrip(codec, random, len))
                        .as("%s random %d", codec, size)
                        .isEqualTo(random);
                byte[] regular = compressible(size);
                assertThat(roundTrip(codec, regular, len))
                        .as("%s compressible %d", codec, size)
                        .isEqualTo(regular);
                if (size >= 4000 && codec.methodByte() != CompressionCodecs.METHOD_NONE) {
                    assertThat(len[0])
                            .as("%s compresses %d regular bytes", codec, size)
                            .isLessThan(size / 2);
                }
            }
        }
    }

    @Test
    void methodBytesAndNames() {
        assertThat(CompressionCodecs.none().methodByte()).isEqualTo((byte) 0x02);
        assertThat(CompressionCodecs.lz4().methodByte()).isEqualTo((byte) 0x82);
        assertThat(CompressionCodecs.lz4hc(5).methodByte()).isEqualTo((byte) 0x82);
        assertThat(CompressionCodecs.zstd(3).methodByte()).isEqualTo((byte) 0x90);
        assertThat(CompressionCodecs.none().clickHouseName()).isEqualTo("NONE");
        assertThat(CompressionCodecs.lz4().clickHouseName()).isEqualTo("LZ4");
        assertThat(CompressionCodecs.lz4hc(5).clickHouseName()).isEqualTo("LZ4HC(5)");
        assertThat(CompressionCodecs.lz4hc(0).clickHouseName()).isEqualTo("LZ4HC(9)");
        assertThat(CompressionCodecs.zstd(3).clickHouseName()).isEqualTo("ZSTD(3)");
        for (CompressionCodec c : allCodecs()) {
            assertThat(CompressionCodecs.parse(c.clickHouseName())).isEqualTo(c);
        }
    }

    @Test
    void parsesSupportedExpressions() {
        assertThat(CompressionCodecs.parse("NONE")).isSameAs(CompressionCodecs.none());
        assertThat(CompressionCodecs.parse("none").clickHouseName()).isEqualTo("NONE");
        assertThat(CompressionCodecs.parse("LZ4").clickHouseName()).isEqualTo("LZ4");
        assertThat(CompressionCodecs.parse(" lz4 ").clickHouseName()).isEqualTo("LZ4");
        assertThat(CompressionCodecs.parse("LZ4HC").clickHouseName()).isEqualTo("LZ4HC(9)");
        assertThat(CompressionCodecs.parse("lz4hc( 12 )").clickHouseName()).isEqualTo("LZ4HC(12)");
        assertThat(CompressionCodecs.parse("LZ4HC(9)").clickHouseName()).isEqualTo("LZ4HC(9)");
        assertThat(CompressionCodecs.parse("ZSTD").clickHouseName()).isEqualTo("ZSTD(1)");
        assertThat(CompressionCodecs.parse("zstd(3)").clickHouseName()).isEqualTo("ZSTD(3)");
        assertThat(CompressionCodecs.parse("Zstd(22)").clickHouseName()).isEqualTo("ZSTD(22)");
        assertThat(CompressionCodecs.parse("CODEC(LZ4)").clickHouseName()).isEqualTo("LZ4");
        assertThat(CompressionCodecs.parse("CODEC(ZSTD(3))").clickHouseName()).isEqualTo("ZSTD(3)");
    }

    @Test
    void rejectsChainsAndUnsupportedCodecsNamingThem() {
        assertThatThrownBy(() -> CompressionCodecs.parse("Delta, ZSTD"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'Delta'");
        assertThatThrownBy(() -> CompressionCodecs.parse("Delta(4), ZSTD(3)"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'Delta(4)'");
        assertThatThrownBy(() -> CompressionCodecs.parse("LZ4, ZSTD"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chain")
                .hasMessageContaining("LZ4, ZSTD");
        assertThatThrownBy(() -> CompressionCodecs.parse("T64"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'T64'");
        assertThatThrownBy(() -> CompressionCodecs.parse("ZSTD(23)"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("23");
        assertThatThrownBy(() -> CompressionCodecs.parse("ZSTD(fast)"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fast");
        assertThatThrownBy(() -> CompressionCodecs.parse("LZ4(1)"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("LZ4(1)");
        assertThatThrownBy(() -> CompressionCodecs.parse("ZSTD(3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ZSTD(3");
        assertThatThrownBy(() -> CompressionCodecs.parse(""))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void levelPreconditionsNameTheBadValue() {
        assertThatThrownBy(() -> CompressionCodecs.lz4hc(13))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("13");
        assertThatThrownBy(() -> CompressionCodecs.lz4hc(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> CompressionCodecs.zstd(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got 0");
        assertThatThrownBy(() -> CompressionCodecs.zstd(23))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("23");
    }

    @Test
    void forMethodByte() {
        assertThat(CompressionCodecs.forMethodByte((byte) 0x02)).isSameAs(CompressionCodecs.none());
        assertThat(CompressionCodecs.forMethodByte((byte) 0x82).clickHouseName()).isEqualTo("LZ4");
        assertThat(CompressionCodecs.forMethodByte((byte) 0x90).methodByte())
                .isEqualTo((byte) 0x90);
        assertThat(CompressionCodecs.forMethodByte((byte) 0x92).methodByte())
                .isEqualTo((byte) 0x92);
        assertThatThrownBy(() -> CompressionCodecs.forMethodByte((byte) 0x9a))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0x9a (GCD)");
        assertThatThrownBy(() -> CompressionCodecs.forMethodByte((byte) 0x00))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0x00");
    }

    @Test
    void zstdWritesSingleSegmentFramesWithContentSizeAndNoChecksum() {
        CompressionCodec zstd = CompressionCodecs.zstd(3);
        for (int size : new int[] {1, 1000, 65536, 1 << 20}) {
            byte[] data = compressible(size);
            byte[] dst = new byte[zstd.maxCompressedLength(size)];
            int n = zstd.compress(data, 0, size, dst, 0);
            assertThat(Arrays.copyOf(dst, 4)).containsExactly(0x28, 0xb5, 0x2f, 0xfd);
            int descriptor = dst[4] & 0xff;
            assertThat(descriptor & 0x20).as("Single_Segment_flag, size %d", size).isNotZero();
            assertThat(descriptor & 0x04).as("Content_Checksum_flag, size %d", size).isZero();
            assertThat(Zstd.getFrameContentSize(dst, 0, n)).isEqualTo(size);
        }
    }

    @Test
    void decompressRejectsMalformedPayloadsAndWrongSizes() {
        byte[] data = compressible(4000);
        for (CompressionCodec codec : allCodecs()) {
            byte[] dst = new byte[codec.maxCompressedLength(data.length)];
            int n = codec.compress(data, 0, data.length, dst, 0);
            byte[] out = new byte[8000];
            assertThatThrownBy(() -> codec.decompress(dst, 0, n, out, 0, 3999))
                    .as("%s too small", codec)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("3999");
            if (codec.methodByte() != CompressionCodecs.METHOD_NONE) {
                assertThatThrownBy(() -> codec.decompress(dst, 0, n, out, 0, 4001))
                        .as("%s too large", codec)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("4001");
                byte[] garbage = randomBytes(50, 1);
                garbage[0] = (byte) 0xff;
                assertThatThrownBy(() -> codec.decompress(garbage, 0, 50, out, 0, 4000))
                        .as("%s garbage", codec)
                        .isInstanceOf(IllegalArgumentException.class);
            }
        }
    }

    @Test
    void compressRejectsTooSmallDestination() {
        byte[] data = randomBytes(100, 3);
        for (CompressionCodec codec : allCodecs()) {
            byte[] dst = new byte[codec.maxCompressedLength(100) - 1];
            assertThatThrownBy(() -> codec.compress(data, 0, 100, dst, 0))
                    .as(codec.clickHouseName())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(String.valueOf(dst.length));
        }
    }

    @Test
    void sharedCodecsWorkFromSeveralThreads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int seed = t;
                results.add(
                        pool.submit(
                                () -> {
                                    int[] len = new int[1];
                                    for (CompressionCodec c : allCodecs()) {
                                        for (int i = 0; i < 5; i++) {
                                            byte[] d = randomBytes(20000 + i, seed * 31L + i);
                                            if (!Arrays.equals(roundTrip(c, d, len), d)) {
                                                return false;
                                            }
                                        }
                                    }
                                    return true;
                                }));
            }
            for (Future<Boolean> f : results) {
                assertThat(f.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
