package io.github.s3mergetree.engine.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The team's reference material ({@code shared/}: golden parts ClickHouse wrote, the posts DDL),
 * found beside the checkout as the build passes it ({@code -Dshared.dir}, set by the root pom to
 * {@code <checkout>/../shared}).
 *
 * <p>Why a helper: tests that compare with this material must fail, not skip, when it is missing,
 * and must not depend on the path of one machine.
 */
public final class SharedReference {
    private SharedReference() {}

    /** The {@code shared/} directory; fails naming the paths tried when it does not exist. */
    public static Path dir() {
        String property = System.getProperty("shared.dir");
        Path dir = property != null ? Paths.get(property) : Paths.get("../../shared");
        if (!Files.isDirectory(dir.resolve("reference"))) {
            throw new IllegalStateException(
                    "The reference material is missing: no "
                            + dir.toAbsolutePath().normalize().resolve("reference")
                            + " (the build passes -Dshared.dir=<checkout>/../shared)");
        }
        return dir;
    }

    /** {@code shared/reference/parts}: the golden parts ClickHouse 26.7 and 18.16 wrote. */
    public static Path goldenParts() {
        return dir().resolve("reference/parts");
    }
}
