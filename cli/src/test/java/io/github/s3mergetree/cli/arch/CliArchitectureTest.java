package io.github.s3mergetree.cli.arch;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The command's packages depend on each other without a cycle: the shared argument types ({@code
 * cli.args}) and the subcommand contract ({@code cli.command}) below every subcommand, each
 * subcommand in its own package ({@code ingest}, {@code demo}, {@code deliver}, {@code parts},
 * {@code s3server}), the dispatcher ({@code cli}) on top. Before the module had its own packages,
 * {@code examples.cli} and {@code examples.ingest} used each other.
 */
class CliArchitectureTest {
    private static final JavaClasses CLASSES =
            new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                    .importPackages("io.github.s3mergetree.cli");

    @Test
    void packagesAreFreeOfCycles() {
        // the rule must see the command's packages (an empty import would pass any rule)
        assertThat(CLASSES.stream().map(c -> c.getPackageName()).distinct())
                .contains(
                        "io.github.s3mergetree.cli",
                        "io.github.s3mergetree.cli.args",
                        "io.github.s3mergetree.cli.ingest",
                        "io.github.s3mergetree.cli.demo");
        slices().matching("io.github.s3mergetree.(**)").should().beFreeOfCycles().check(CLASSES);
    }
}
