package io.github.s3mergetree.objectstore;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * {@code java.nio.file} only inside the POSIX store ({@link LocalFileObjectStoreClient}); the
 * module knows nothing of Flink.
 */
class ObjectStoreArchitectureTest {
    private static final JavaClasses CLASSES =
            new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("io.github.s3mergetree.objectstore");

    @Test
    void onlyThePosixStoreUsesTheFileSystem() {
        noClasses()
                .that()
                .doNotHaveFullyQualifiedName(LocalFileObjectStoreClient.class.getName())
                .and()
                .haveNameNotMatching(
                        java.util.regex.Pattern.quote(LocalFileObjectStoreClient.class.getName())
                                + "\\$.*")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("java.nio.file..")
                .check(CLASSES);
    }

    @Test
    void noFlink() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.apache.flink..")
                .check(CLASSES);
    }

    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.github.s3mergetree.(**)").should().beFreeOfCycles().check(CLASSES);
    }
}
