package io.github.s3mergetree.connector.testutils;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import java.util.Map;
import java.util.Optional;

/**
 * The structure every module of this project keeps, checked by each module's architecture test over
 * its own main classes (as flink-connector-kafka runs Flink's shared architecture rules):
 *
 * <ul>
 *   <li>its packages form no cycle (each package is a slice, so a cycle between a package and its
 *       subpackage counts too);
 *   <li>it uses Flink only through Flink's API for connectors: classes annotated {@code @Public},
 *       {@code @PublicEvolving} or {@code @Experimental} (the sink2 topology interfaces are still
 *       {@code @Experimental}), and the few internals listed in {@link #FLINK_INTERNALS_IN_USE},
 *       each with the reason the public API does not cover it. Flink's own rule ({@code
 *       ConnectorRules.CONNECTOR_CLASSES_ONLY_DEPEND_ON_PUBLIC_API}) only looks at classes in
 *       {@code org.apache.flink.connector..}, so this is the same rule for this project's packages.
 * </ul>
 */
public final class ConnectorArchitecture {

    /** Flink packages or classes outside the public API in use, by name prefix, with why. */
    public static final Map<String, String> FLINK_INTERNALS_IN_USE =
            Map.of(
                    "org.apache.flink.core.memory.",
                    "DataInputDeserializer/DataOutputSerializer: the byte buffers of the versioned"
                            + " state and committable serializers, as Flink's own connectors use them",
                    "org.apache.flink.metrics.",
                    "ThreadSafeSimpleCounter and MeterView: Flink's metric implementations",
                    "org.apache.flink.table.data.columnar.",
                    "the SQL source's vectorized RowData (ColumnarRowData over column vectors), as"
                            + " flink-connector-files' columnar formats build it",
                    "org.apache.flink.table.data.binary.",
                    "BinaryStringData: the SQL sink reads RowData strings without a copy",
                    "org.apache.flink.table.runtime.typeutils.InternalTypeInfo",
                    "the produced type of a RowData source, as every Flink table source declares it",
                    "org.apache.flink.table.types.utils.TypeConversions",
                    "DataType <-> LogicalType conversion of the SQL source's produced type",
                    "org.apache.flink.table.types.logical.utils.LogicalTypeChecks",
                    "precision of TIMESTAMP/DECIMAL logical types in the SQL sink",
                    "org.apache.flink.runtime.execution.SuppressRestartsException",
                    "the committer fails the job without restarts when another writer holds the"
                            + " table's lease (a restart would only fail again)",
                    "org.apache.flink.api.dag.Transformation",
                    "the sink's post-commit topology names and sizes its merge coordinator",
                    "org.apache.flink.configuration.FallbackKey",
                    "the deprecated keys of an option (what the public ConfigOption.fallbackKeys()"
                            + " returns): an option read under its former keys, as Flink's"
                            + " FactoryUtil reads them");

    private ConnectorArchitecture() {}

    /** Checks that the packages of the main classes under {@code rootPackage} form no cycle. */
    public static void checkPackagesFreeOfCycles(String rootPackage) {
        slices().matching(rootPackage + ".(**)")
                .should()
                .beFreeOfCycles()
                .check(ApiStability.mainClasses(rootPackage));
    }

    /**
     * Checks that the main classes under {@code rootPackage} use no Flink class outside Flink's
     * connector API and {@link #FLINK_INTERNALS_IN_USE}.
     */
    public static void checkOnlyFlinksConnectorApi(String rootPackage) {
        classes()
                .should()
                .onlyDependOnClassesThat(FLINKS_CONNECTOR_API_OR_NOT_FLINK)
                .because("Flink internals change without notice between Flink versions")
                .check(ApiStability.mainClasses(rootPackage));
    }

    private static final DescribedPredicate<JavaClass> FLINKS_CONNECTOR_API_OR_NOT_FLINK =
            DescribedPredicate.describe(
                    "are not Flink classes, or are Flink's public API, or are listed in"
                            + " ConnectorArchitecture.FLINK_INTERNALS_IN_USE",
                    ConnectorArchitecture::allowed);

    private static boolean allowed(JavaClass c) {
        JavaClass t = c.isArray() ? c.getBaseComponentType() : c;
        String name = t.getName();
        if (!name.startsWith("org.apache.flink.")) {
            return true;
        }
        if (t.isAnnotation() || isPublicApi(t)) {
            return true;
        }
        return FLINK_INTERNALS_IN_USE.keySet().stream().anyMatch(name::startsWith);
    }

    private static boolean isPublicApi(JavaClass c) {
        for (Optional<JavaClass> k = Optional.of(c);
                k.isPresent();
                k = k.get().getEnclosingClass()) {
            JavaClass x = k.get();
            if (x.isAnnotatedWith("org.apache.flink.annotation.Public")
                    || x.isAnnotatedWith("org.apache.flink.annotation.PublicEvolving")
                    || x.isAnnotatedWith("org.apache.flink.annotation.Experimental")) {
                return true;
            }
        }
        return false;
    }
}
