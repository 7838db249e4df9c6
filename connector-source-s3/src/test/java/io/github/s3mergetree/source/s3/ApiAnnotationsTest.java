package io.github.s3mergetree.source.s3;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.apache.flink.annotation.Experimental;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.junit.jupiter.api.Test;

/**
 * Flink's connector convention (as {@code flink-connector-kafka}'s ArchUnit rules): every public
 * top-level type of this module says whether users may build on it ({@code @PublicEvolving}) or not
 * ({@code @Internal}, {@code @Experimental}).
 */
class ApiAnnotationsTest {
    @Test
    void everyPublicTypeIsAnnotatedWithItsStability() {
        JavaClasses main =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                        .importPackages("io.github.s3mergetree.source.s3");
        classes()
                .that()
                .arePublic()
                .and()
                .areTopLevelClasses()
                .should()
                .beAnnotatedWith(PublicEvolving.class)
                .orShould()
                .beAnnotatedWith(Internal.class)
                .orShould()
                .beAnnotatedWith(Experimental.class)
                .check(main);
    }
}
