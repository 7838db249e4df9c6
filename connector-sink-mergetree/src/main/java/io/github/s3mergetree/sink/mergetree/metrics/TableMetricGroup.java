package io.github.s3mergetree.sink.mergetree.metrics;

import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.MetricGroup;

/**
 * The metric group of one table's metrics: {@code addGroup("table", <table>)} under an operator's
 * group, so the table ({@code s3://bucket/prefix} or a directory) is a metric variable ({@code
 * <table>}, a label in Prometheus) and not part of the metric's name: the writer's, committer's,
 * merge coordinator's and delivery's metrics have the same names for every table (e.g. {@code
 * flink_taskmanager_job_task_operator_table_activeParts{table="s3://bucket/posts"}}), and operator
 * names carry no table either.
 */
@Internal
public final class TableMetricGroup {
    /** The variable's key. */
    public static final String TABLE = "table";

    private TableMetricGroup() {}

    /** The group of {@code table}'s metrics under {@code operator}. */
    public static MetricGroup of(MetricGroup operator, String table) {
        return operator.addGroup(TABLE, table);
    }
}
