package io.github.s3mergetree.engine.hash;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HashingOutputTest {

    private static final Pattern FORMULA =
            Pattern.compile("formula:bytes\\(\\(i\\*37\\+11\\)%256 for i in range\\((\\d+)\\)\\)");

    static Path sharedDir() {
        String p = System.getProperty("shared.dir");
        Path dir = p != null ? Paths.get(p) : Paths.get("../../shared");
        return dir.toAbsolutePath().normalize();
    }

    private static byte[] formula(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ((i * 37 + 11) % 256);
        }
        return b;
    }

    private static Hash128 hashInChunks(byte[] data, int chunk) {
        HashingOutput h = new HashingOutput();
        for (int off = 0; off < data.length; off += chunk) {
            h.update(data, off, Math.min(chunk, data.length - off));
        }
        assertThat(h.count()).isEqualTo(data.length);
        return h.finish();
    }

    private static Hash128 hashRandomChunks(byte[] data, long seed) {
        Random rnd = new Random(seed);
        HashingOutput h = new HashingOutput();
        int off = 0;
        while (off < data.length) {
            if (rnd.nextInt(5) == 0) {
                h.updateByte(data[off++]);
                continue;
            }
            int n = Math.min(data.length - off, rnd.nextInt(5000));
            h.update(data, off, n);
            off += n;
        }
        return h.finish();
    }

    @Test
    void matchesEveryVectorOfFilehashVectorsInAnyChunking() throws IOException {
        Path file = sharedDir().resolve("reference/filehash-vectors.txt");
        List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        int checked = 0;
        for (String line : lines) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.trim().split("\\s+", 5);
            assertThat(f).as(line).hasSize(5);
            int len = Integer.parseInt(f[1]);
            byte[] input;
            if (f[4].equals("-")) {
                input = new byte[0];
            } else if (f[4].startsWith("formula:")) {
                Matcher m = FORMULA.matcher(f[4]);
                assertThat(m.matches()).as("known formula: " + f[4]).isTrue();
                input = formula(Integer.parseInt(m.group(1)));
            } else {
                input = HexFormat.of().parseHex(f[4]);
            }
            assertThat(input).as("length of " + f[0]).hasSize(len);
            Hash128 expected =
                    new Hash128(Long.parseUnsignedLong(f[2], 16), Long.parseUnsignedLong(f[3], 16));
            String what = f[0] + " (" + len + " bytes)";
            assertThat(HashingOutput.hash(input, 0, len)).as(what).isEqualTo(expected);
            assertThat(hashInChunks(input, 1)).as(what + " byte by byte").isEqualTo(expected);
            assertThat(hashInChunks(input, 7)).as(what + " 7-byte pieces").isEqualTo(expected);
            assertThat(hashInChunks(input, 2047)).as(what + " 2047").isEqualTo(expected);
            assertThat(hashInChunks(input, 2049)).as(what + " 2049").isEqualTo(expected);
            assertThat(hashRandomChunks(input, len)).as(what + " random").isEqualTo(expected);
            checked++;
        }
        assertThat(checked).isEqualTo(44);
    }

    @Test
    void matchesSpecChainedFileHashVectors() {
        assertThat(hashOf("1000")).isEqualTo(new Hash128(0x928f7fb486ee924fL, 0x5543aca87958eb6eL));
        assertThat(hashOf("2076")).isEqualTo(new Hash128(0xdbd3c2f42a5ac101L, 0xdc80a8b897309c0cL));
        assertThat(hashOf("1")).isEqualTo(new Hash128(0x7c939ae9bd559c6cL, 0xff0514f4585453a9L));
        assertThat(HashingOutput.hash(formula(2048), 0, 2048))
                .isEqualTo(new Hash128(0x3d7b6cc369347e53L, 0xc5d882966e6ef0dcL));
        assertThat(HashingOutput.hash(formula(4000), 0, 4000))
                .isEqualTo(new Hash128(0x5e36acd13a55ff80L, 0xb8d743fc80da2bb7L));
    }

    @Test
    void emptyInputAndExactChunksHaveNoFinalCall() {
        assertThat(new HashingOutput().finish()).isEqualTo(Hash128.ZERO);
        byte[] chunk = formula(2048);
        long[] direct = new long[2];
        CityHash102.cityHash128WithSeed(chunk, 0, 2048, 0, 0, direct);
        assertThat(HashingOutput.hash(chunk, 0, 2048)).isEqualTo(Hash128.of(direct));
    }

    @Test
    void finishDoesNotChangeStateAndResetRestarts() {
        byte[] data = formula(5000);
        HashingOutput h = new HashingOutput();
        h.update(data, 0, 3000);
        assertThat(h.finish()).isEqualTo(HashingOutput.hash(data, 0, 3000));
        h.update(data, 3000, 2000);
        assertThat(h.finish()).isEqualTo(HashingOutput.hash(data, 0, 5000));
        assertThat(h.count()).isEqualTo(5000);
        h.reset();
        assertThat(h.count()).isZero();
        assertThat(h.finish()).isEqualTo(Hash128.ZERO);
        h.update(data, 0, 100);
        assertThat(h.finish()).isEqualTo(HashingOutput.hash(data, 0, 100));
    }

    private static Hash128 hashOf(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        return HashingOutput.hash(b, 0, b.length);
    }
}
