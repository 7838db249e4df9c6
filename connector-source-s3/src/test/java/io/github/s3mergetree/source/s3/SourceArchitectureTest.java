package io.github.s3mergetree.source.s3;

import io.github.s3mergetree.connector.testutils.ConnectorArchitecture;
import org.junit.jupiter.api.Test;

/** The source module's structure: no package cycles, Flink only through its connector API. */
class SourceArchitectureTest {
    private static final String ROOT = "io.github.s3mergetree.source";

    @Test
    void packagesHaveNoCycles() {
        ConnectorArchitecture.checkPackagesFreeOfCycles(ROOT);
    }

    @Test
    void flinkIsUsedOnlyThroughItsConnectorApi() {
        ConnectorArchitecture.checkOnlyFlinksConnectorApi(ROOT);
    }
}
