package io.github.s3mergetree.e2e;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs the e2e cases only when the build has packaged the product: the cli module (the command) on
 * the test classpath is its jar (with the job jar {@code -job.jar} beside it), as in {@code mvn
 * verify}. A {@code mvn test} resolves it to {@code cli/target/classes} and would leave the cases
 * running an old or missing job jar and script build; they are skipped (reported as such) instead.
 */
final class PackagedBuild implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<Path> cli =
                Arrays.stream(E2E.testClasspath().split(File.pathSeparator))
                        .filter(e -> !e.isBlank())
                        .map(Path::of)
                        .filter(
                                p ->
                                        p.getFileName().toString().startsWith("s3-mergetree-cli")
                                                || p.endsWith(Path.of("cli", "target", "classes")))
                        .findFirst();
        if (cli.isEmpty()) {
            return ConditionEvaluationResult.disabled("the cli module is not on the classpath");
        }
        Path p = cli.get();
        if (Files.isDirectory(p)) {
            return ConditionEvaluationResult.disabled(
                    "e2e cases run in `mvn verify` (the packaged job jar); the cli module is " + p);
        }
        return ConditionEvaluationResult.enabled("the product is packaged: " + p);
    }
}
