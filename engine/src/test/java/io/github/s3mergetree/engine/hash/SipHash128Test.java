package io.github.s3mergetree.engine.hash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SipHash128Test {

    // Field type tags of ClickHouse's LegacyFieldVisitorHash (spec §8.1).
    private static final int NULL = 0;
    private static final int UINT64 = 1;
    private static final int UINT128 = 4;
    private static final int INT128 = 5;
    private static final int STRING = 16;
    private static final int DECIMAL32 = 19;

    private static void string(SipHash128 h, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        h.updateByte(STRING);
        h.updateLong(b.length);
        h.update(b);
    }

    private static String partitionId(SipHash128 h) {
        return SipHash128.hex(h.finish());
    }

    @Test
    void partitionIdOfStrings() {
        SipHash128 h = new SipHash128();
        string(h, "abc");
        assertThat(partitionId(h)).isEqualTo("f815b3f19bae3563399d3c6214a8ed43");

        h = new SipHash128();
        string(h, "");
        assertThat(partitionId(h)).isEqualTo("f64abffc6c96f8ef72c783f1b9426e19");
    }

    @Test
    void sqlSipHash128OfSingleString() {
        byte[] in = HexFormat.of().parseHex("100300000000000000616263");
        assertThat(SipHash128.hex(SipHash128.hash(in, 0, in.length)))
                .isEqualTo("f815b3f19bae3563399d3c6214a8ed43");
    }

    @Test
    void partitionIdOfTupleUInt8AndString() {
        SipHash128 h = new SipHash128();
        h.updateByte(UINT64);
        h.updateLong(1);
        string(h, "hey");
        assertThat(partitionId(h)).isEqualTo("cb0e1e53458f4d1ef439e4044069f562");
    }

    @Test
    void partitionIdOfInt128Null128AndUuid() {
        SipHash128 h = new SipHash128();
        h.updateByte(INT128);
        h.updateLong(-5);
        h.updateLong(-1); // sign extension: high 64 bits of Int128 -5
        assertThat(partitionId(h)).isEqualTo("1d894163b5898d55565fce607a003475");

        h = new SipHash128();
        h.updateByte(NULL);
        assertThat(partitionId(h)).isEqualTo("2b16b490a87466b6a6d34fd9027f3c3d");

        // UUID 01234567-89ab-cdef-1122-334455667788: tag UInt128, LE(high64) then LE(low64).
        h = new SipHash128();
        h.updateByte(UINT128);
        h.updateLong(0x0123456789abcdefL);
        h.updateLong(0x1122334455667788L);
        assertThat(partitionId(h)).isEqualTo("fc654a131666bf01c2027e1b4664717a");
    }

    @Test
    void partitionIdOfDecimalAndFixedString() {
        // (Decimal(9,2) 1.25, FixedString(2) 'ab'): Decimal32 raw value 125 as 4 LE bytes.
        SipHash128 h = new SipHash128();
        h.updateByte(DECIMAL32);
        h.update(new byte[] {125, 0, 0, 0});
        string(h, "ab");
        assertThat(partitionId(h)).isEqualTo("17ab00e7072933b36af4b8a2478e00cc");
    }

    @Test
    void longFileNameHash() {
        String name = "c".repeat(130);
        assertThat(SipHash128.sipHash128String(name)).isEqualTo("b91b5dba40e64ca59742427fc57582c0");
        assertThat(SipHash128.sipHash128String(name + ".null"))
                .isEqualTo("233b25b187a65398428fb7cd3918fc06");
        byte[] out = SipHash128.hash(name.getBytes(StandardCharsets.US_ASCII), 0, 130);
        assertThat(SipHash128.hexReversed(out)).isEqualTo("b91b5dba40e64ca59742427fc57582c0");
    }

    @Test
    void resultIndependentOfSplitAndFinishIsRepeatable() {
        Random rnd = new Random(7);
        for (int len = 0; len < 70; len++) {
            byte[] data = new byte[len];
            rnd.nextBytes(data);
            byte[] expected = SipHash128.hash(data, 0, len);
            SipHash128 h = new SipHash128();
            for (byte b : data) {
                h.updateByte(b);
            }
            assertThat(h.finish()).as("len %d byte by byte", len).isEqualTo(expected);
            assertThat(h.finish()).as("len %d finish twice", len).isEqualTo(expected);
            assertThat(h.count()).isEqualTo(len);
            for (int split = 0; split <= len; split++) {
                SipHash128 s = new SipHash128();
                s.update(data, 0, split);
                s.update(data, split, len - split);
                assertThat(s.finish()).as("len %d split %d", len, split).isEqualTo(expected);
            }
            if (len >= 11) {
                long v =
                        java.nio.ByteBuffer.wrap(data, 3, 8)
                                .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                                .getLong();
                SipHash128 s = new SipHash128();
                s.update(data, 0, 3);
                s.updateLong(v);
                s.update(data, 11, len - 11);
                assertThat(s.finish()).as("len %d updateLong", len).isEqualTo(expected);
            }
            h.reset();
            assertThat(h.finish()).isEqualTo(SipHash128.hash(new byte[0], 0, 0));
        }
    }

    @Test
    void hexHelpers() {
        byte[] b = {0x01, (byte) 0xab, (byte) 0xff, 0x00};
        assertThat(SipHash128.hex(b)).isEqualTo("01abff00");
        assertThat(SipHash128.hexReversed(b)).isEqualTo("00ffab01");
    }
}
