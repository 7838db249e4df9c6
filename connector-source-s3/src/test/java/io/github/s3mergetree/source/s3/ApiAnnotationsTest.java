package io.github.s3mergetree.source.s3;

import io.github.s3mergetree.connector.testutils.ApiStability;
import org.junit.jupiter.api.Test;

/**
 * Flink's connector convention (as {@code flink-connector-kafka}'s ArchUnit rules): every public
 * top-level type of this module says whether users may build on it ({@code @PublicEvolving}) or not
 * ({@code @Internal}, {@code @Experimental}); the rule is connector-common's {@link ApiStability}.
 */
class ApiAnnotationsTest {
    @Test
    void everyPublicTypeIsAnnotatedWithItsStability() {
        ApiStability.checkEveryPublicTypeSaysItsStability("io.github.s3mergetree.source.s3");
    }
}
