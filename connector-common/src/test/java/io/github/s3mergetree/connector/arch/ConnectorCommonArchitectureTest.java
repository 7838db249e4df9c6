package io.github.s3mergetree.connector.arch;

import io.github.s3mergetree.connector.testutils.ConnectorArchitecture;
import org.junit.jupiter.api.Test;

/** connector-common's structure: no package cycles, Flink only through its connector API. */
class ConnectorCommonArchitectureTest {
    private static final String ROOT = "io.github.s3mergetree.connector";

    @Test
    void packagesHaveNoCycles() {
        ConnectorArchitecture.checkPackagesFreeOfCycles(ROOT);
    }

    @Test
    void flinkIsUsedOnlyThroughItsConnectorApi() {
        ConnectorArchitecture.checkOnlyFlinksConnectorApi(ROOT);
    }
}
