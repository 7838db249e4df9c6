package io.github.s3mergetree.engine.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link LittleEndian}: every access equals a little-endian {@link ByteBuffer}'s at every offset,
 * the checked accesses refuse a value that does not lie inside the array (writing nothing), and
 * {@link LittleEndian#checkRange} refuses a range outside it, overflow included — with {@code
 * sun.misc.Unsafe} (this JVM, on x86-64 before JDK 24) and with the {@code VarHandle}s (a child JVM
 * with {@code -Ds3mergetree.littleEndian.varHandles=true}).
 */
class LittleEndianTest {

    /** The child JVM: runs the same checks and prints which implementation it used. */
    public static void main(String[] args) {
        checkAgainstByteBuffer(new Random(7));
        checkBounds();
        System.out.println("direct=" + LittleEndian.DIRECT);
    }

    @Test
    void equalsALittleEndianByteBufferAtEveryOffset() {
        checkAgainstByteBuffer(new Random(42));
    }

    @Test
    void refusesValuesOutsideTheArray() {
        checkBounds();
    }

    @Test
    void usesUnsafeWhereThePlatformAllowsIt() {
        String arch = System.getProperty("os.arch");
        boolean expected =
                (arch.equals("amd64") || arch.equals("aarch64"))
                        && Runtime.version().feature() < 24;
        assertThat(LittleEndian.DIRECT).as(arch + ", JDK " + Runtime.version()).isEqualTo(expected);
    }

    @Test
    void theVarHandlesGiveTheSameResults() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p =
                new ProcessBuilder(
                                java.toString(),
                                "-ea",
                                "-Ds3mergetree.littleEndian.varHandles=true",
                                "-cp",
                                System.getProperty("java.class.path"),
                                LittleEndianTest.class.getName())
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("direct=false");
    }

    private static void checkAgainstByteBuffer(Random rnd) {
        for (int len = 0; len <= 24; len++) {
            byte[] b = new byte[len];
            rnd.nextBytes(b);
            ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            for (int off = 0; off + 2 <= len; off++) {
                assertThat(LittleEndian.getShort(b, off)).isEqualTo(bb.getShort(off));
                assertThat(LittleEndian.getShortUnchecked(b, off)).isEqualTo(bb.getShort(off));
            }
            for (int off = 0; off + 4 <= len; off++) {
                assertThat(LittleEndian.getInt(b, off)).isEqualTo(bb.getInt(off));
                assertThat(LittleEndian.getIntUnchecked(b, off)).isEqualTo(bb.getInt(off));
            }
            for (int off = 0; off + 8 <= len; off++) {
                assertThat(LittleEndian.getLong(b, off)).isEqualTo(bb.getLong(off));
                assertThat(LittleEndian.getLongUnchecked(b, off)).isEqualTo(bb.getLong(off));
            }
            checkPuts(
                    b,
                    8,
                    rnd,
                    (expected, checked, unchecked, off, v) -> {
                        expected.putLong(off, v);
                        LittleEndian.putLong(checked, off, v);
                        LittleEndian.putLongUnchecked(unchecked, off, v);
                    });
            checkPuts(
                    b,
                    4,
                    rnd,
                    (expected, checked, unchecked, off, v) -> {
                        expected.putInt(off, (int) v);
                        LittleEndian.putInt(checked, off, (int) v);
                        LittleEndian.putIntUnchecked(unchecked, off, (int) v);
                    });
            checkPuts(
                    b,
                    2,
                    rnd,
                    (expected, checked, unchecked, off, v) -> {
                        expected.putShort(off, (short) v);
                        LittleEndian.putShort(checked, off, (short) v);
                        LittleEndian.putShortUnchecked(unchecked, off, (short) v);
                    });
        }
    }

    /** One store of {@code v} at {@code off}: into a ByteBuffer, checked, unchecked. */
    private interface Puts {
        void put(ByteBuffer expected, byte[] checked, byte[] unchecked, int off, long v);
    }

    /**
     * At every offset a value of {@code width} bytes fits: all three stores give the same bytes.
     */
    private static void checkPuts(byte[] b, int width, Random rnd, Puts puts) {
        for (int off = 0; off + width <= b.length; off++) {
            byte[] expected = b.clone();
            byte[] checked = b.clone();
            byte[] unchecked = b.clone();
            puts.put(
                    ByteBuffer.wrap(expected).order(ByteOrder.LITTLE_ENDIAN),
                    checked,
                    unchecked,
                    off,
                    rnd.nextLong());
            assertThat(checked).as("width %d at %d", width, off).isEqualTo(expected);
            assertThat(unchecked).as("width %d at %d", width, off).isEqualTo(expected);
        }
    }

    private static void checkBounds() {
        byte[] b = new byte[16];
        Arrays.fill(b, (byte) 0x5a);
        byte[] before = b.clone();
        for (int off : new int[] {-1, 9, 16, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            assertThatThrownBy(() -> LittleEndian.getLong(b, off))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("[" + off + ", " + off + " + 8)")
                    .hasMessageContaining("length 16");
            assertThatThrownBy(() -> LittleEndian.putLong(b, off, -1L))
                    .isInstanceOf(IndexOutOfBoundsException.class);
        }
        for (int off : new int[] {-1, 13, 16}) {
            assertThatThrownBy(() -> LittleEndian.getInt(b, off))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> LittleEndian.putInt(b, off, -1))
                    .isInstanceOf(IndexOutOfBoundsException.class);
        }
        for (int off : new int[] {-1, 15, 16}) {
            assertThatThrownBy(() -> LittleEndian.getShort(b, off))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> LittleEndian.putShort(b, off, (short) -1))
                    .isInstanceOf(IndexOutOfBoundsException.class);
        }
        assertThatThrownBy(() -> LittleEndian.getLong(new byte[7], 0))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(b).as("nothing written by a refused put").isEqualTo(before);
        // the last value that fits
        LittleEndian.putLong(b, 8, 0x0102030405060708L);
        assertThat(b[8]).isEqualTo((byte) 8);
        assertThat(b[15]).isEqualTo((byte) 1);

        LittleEndian.checkRange(b, 0, 16);
        LittleEndian.checkRange(b, 16, 0);
        LittleEndian.checkRange(b, 3, 13);
        for (int[] r :
                new int[][] {
                    {-1, 4},
                    {0, 17},
                    {16, 1},
                    {4, -1},
                    {8, Integer.MAX_VALUE},
                    {Integer.MAX_VALUE, 8}
                }) {
            assertThatThrownBy(() -> LittleEndian.checkRange(b, r[0], r[1]))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("length 16");
        }
    }
}
