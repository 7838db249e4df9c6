package io.github.s3mergetree.sink.mergetree;

import io.github.s3mergetree.connector.testutils.ConnectorArchitecture;
import org.junit.jupiter.api.Test;

/** The sink module's structure: no package cycles, Flink only through its connector API. */
class SinkArchitectureTest {
    private static final String ROOT = "io.github.s3mergetree.sink";

    @Test
    void packagesHaveNoCycles() {
        ConnectorArchitecture.checkPackagesFreeOfCycles(ROOT);
    }

    @Test
    void flinkIsUsedOnlyThroughItsConnectorApi() {
        ConnectorArchitecture.checkOnlyFlinksConnectorApi(ROOT);
    }
}
