package io.github.s3mergetree.connector.testutils;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.annotation.Experimental;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Flink's connector convention (as {@code flink-connector-kafka}'s ArchUnit rules), shared by the
 * connector modules through connector-common's test-jar: every public top-level type says whether
 * users may build on it ({@code @PublicEvolving}) or not ({@code @Internal},
 * {@code @Experimental}).
 */
public final class ApiStability {
    /** Every public top-level type is annotated with its stability. */
    public static final ArchRule EVERY_PUBLIC_TYPE_SAYS_ITS_STABILITY =
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
                    .beAnnotatedWith(Experimental.class);

    private ApiStability() {}

    /**
     * The main (not test) classes of {@code rootPackage} and its subpackages, from the module's own
     * class directory (not from jars: each module checks its own types).
     */
    public static JavaClasses mainClasses(String rootPackage) {
        return MAIN_CLASSES.computeIfAbsent(rootPackage, ApiStability::importMainClasses);
    }

    /** Imports are slow (a class-path scan): each package is imported once per test JVM. */
    private static final Map<String, JavaClasses> MAIN_CLASSES = new ConcurrentHashMap<>();

    private static JavaClasses importMainClasses(String rootPackage) {
        JavaClasses classes =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                        .importPackages(rootPackage);
        if (classes.size() == 0) {
            // a wrong package name would make the rule pass on nothing
            throw new AssertionError("no main classes found in package " + rootPackage);
        }
        return classes;
    }

    /** Checks {@link #EVERY_PUBLIC_TYPE_SAYS_ITS_STABILITY} on the main classes of the package. */
    public static void checkEveryPublicTypeSaysItsStability(String rootPackage) {
        EVERY_PUBLIC_TYPE_SAYS_ITS_STABILITY.check(mainClasses(rootPackage));
    }
}
