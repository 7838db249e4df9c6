package io.github.s3mergetree.connector.testutils;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BiConsumer;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Golden-bytes backward-compatibility checks of versioned state serializers, shared by the
 * connector modules through connector-common's test-jar. Every layout version ever written is a
 * file under the module's {@code src/test/resources/golden/} (written once, by the version that
 * introduced it, never regenerated); every one of them must still deserialize, and the current
 * version's file must equal what the serializer writes today, so a layout change without a new
 * version fails. {@code -Dgolden.write=true} writes the current version's file when it is missing
 * (when a version is added).
 */
public final class GoldenBytes {
    private GoldenBytes() {}

    /** The golden file {@code name} from the test classpath ({@code /golden/name}). */
    public static byte[] read(String name) throws IOException {
        try (InputStream in = GoldenBytes.class.getResourceAsStream("/golden/" + name)) {
            assertThat(in).as("golden file %s", name).isNotNull();
            return in.readAllBytes();
        }
    }

    /**
     * Writes {@code bytes} as the golden file {@code name} of the module under test, only with
     * {@code -Dgolden.write=true} and only if it does not exist (golden files are never rewritten).
     */
    public static void writeIfMissing(String name, byte[] bytes) throws IOException {
        if (Boolean.getBoolean("golden.write")) {
            Path f = Path.of("src/test/resources/golden", name);
            Files.createDirectories(f.getParent());
            if (!Files.exists(f)) {
                Files.write(f, bytes);
            }
        }
    }

    /**
     * The golden files {@code prefix-v1.bin} … {@code prefix-vN.bin} (N the serializer's current
     * version) all deserialize to {@code expected} (checked by {@code equalsExpected}), and {@code
     * prefix-vN.bin} equals what the serializer writes for {@code expected} today.
     */
    public static <T> void assertEveryVersionRestores(
            SimpleVersionedSerializer<T> serializer,
            String prefix,
            T expected,
            BiConsumer<Integer, T> equalsExpected)
            throws IOException {
        String current = fileName(prefix, serializer.getVersion());
        writeIfMissing(current, serializer.serialize(expected));
        for (int v = 1; v <= serializer.getVersion(); v++) {
            equalsExpected.accept(v, serializer.deserialize(v, read(fileName(prefix, v))));
        }
        assertThat(serializer.serialize(expected))
                .as("%s: the layout changed without a new version", current)
                .isEqualTo(read(current));
    }

    /** As above, the restored values {@code equals} to {@code expected}. */
    public static <T> void assertEveryVersionRestores(
            SimpleVersionedSerializer<T> serializer, String prefix, T expected) throws IOException {
        assertEveryVersionRestores(
                serializer,
                prefix,
                expected,
                (v, restored) -> assertThat(restored).as("%s v%s", prefix, v).isEqualTo(expected));
    }

    /** {@code prefix-v<version>.bin}. */
    public static String fileName(String prefix, int version) {
        return prefix + "-v" + version + ".bin";
    }
}
