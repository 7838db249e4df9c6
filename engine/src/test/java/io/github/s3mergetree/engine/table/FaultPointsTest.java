package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The crash hook of whole-process tests: {@value FaultPoints#HALT_AT_PROPERTY} installs it only for
 * a point the engine reaches (a misspelt point would never halt and a kill test would pass without
 * killing), and {@link FaultPoints#POINTS} is exactly the set of points the engine's code reaches.
 */
class FaultPointsTest {
    @AfterEach
    void clear() {
        System.clearProperty(FaultPoints.HALT_AT_PROPERTY);
        FaultPoints.install(null);
    }

    @Test
    void withoutThePropertyNothingIsInstalled() {
        assertThat(FaultPoints.haltAtFromSystemProperty()).isEmpty();
        FaultPoints.reach("commit.after-record"); // no halt
    }

    @Test
    void aPointOfTheEngineIsAccepted() {
        System.setProperty(FaultPoints.HALT_AT_PROPERTY, "remove.before-record");
        assertThat(FaultPoints.haltAtFromSystemProperty()).contains("remove.before-record");
        FaultPoints.reach("commit.after-record"); // another point: no halt
    }

    @Test
    void anUnknownPointIsRefusedNamingTheKnownOnes() {
        System.setProperty(FaultPoints.HALT_AT_PROPERTY, "commit.after-recod");
        assertThatThrownBy(FaultPoints::haltAtFromSystemProperty)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got: commit.after-recod")
                .hasMessageContaining("merge.before-publish");
    }

    @Test
    void thePointsListedAreThePointsTheEngineReaches() throws IOException {
        Pattern reach = Pattern.compile("FaultPoints\\.reach\\(\"([^\"]+)\"\\)");
        Set<String> reached = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = reach.matcher(Files.readString(f));
                while (m.find()) {
                    reached.add(m.group(1));
                }
            }
        }
        assertThat(reached).containsExactlyInAnyOrderElementsOf(FaultPoints.POINTS);
    }
}
