package io.github.s3mergetree.engine.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine's structure, enforced: the engine reaches storage only through its {@code TableStore}
 * seam (no {@code java.nio.file} anywhere in it: the POSIX store is the object-store module's local
 * client), knows nothing of Flink or of the AWS SDK, and its packages form no cycles.
 */
class EngineArchitectureTest {
    private static JavaClasses engine;

    @BeforeAll
    static void importEngine() {
        engine =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.github.s3mergetree.engine");
    }

    @Test
    void theEngineUsesNoFileSystemApiOutsideTheStore() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("java.nio.file..")
                .because("storage goes through TableStore (S3 or the POSIX store)")
                .check(engine);
    }

    @Test
    void theEngineKnowsNothingOfFlinkOrTheAwsSdk() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.apache.flink..", "software.amazon..")
                .check(engine);
    }

    @Test
    void theEnginesPackagesHaveNoCycles() {
        slices().matching("io.github.s3mergetree.engine.(**)")
                .should()
                .beFreeOfCycles()
                .check(engine);
    }
}
