package io.github.s3mergetree.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives test methods and {@code @BeforeAll} methods a {@link FlinkStandaloneCluster} shared by all
 * e2e cases of the run (one start-up, ~15 s, instead of one per class), closed when the run ends.
 * Each resolution makes sure the cluster is usable: a dead JobManager means a new cluster, jobs
 * left running by a failed case are cancelled, and killed TaskManagers are replaced so that {@value
 * #TASK_MANAGERS} are registered.
 */
final class FlinkClusterExtension implements ParameterResolver {
    static final int TASK_MANAGERS = 2;
    private static final ExtensionContext.Namespace NS =
            ExtensionContext.Namespace.create(FlinkClusterExtension.class);

    /** Closes the cluster when the root extension context (the whole run) ends. */
    static final class Holder implements ExtensionContext.Store.CloseableResource {
        FlinkStandaloneCluster cluster;

        @Override
        public void close() {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
        return p.getParameter().getType() == FlinkStandaloneCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext c) {
        Holder h =
                c.getRoot()
                        .getStore(NS)
                        .getOrComputeIfAbsent("cluster", k -> new Holder(), Holder.class);
        synchronized (h) {
            if (h.cluster != null && !h.cluster.jobManagerProcess().isAlive()) {
                h.cluster.close();
                h.cluster = null;
            }
            if (h.cluster == null) {
                h.cluster = FlinkStandaloneCluster.start(E2E.newDir("flink"), TASK_MANAGERS);
            } else {
                cancelRunningJobs(h.cluster);
                h.cluster.ensureTaskManagers(TASK_MANAGERS);
            }
            return h.cluster;
        }
    }

    private static void cancelRunningJobs(FlinkStandaloneCluster cluster) {
        for (JsonNode job : cluster.rest("/jobs").path("jobs")) {
            String status = job.path("status").asText();
            if (!status.equals("FINISHED")
                    && !status.equals("CANCELED")
                    && !status.equals("FAILED")) {
                cluster.cancelJob(job.path("id").asText());
            }
        }
    }
}
