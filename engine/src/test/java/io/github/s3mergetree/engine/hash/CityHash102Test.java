package io.github.s3mergetree.engine.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CityHash102Test {

    static Path sharedDir() {
        String p = System.getProperty("shared.dir");
        Path dir = p != null ? Paths.get(p) : Paths.get("../../shared");
        return dir.toAbsolutePath().normalize();
    }

    private static long[] city128(byte[] b) {
        long[] out = new long[2];
        CityHash102.cityHash128(b, 0, b.length, out);
        return out;
    }

    private static String hex64(long v) {
        return String.format("%016x", v);
    }

    @Test
    void cityHash128MatchesEveryVectorOfTheVectorFile() throws IOException {
        Path file = sharedDir().resolve("reference/cityhash128-vectors.txt");
        List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        int checked = 0;
        for (String line : lines) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.trim().split("\\s+");
            assertThat(f).as(line).hasSize(4);
            byte[] input = HexFormat.of().parseHex(f[1]);
            assertThat(input).as("length field of " + line).hasSize(Integer.parseInt(f[0]));
            long[] h = city128(input);
            assertThat(hex64(h[0]) + " " + hex64(h[1]))
                    .as("len " + f[0])
                    .isEqualTo(f[2] + " " + f[3]);
            checked++;
        }
        assertThat(checked).isEqualTo(32);
    }

    @Test
    void cityHash128MatchesSpecTable() {
        String[][] vectors = {
            {"020a000000010000000b", "6f0337032b38811e", "c85fafe931c252ee"},
            {"020b000000020000000b30", "a54a09f97801c604", "e377a79aea214d1b"},
            {"0210000000070000000b30557a9fc4e9", "5755d0f9d938dc3d", "d6b1dc767f29b9ef"},
            {"0211000000080000000b30557a9fc4e90e", "f4041a5a5b3e21ea", "d7572496947c9cf4"},
        };
        for (String[] v : vectors) {
            long[] h = city128(HexFormat.of().parseHex(v[0]));
            assertThat(hex64(h[0])).as(v[0]).isEqualTo(v[1]);
            assertThat(hex64(h[1])).as(v[0]).isEqualTo(v[2]);
        }
    }

    /**
     * Inputs the chDB vectors do not reach (CityHash128 of fewer than 10 bytes, CityHash64 of 4..8
     * and 17..32 bytes, the seeded variant) and an array offset. Expected values were computed with
     * the reference Python transliteration {@code reference/tools/chtool.py} for the bytes {@code
     * (i*131 + len*7 + 200) & 0xff}, i in 0..len+2, hashing from index 3. Columns: len, cityHash128
     * low, high, cityHash64, cityHash128WithSeed(seed = (0x123456789abcdef0, 0xfedcba9876543210))
     * low, high.
     */
    @Test
    void matchesReferenceTransliterationForOtherLengths() {
        String[][] vectors = {
            {
                "0",
                "3df09dfc64c09a2b",
                "3cb540c392e51e29",
                "9ae16a3b2f90404f",
                "9ebb7ee3e6ea4e12",
                "cbded7890886f686"
            },
            {
                "1",
                "95316a4c03894922",
                "6d5ed4d4f9d11693",
                "8148f64a6da52ff5",
                "47780dab1b8a635d",
                "89602594149d050f"
            },
            {
                "2",
                "43f3e85c8990a271",
                "56d92bf1c8a429f9",
                "34ae5cdb1e34a98f",
                "24fb444d2edfd464",
                "cf12a7162d9ad080"
            },
            {
                "3",
                "832236cae216e292",
                "8bfb3f419cefbe87",
                "e2fc48dd07597164",
                "4408dba5101b90cb",
                "7e68f3e948443109"
            },
            {
                "4",
                "c65e001c81477641",
                "62294efd3436113e",
                "9dddd185690aa720",
                "94f3014f99e0fb99",
                "5798a57d10892ee4"
            },
            {
                "5",
                "543ac49aadc94f20",
                "dd0689e68e3620cc",
                "0d0e9c5bfc9605f7",
                "d43a7451b906b288",
                "5f1925c90ecc55f4"
            },
            {
                "6",
                "c7c0f6f75c4a829f",
                "cc67239f755c4c77",
                "3c5e9cb8f0601020",
                "aa43cce45cf3513e",
                "ab4771f4567ad1c0"
            },
            {
                "7",
                "72d804dbab5da295",
                "a19a5d734d705fc2",
                "81787e4e645cf80c",
                "122c2ebd03240830",
                "10258e6b1dee53cd"
            },
            {
                "8",
                "d702544bb6c06867",
                "d5b6b654ac14e7ec",
                "0fdc844a60a97c95",
                "20e71b39716591b3",
                "eb0c51a99a9642f2"
            },
            {
                "9",
                "dc07fa61bc290d47",
                "e0a7bfda55c17281",
                "45f1b5a346413dbc",
                "3d12f53090cbf67b",
                "8a74710591684bf0"
            },
            {
                "12",
                "23e1035a917e9674",
                "33c8f6b078028781",
                "db297402e468cb35",
                "cde6707822887c2d",
                "7ac7bd20a12cc6e9"
            },
            {
                "15",
                "176463cd21d78232",
                "705fd02f3dad5f71",
                "e5fa2be2a661a113",
                "7e1ab4a872981481",
                "490ed66328278658"
            },
            {
                "17",
                "5fb1ca8bc15554b8",
                "9b41502cb681d224",
                "e388e6a2410ae336",
                "2931dfd8cecf196b",
                "adc5df3cb8a29238"
            },
            {
                "24",
                "a81713d098f426c1",
                "06ce730f92dfa96c",
                "8812a2072b088098",
                "5f74946c2eec9d11",
                "8d95c8d51da4cd5e"
            },
            {
                "32",
                "67f7a474ef0e3726",
                "988de0f20968ca4f",
                "4cb6189096e461f5",
                "967af16b3c8ed13e",
                "5599d30846c96ec1"
            },
            {
                "129",
                "ec79b70b7d89753f",
                "aad19cefe9d620d7",
                "ec3cba91b195a4e8",
                "23baa022815b277f",
                "555f47e5e0fc4f52"
            },
            {
                "300",
                "976e99ba924c4fcf",
                "4abdef0eac5763fd",
                "70eb34de6fa798be",
                "3bc02c42a9afd3b2",
                "fb7a7c99aeae1ca1"
            },
        };
        for (String[] v : vectors) {
            int n = Integer.parseInt(v[0]);
            byte[] b = new byte[n + 3];
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) ((i * 131 + n * 7 + 200) & 0xff);
            }
            long[] h = new long[2];
            CityHash102.cityHash128(b, 3, n, h);
            assertThat(hex64(h[0]) + " " + hex64(h[1]))
                    .as("cityHash128 len %d", n)
                    .isEqualTo(v[1] + " " + v[2]);
            assertThat(hex64(CityHash102.cityHash64(b, 3, n)))
                    .as("cityHash64 len %d", n)
                    .isEqualTo(v[3]);
            CityHash102.cityHash128WithSeed(b, 3, n, 0x123456789abcdef0L, 0xfedcba9876543210L, h);
            assertThat(hex64(h[0]) + " " + hex64(h[1]))
                    .as("cityHash128WithSeed len %d", n)
                    .isEqualTo(v[4] + " " + v[5]);
        }
    }

    @Test
    void cityHash64MatchesSqlVectors() {
        Object[][] vectors = {
            {"", "9AE16A3B2F90404F"},
            {"a", "2420662CD003ACFA"},
            {"abc", "3A912F483A4ECE31"},
            {"hello world", "ABE4036B6BB6A0A5"},
            {"The quick brown fox jumps over the lazy dog", "E7BA87D247C31277"},
            {"x".repeat(64), "595501F226ABCAD3"},
            {"y".repeat(65), "0D808743B9A38E2F"},
            {"z".repeat(200), "C83780AC596D07A8"},
        };
        for (Object[] v : vectors) {
            byte[] b = ((String) v[0]).getBytes(StandardCharsets.US_ASCII);
            long h = CityHash102.cityHash64(b, 0, b.length);
            assertThat(String.format("%016X", h)).as("cityHash64('%s')", v[0]).isEqualTo(v[1]);
        }
    }

    @Test
    void hashesOnlyTheGivenRangeWhateverSurroundsIt() {
        Random rnd = new Random(42);
        for (int len :
                new int[] {
                    0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255,
                    256, 300, 1000, 2048
                }) {
            byte[] exact = new byte[len];
            rnd.nextBytes(exact);
            byte[] padded = new byte[len + 13];
            rnd.nextBytes(padded);
            System.arraycopy(exact, 0, padded, 5, len);
            long[] a = new long[2];
            long[] b = new long[2];
            CityHash102.cityHash128(exact, 0, len, a);
            CityHash102.cityHash128(padded, 5, len, b);
            assertThat(b).as("cityHash128 len %d", len).containsExactly(a[0], a[1]);
            assertThat(CityHash102.cityHash64(padded, 5, len))
                    .as("cityHash64 len %d", len)
                    .isEqualTo(CityHash102.cityHash64(exact, 0, len));
            CityHash102.cityHash128WithSeed(exact, 0, len, 7, 9, a);
            CityHash102.cityHash128WithSeed(padded, 5, len, 7, 9, b);
            assertThat(b).as("cityHash128WithSeed len %d", len).containsExactly(a[0], a[1]);
        }
    }

    @Test
    void rejectsRangesOutsideTheArray() {
        byte[] b = new byte[10];
        long[] out = new long[2];
        assertThatThrownBy(() -> CityHash102.cityHash128(b, 5, 6, out))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> CityHash102.cityHash64(b, -1, 2))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> CityHash102.cityHash128WithSeed(b, 0, 4, 0, 0, new long[1]))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }
}
