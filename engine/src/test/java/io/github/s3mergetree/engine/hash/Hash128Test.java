package io.github.s3mergetree.engine.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class Hash128Test {

    /** The checksum of golden a.bin's only block and how ClickHouse printed it (spec §14). */
    private static final String A_BIN_CHECKSUM_ON_DISK = "3a62a6b085bd45b965939f0429a7f119";

    @Test
    void readsOnDiskFormLowThenHighLittleEndian() {
        byte[] disk = HexFormat.of().parseHex(A_BIN_CHECKSUM_ON_DISK);
        Hash128 h = Hash128.readFrom(disk, 0);
        assertThat(h.low()).isEqualTo(0xb945bd85b0a6623aL);
        assertThat(h.high()).isEqualTo(0x19f1a729049f9365L);
    }

    @Test
    void toHexPrintsHighThenLowLikeClickHouseMessages() {
        Hash128 h = Hash128.readFrom(HexFormat.of().parseHex(A_BIN_CHECKSUM_ON_DISK), 0);
        // "Checksum doesn't match: corrupted data. Reference: 19f1a729049f9365b945bd85b0a6623a."
        assertThat(h.toHex()).isEqualTo("19f1a729049f9365b945bd85b0a6623a");
        assertThat(Hash128.fromHex(h.toHex())).isEqualTo(h);
        assertThat(new Hash128(1, 2).toHex()).isEqualTo("00000000000000020000000000000001");
        assertThat(new Hash128(1, 2).toString())
                .contains("low=0000000000000001", "high=0000000000000002");
    }

    @Test
    void writeToRoundTripsAtAnOffset() {
        Hash128 h = new Hash128(0x0102030405060708L, 0x8899aabbccddeeffL);
        byte[] b = new byte[20];
        h.writeTo(b, 3);
        assertThat(HexFormat.of().formatHex(b, 3, 19))
                .isEqualTo("0807060504030201ffeeddccbbaa9988");
        assertThat(Hash128.readFrom(b, 3)).isEqualTo(h);
        assertThat(h.toBytes()).containsExactly(java.util.Arrays.copyOfRange(b, 3, 19));
    }

    @Test
    void rejectsBadInput() {
        assertThatThrownBy(() -> Hash128.readFrom(new byte[15], 0))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> new Hash128(0, 0).writeTo(new byte[16], 1))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> Hash128.fromHex("abc"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("abc");
        assertThatThrownBy(() -> Hash128.fromHex("zz".repeat(16)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zz");
    }
}
