package io.github.s3mergetree.source.s3.format.compression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * libdeflate's whole-object gzip path ({@link NativeGzip}) against the JDK's {@code
 * GZIPInputStream}, the reference: on every stream it accepts it yields the JDK's bytes, and every
 * stream it rejects goes to the JDK (so errors and lenience stay the JDK's).
 */
class NativeGzipTest {

    @Test
    void theBindingLoadsOnLinuxX86() {
        // the build compiles it there and tools/install-test-engines.sh installs libdeflate0: a
        // missing binding would silently turn every test below into a test of the JDK alone
        String arch = System.getProperty("os.arch");
        if (System.getProperty("os.name").startsWith("Linux")
                && (arch.equals("amd64") || arch.equals("x86_64"))) {
            assertThat(NativeGzip.available()).isTrue();
        }
    }

    @Test
    void wellFormedStreamsDecompressAsTheJdkDoes() throws IOException {
        Random random = new Random(20261206);
        for (int round = 0; round < 200; round++) {
            byte[] plain = text(random, random.nextInt(round < 20 ? 64 : 3_000_000));
            int members = 1 + (round % 4 == 0 ? random.nextInt(4) : 0);
            byte[] gz = gzipMembers(plain, members, random);
            NativeGzip.Output out = decompress(gz);
            assertThat(out)
                    .as("round %d: %d bytes in %d members", round, plain.length, members)
                    .isNotNull();
            assertThat(bytes(out)).isEqualTo(jdk(gz));
            assertThat(out.length()).isEqualTo(plain.length);
            NativeGzip.give(out.bytes());
        }
    }

    @Test
    void anOutputLargerThanTheTrailerSaysGrowsTheBuffer() throws IOException {
        // two members: the trailer's ISIZE is the last member's, far below the whole output
        Random random = new Random(7);
        byte[] big = text(random, 8_000_000);
        byte[] gz = concat(gzip(big, Deflater.BEST_SPEED), gzip("x\n".getBytes(), 6));
        NativeGzip.Output out = decompress(gz);
        assertThat(out).isNotNull();
        assertThat(bytes(out)).isEqualTo(jdk(gz));
    }

    @Test
    void damagedStreamsAreLeftToTheJdkOrDecompressExactlyAsItDoes() throws IOException {
        Random random = new Random(99);
        int rejected = 0;
        for (int round = 0; round < 300; round++) {
            byte[] gz =
                    gzipMembers(text(random, 1 + random.nextInt(200_000)), 1 + round % 2, random);
            byte[] bad;
            switch (round % 4) {
                case 0 -> bad = Arrays.copyOf(gz, random.nextInt(gz.length)); // truncated
                case 1 -> { // bytes flipped somewhere (data, CRC, ISIZE or header)
                    bad = gz.clone();
                    int at = random.nextInt(bad.length);
                    bad[at] ^= (byte) (1 + random.nextInt(255));
                }
                case 2 -> bad = concat(gz, text(random, 1 + random.nextInt(40))); // trailing bytes
                default -> bad = concat(gz, new byte[1 + random.nextInt(16)]); // zero padding
            }
            NativeGzip.Output out = decompress(bad);
            if (out == null) {
                rejected++;
                continue;
            }
            // accepted: the JDK must accept it too, with the same bytes
            assertThat(bytes(out)).as("round %d", round).isEqualTo(jdk(bad));
            NativeGzip.give(out.bytes());
        }
        assertThat(rejected).isGreaterThan(150); // truncation, padding and garbage are rejected
        assertThat(decompress(new byte[0])).isNull();
    }

    @Test
    void compressionReadsAWholeObjectNativelyWithTheStreamingPathsResultsAndErrors()
            throws IOException {
        Random random = new Random(3);
        byte[] plain = text(random, 500_000);
        byte[] gz = gzip(plain, 6);
        try (InputStream in =
                Compression.GZIP.decompress(
                        new ByteArrayInputStream(gz), "s3://b/k.gz", gz.length)) {
            assertThat(in.readAllBytes()).isEqualTo(plain);
        }
        byte[] cut = Arrays.copyOf(gz, gz.length / 2);
        String streaming = failure(Compression.GZIP.decompress(new ByteArrayInputStream(cut), "o"));
        String whole =
                failure(
                        Compression.GZIP.decompress(
                                new ByteArrayInputStream(cut), "o", cut.length));
        assertThat(whole)
                .startsWith("corrupt gzip data in object o at compressed offset ")
                .isEqualTo(streaming);
        // a failed download surfaces as itself
        IOException download = new IOException("connection reset");
        InputStream failing =
                new InputStream() {
                    @Override
                    public int read() throws IOException {
                        throw download;
                    }
                };
        assertThatThrownBy(() -> Compression.GZIP.decompress(failing, "o", 100)).isSameAs(download);
    }

    @Test
    void buffersAreReusedForObjectsOfAboutTheSameSize() {
        NativeGzip.clearPool(); // of the other tests' buffers
        ByteBuffer first = NativeGzip.take(90_000_000);
        assertThat(first.capacity()).isBetween(90_000_000, 90_000_000 / 8 * 9 + 1);
        NativeGzip.give(first);
        // a slightly larger object of the same size class gets the same buffer back
        assertThat(NativeGzip.take(90_500_000)).isSameAs(first);
        NativeGzip.give(first);
        // a far smaller request does not take it (an input must not take an output's buffer)
        assertThat(NativeGzip.take(20_000_000)).isNotSameAs(first);
        assertThat(NativeGzip.take(90_000_000)).isSameAs(first);
        NativeGzip.give(first);
        assertThatThrownBy(() -> NativeGzip.give(first))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("a buffer given back twice");
        NativeGzip.clearPool();
    }

    @Test
    void buffersDroppedByThePoolFreeTheirDirectMemoryAtOnce() {
        NativeGzip.clearPool();
        long before = NativeGzip.directMemoryUsed();
        ByteBuffer probe = NativeGzip.take(1 << 20); // the JVM reports its direct buffers
        assertThat(NativeGzip.directMemoryUsed()).isGreaterThanOrEqualTo(before + (1 << 20));
        NativeGzip.give(probe);
        // 40 x 64 MiB given back: the pool keeps at most 256 MiB, the rest is freed now (before,
        // it stayed reserved until a collection found the buffers, and a later take measured it
        // as in use and sent objects to the JDK)
        for (int i = 0; i < 40; i++) {
            NativeGzip.give(NativeGzip.take(64 << 20));
            NativeGzip.give(ByteBuffer.allocateDirect(64 << 20));
        }
        assertThat(NativeGzip.directMemoryUsed() - before).isLessThanOrEqualTo(256L << 20);
        NativeGzip.clearPool();
        assertThat(NativeGzip.directMemoryUsed()).isLessThanOrEqualTo(before);
    }

    @Test
    void aBufferIsTakenOnlyWhileAQuarterOfTheDirectMemoryLimitStaysFree() {
        long mib = 1 << 20;
        // a Flink TaskManager: 128m framework off-heap + 158m network, the network buffers in use
        assertThat(NativeGzip.leavesAQuarterFree(24 * mib, 160 * mib, 286 * mib)).isTrue();
        assertThat(NativeGzip.leavesAQuarterFree(150 * mib, 160 * mib, 286 * mib)).isFalse();
        assertThat(NativeGzip.leavesAQuarterFree(54 * mib, 160 * mib, 286 * mib)).isTrue();
        assertThat(NativeGzip.leavesAQuarterFree(55 * mib, 160 * mib, 286 * mib)).isFalse();
        // the same TaskManager with taskmanager.memory.task.off-heap.size: 512m
        assertThat(NativeGzip.leavesAQuarterFree(150 * mib, 160 * mib, 798 * mib)).isTrue();
    }

    /**
     * Run in a child JVM with {@code -XX:MaxDirectMemorySize=64m} (less direct memory than a Flink
     * TaskManager leaves a task): decompresses a small and a large gzip object through {@link
     * Compression#decompress(InputStream, String, long)} and prints what happened.
     */
    public static void main(String[] args) throws IOException {
        Random random = new Random(64);
        byte[] small = text(random, 1_000_000);
        System.out.println("small " + roundTrip(small) + " refusals=" + NativeGzip.refusals());
        byte[] large = repetitiveText(random, 120_000_000); // ~10 MB of gzip
        System.out.println("large " + roundTrip(large) + " refusals=" + NativeGzip.refusals());
    }

    private static String roundTrip(byte[] plain) throws IOException {
        byte[] gz = gzip(plain, Deflater.BEST_SPEED);
        if (gz.length > NativeGzip.MAX_COMPRESSED) {
            return "too large for the native path (" + gz.length + " bytes)";
        }
        try (InputStream in =
                Compression.GZIP.decompress(new ByteArrayInputStream(gz), "o.csv.gz", gz.length)) {
            return Arrays.equals(in.readAllBytes(), plain) ? "equal" : "DIFFERENT";
        } catch (Throwable e) {
            return "FAILED " + e;
        }
    }

    @Test
    void aJvmWithLittleDirectMemoryDecompressesLargeObjectsByTheJdk() throws Exception {
        // before: OutOfMemoryError "Cannot reserve ... bytes of direct buffer memory"
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p =
                new ProcessBuilder(
                                java,
                                "-XX:MaxDirectMemorySize=64m",
                                "-cp",
                                System.getProperty("java.class.path"),
                                NativeGzipTest.class.getName())
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).as(out).contains("small equal refusals=0");
        if (NativeGzip.available()) {
            // the large object's output buffer did not fit: the JDK decompressed it, said once
            assertThat(out)
                    .as(out)
                    .containsPattern("large equal refusals=[1-9]")
                    .containsOnlyOnce("taskmanager.memory.task.off-heap.size");
        } else {
            assertThat(out).as(out).contains("large equal refusals=0");
        }
    }

    /** Lines of a few words drawn from a small vocabulary: compresses ~10x, like log lines. */
    private static byte[] repetitiveText(Random random, int size) {
        String[] words = {"GET", "/index.html", "200", "POST", "/api/v1/items", "404", "user"};
        ByteArrayOutputStream b = new ByteArrayOutputStream(size + 64);
        while (b.size() < size) {
            String line =
                    words[random.nextInt(words.length)]
                            + ' '
                            + words[random.nextInt(words.length)]
                            + ' '
                            + random.nextInt(1000)
                            + '\n';
            b.writeBytes(line.getBytes(StandardCharsets.US_ASCII));
        }
        return Arrays.copyOf(b.toByteArray(), size);
    }

    /** NativeGzip.decompress of {@code gz} copied into a pooled direct buffer. */
    private static NativeGzip.Output decompress(byte[] gz) {
        ByteBuffer in = NativeGzip.take(gz.length);
        in.put(0, gz);
        NativeGzip.Output out = NativeGzip.decompress(in, gz.length);
        NativeGzip.give(in);
        return out;
    }

    private static byte[] bytes(NativeGzip.Output out) {
        byte[] b = new byte[out.length()];
        out.bytes().get(0, b);
        return b;
    }

    private static String failure(InputStream in) {
        try (in) {
            in.readAllBytes();
            return "no failure";
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    /** CSV-like lines: compressible as real text is, with a random tail now and then. */
    private static byte[] text(Random random, int size) {
        StringBuilder sb = new StringBuilder(size + 64);
        while (sb.length() < size) {
            sb.append(random.nextInt(1_000_000))
                    .append(",\"title ")
                    .append(random.nextInt(500))
                    .append("\",2026-12-0")
                    .append(1 + random.nextInt(9))
                    .append('\n');
            if (random.nextInt(50) == 0) {
                for (int i = 0; i < 30; i++) {
                    sb.append((char) ('!' + random.nextInt(90)));
                }
            }
        }
        return sb.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] gzipMembers(byte[] plain, int members, Random random) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int from = 0;
        for (int m = 0; m < members; m++) {
            int to =
                    m == members - 1
                            ? plain.length
                            : from + random.nextInt(plain.length - from + 1);
            out.write(gzip(Arrays.copyOfRange(plain, from, to), random.nextInt(10)));
            from = to;
        }
        return out.toByteArray();
    }

    private static byte[] gzip(byte[] plain, int level) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz =
                new GZIPOutputStream(out, 8192) {
                    {
                        def.setLevel(level);
                    }
                }) {
            gz.write(plain);
        }
        return out.toByteArray();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private static byte[] jdk(byte[] gz) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz), 64 * 1024)) {
            return in.readAllBytes();
        }
    }
}
