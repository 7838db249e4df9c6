package io.github.s3mergetree.delivery.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The delivery module's structure: it knows nothing of Flink (the sink's delivery operator and the
 * CLI both drive it), it reads and writes the table only through the engine's {@code TableStore}
 * (no S3 client of its own: the AWS SDK stays behind the object-store module's client), and its
 * packages form no cycles (each package a slice).
 */
class DeliveryArchitectureTest {
    private static JavaClasses delivery;

    @BeforeAll
    static void importDelivery() {
        delivery =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                        .importPackages("io.github.s3mergetree.delivery");
    }

    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.github.s3mergetree.(**)").should().beFreeOfCycles().check(delivery);
    }

    @Test
    void deliveryKnowsNothingOfFlink() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.apache.flink..")
                .check(delivery);
    }

    @Test
    void deliveryReachesS3OnlyThroughTheEnginesTableStore() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("software.amazon.awssdk..")
                .because(
                        "delivery reads the table through the engine's TableStore, whose"
                                + " object-store client is the one place the AWS SDK is used")
                .check(delivery);
    }
}
