package io.github.s3mergetree.engine.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.NullableType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The specialised codecs on their own: round trips over random and patterned data of every length
 * (also lengths that are not a multiple of the element size, as inside a chain), the encodings
 * ClickHouse's source documents, and clear refusals of malformed payloads.
 */
class SpecialisedCodecsTest {

    private static List<CompressionCodec> codecs() {
        List<CompressionCodec> out = new ArrayList<>();
        for (int size : new int[] {1, 2, 4, 8}) {
            out.add(CompressionCodecs.delta(size));
            out.add(CompressionCodecs.doubleDelta(size));
            out.add(CompressionCodecs.gorilla(size));
        }
        for (int type : new int[] {1, 2, 3, 4, 6, 7, 8, 9, 13, 15, 19, 20, 22}) {
            out.add(new T64Codec(type, false));
            out.add(new T64Codec(type, true));
        }
        out.add(CompressionCodecs.fpc(4, 12));
        out.add(CompressionCodecs.fpc(8, 1));
        out.add(CompressionCodecs.fpc(8, 14));
        out.add(
                CompressionCodecs.chain(
                        List.of(CompressionCodecs.delta(8), CompressionCodecs.zstd(1))));
        out.add(
                CompressionCodecs.chain(
                        List.of(
                                CompressionCodecs.delta(2),
                                new T64Codec(7, false),
                                CompressionCodecs.lz4hc(9))));
        out.add(
                CompressionCodecs.chain(
                        List.of(
                                CompressionCodecs.gorilla(8),
                                CompressionCodecs.delta(8),
                                CompressionCodecs.lz4())));
        return out;
    }

    private static List<byte[]> inputs() {
        Random r = new Random(47);
        List<byte[]> out = new ArrayList<>();
        for (int len = 1; len <= 70; len++) {
            byte[] b = new byte[len];
            r.nextBytes(b);
            out.add(b);
        }
        for (int len : new int[] {512, 513, 4096, 65536 + 5, 1 << 20}) {
            byte[] random = new byte[len];
            r.nextBytes(random);
            out.add(random);
            ByteBuffer seq = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
            long v = Long.MAX_VALUE - 1000;
            while (seq.remaining() >= 8) {
                seq.putLong(v += r.nextInt(5) - 1);
            }
            out.add(seq.array());
            ByteBuffer doubles = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
            double[] specials = {
                Double.NaN, Double.POSITIVE_INFINITY, -0.0, Double.MIN_VALUE, -1e300
            };
            for (int i = 0; doubles.remaining() >= 8; i++) {
                doubles.putDouble(
                        i % 97 == 0
                                ? specials[(i / 97) % specials.length]
                                : 20 + Math.sin(i / 50.0));
            }
            out.add(doubles.array());
            byte[] constant = new byte[len];
            Arrays.fill(constant, (byte) 0x7f);
            out.add(constant);
        }
        return out;
    }

    @Test
    void everyCodecRoundTripsEveryLengthThroughItsMethodByte() {
        for (CompressionCodec codec : codecs()) {
            for (byte[] in : inputs()) {
                byte[] compressed = new byte[codec.maxCompressedLength(in.length)];
                int n = codec.compress(in, 0, in.length, compressed, 0);
                assertThat(n).isLessThanOrEqualTo(compressed.length);
                byte[] out = new byte[in.length];
                CompressionCodecs.forMethodByte(codec.methodByte())
                        .decompress(compressed, 0, n, out, 0, in.length);
                assertThat(out).as("%s over %d bytes", codec, in.length).isEqualTo(in);
            }
        }
    }

    @Test
    void doubleDeltaWritesTheEncodingsOfClickHousesSource() {
        byte[] bytes = new byte[10];
        for (int i = 0; i < 10; i++) {
            bytes[i] = (byte) (i + 1);
        }
        assertThat(hex(CompressionCodecs.doubleDelta(1), bytes))
                .isEqualTo("01000a00000001 0100".replace(" ", ""));
        ByteBuffer shorts = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
        for (short s : new short[] {-10, 10, -20, 20, -40, 40}) {
            shorts.putShort(s);
        }
        assertThat(hex(CompressionCodecs.doubleDelta(2), shorts.array()))
                .isEqualTo("0200" + "06000000f6ff1400b8e22eb1e458");
    }

    @Test
    void gorillaWritesTheEncodingOfClickHousesSource() {
        ByteBuffer floats = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : new float[] {0.1f, 0.1f, 0.11f, 0.2f, 0.1f}) {
            floats.putFloat(f);
        }
        assertThat(hex(CompressionCodecs.gorilla(4), floats.array()))
                .isEqualTo("0400" + "05000000cdcccc3d" + "6a5ad8b63ccd75b16c77000000");
    }

    @Test
    void malformedPayloadsAreRefusedNamingTheCodec() {
        byte[] out = new byte[16];
        assertThatThrownBy(
                        () ->
                                CompressionCodecs.forMethodByte((byte) 0x92)
                                        .decompress(new byte[] {3, 0, 1, 2}, 0, 4, out, 0, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0x92 (Delta)")
                .hasMessageContaining("element size 3");
        assertThatThrownBy(
                        () ->
                                CompressionCodecs.forMethodByte((byte) 0x93)
                                        .decompress(new byte[] {0x7e, 0}, 0, 2, out, 0, 8))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0x93 (T64)")
                .hasMessageContaining("bad type number 126");
        assertThatThrownBy(
                        () ->
                                CompressionCodecs.forMethodByte((byte) 0x98)
                                        .decompress(new byte[] {8, 0}, 0, 2, out, 0, 8))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0x98 (FPC)")
                .hasMessageContaining("incorrect level 0");
        assertThatThrownBy(
                        () ->
                                CompressionCodecs.forMethodByte((byte) 0x91)
                                        .decompress(
                                                new byte[] {2, (byte) 0x92, 0x02}, 0, 3, out, 0, 8))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0x91 (Multiple)");
        // a Gorilla stream that ends before its element count
        byte[] g = new byte[] {8, 0, 3, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8};
        assertThatThrownBy(
                        () ->
                                CompressionCodecs.forMethodByte((byte) 0x95)
                                        .decompress(g, 0, g.length, new byte[24], 0, 24))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0x95 (Gorilla)")
                .hasMessageContaining("ends after 1 of 3 elements");
    }

    @Test
    void aDeclarationResolvesPerStreamFromTheStreamsType() {
        ColumnCodec c = ColumnCodec.parse("Delta, T64, ZSTD(3)", CompressionCodecs.lz4());
        assertThat(c.forStream(DataTypes.INT32).clickHouseName())
                .isEqualTo("Delta(4), T64, ZSTD(3)");
        assertThat(c.forStream(DataTypes.UINT16).methodByte()).isEqualTo((byte) 0x91);
        // null maps, array sizes, LowCardinality indexes: only the generic codecs
        assertThat(c.forStream(null).clickHouseName()).isEqualTo("ZSTD(3)");
        assertThat(ColumnCodec.parse("T64", CompressionCodecs.lz4()).forStream(null))
                .isSameAs(CompressionCodecs.none());
        assertThat(
                        ColumnCodec.parse("Delta, Default", CompressionCodecs.zstd(5))
                                .forStream(DataTypes.INT64)
                                .clickHouseName())
                .isEqualTo("Delta(8), ZSTD(5)");
        // DoubleDelta's argument gives way to the type, Delta's and Gorilla's do not (26.7)
        assertThat(
                        ColumnCodec.parse("DoubleDelta(2), LZ4", CompressionCodecs.lz4())
                                .forStream(DataTypes.INT64))
                .isEqualTo(
                        CompressionCodecs.chain(
                                List.of(
                                        CompressionCodecs.doubleDelta(8),
                                        CompressionCodecs.lz4())));
        assertThat(
                        ColumnCodec.parse("Gorilla(2)", CompressionCodecs.lz4())
                                .forStream(DataTypes.FLOAT32))
                .isEqualTo(CompressionCodecs.gorilla(2));
        assertThatThrownBy(
                        () ->
                                ColumnCodec.parse("Delta, ZSTD", CompressionCodecs.lz4())
                                        .validate(
                                                new ArrayType(
                                                        new NullableType(DataTypes.STRING_TYPE)),
                                                List.of(DataTypes.STRING_TYPE)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Codec Delta is not applicable for String because the data type is not of"
                                + " fixed size.");
    }

    @Test
    void aTableDefaultIsAGenericCodecWithItsNameUpperCased() {
        assertThat(ColumnCodec.parseTableDefault("'zstd(3)'")).isEqualTo(CompressionCodecs.zstd(3));
        assertThat(ColumnCodec.parseTableDefault("LZ4HC(5)")).isEqualTo(CompressionCodecs.lz4hc(5));
        assertThatThrownBy(() -> ColumnCodec.parseTableDefault("'Delta, ZSTD'"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unknown codec family: DELTA");
        assertThatThrownBy(() -> ColumnCodec.parseTableDefault("T64"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only NONE, LZ4, LZ4HC or ZSTD");
    }

    private static String hex(CompressionCodec codec, byte[] in) {
        byte[] out = new byte[codec.maxCompressedLength(in.length)];
        int n = codec.compress(in, 0, in.length, out, 0);
        return HexFormat.of().formatHex(out, 0, n);
    }
}
