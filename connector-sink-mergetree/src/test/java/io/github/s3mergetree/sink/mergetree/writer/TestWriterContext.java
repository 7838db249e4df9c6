package io.github.s3mergetree.sink.mergetree.writer;

import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobInfo;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

/**
 * A sink writer's init context for unit tests: job, subtask, attempt, the restored checkpoint and a
 * metric group that keeps every counter and gauge by name (the standard sink counters under their
 * getter names, a key-value group's variables in {@link #variables}). Proxies of the interfaces, so
 * that the tests compile against Flink 1.20 and 2.x alike (flink-connector-base's
 * TestSinkInitContext is not in the local repository).
 */
final class TestWriterContext {
    final Map<String, Object> metrics = new LinkedHashMap<>();
    final Map<String, String> variables = new LinkedHashMap<>();
    final JobID jobId = new JobID(1, 2);
    private final int subtask;
    private final int parallelism;
    private final int attempt;
    private final OptionalLong restoredCheckpoint;

    TestWriterContext(int subtask, int parallelism, int attempt, OptionalLong restoredCheckpoint) {
        this.subtask = subtask;
        this.parallelism = parallelism;
        this.attempt = attempt;
        this.restoredCheckpoint = restoredCheckpoint;
    }

    /** Subtask 0 of 1, first attempt, nothing restored. */
    static TestWriterContext fresh() {
        return new TestWriterContext(0, 1, 0, OptionalLong.empty());
    }

    long counter(String name) {
        Object m = metrics.get(name);
        if (m == null) {
            throw new AssertionError("no metric " + name + " among " + metrics.keySet());
        }
        return m instanceof Counter c
                ? c.getCount()
                : ((Number) ((Gauge<?>) m).getValue()).longValue();
    }

    WriterInitContext context() {
        ClassLoader cl = getClass().getClassLoader();
        SinkWriterMetricGroup group =
                (SinkWriterMetricGroup)
                        Proxy.newProxyInstance(
                                cl,
                                new Class<?>[] {SinkWriterMetricGroup.class},
                                (proxy, m, args) ->
                                        switch (m.getName()) {
                                            case "counter" -> {
                                                Object c =
                                                        args.length > 1
                                                                ? args[1]
                                                                : new SimpleCounter();
                                                metrics.put((String) args[0], c);
                                                yield c;
                                            }
                                            case "gauge" -> {
                                                metrics.put((String) args[0], args[1]);
                                                yield args[1];
                                            }
                                            case "getNumRecordsSendCounter",
                                                    "getNumBytesSendCounter",
                                                    "getNumRecordsOutErrorsCounter",
                                                    "getNumRecordsSendErrorsCounter" ->
                                                    metrics.computeIfAbsent(
                                                            m.getName(), k -> new SimpleCounter());
                                            case "addGroup" -> {
                                                if (args.length == 2) {
                                                    variables.put(
                                                            (String) args[0], (String) args[1]);
                                                }
                                                yield proxy;
                                            }
                                            case "setCurrentSendTimeGauge" -> null;
                                            case "toString" -> "metrics";
                                            case "hashCode" -> 1;
                                            case "equals" -> proxy == args[0];
                                            default ->
                                                    throw new UnsupportedOperationException(
                                                            m.getName());
                                        });
        JobInfo job =
                (JobInfo)
                        Proxy.newProxyInstance(
                                cl,
                                new Class<?>[] {JobInfo.class},
                                (proxy, m, args) ->
                                        switch (m.getName()) {
                                            case "getJobId" -> jobId;
                                            case "getJobName" -> "test job";
                                            default ->
                                                    throw new UnsupportedOperationException(
                                                            m.getName());
                                        });
        TaskInfo task =
                (TaskInfo)
                        Proxy.newProxyInstance(
                                cl,
                                new Class<?>[] {TaskInfo.class},
                                (proxy, m, args) ->
                                        switch (m.getName()) {
                                            case "getIndexOfThisSubtask" -> subtask;
                                            case "getNumberOfParallelSubtasks" -> parallelism;
                                            case "getMaxNumberOfParallelSubtasks" -> 128;
                                            case "getAttemptNumber" -> attempt;
                                            case "getTaskName", "getTaskNameWithSubtasks" ->
                                                    "writer";
                                            default ->
                                                    throw new UnsupportedOperationException(
                                                            m.getName());
                                        });
        return (WriterInitContext)
                Proxy.newProxyInstance(
                        cl,
                        new Class<?>[] {WriterInitContext.class},
                        (proxy, m, args) ->
                                switch (m.getName()) {
                                    case "metricGroup" -> group;
                                    case "getJobInfo" -> job;
                                    case "getTaskInfo" -> task;
                                    case "getRestoredCheckpointId" -> restoredCheckpoint;
                                    case "getSubtaskId" -> subtask;
                                    case "getNumberOfParallelSubtasks" -> parallelism;
                                    case "getAttemptNumber" -> attempt;
                                    case "getJobId" -> jobId;
                                    case "toString" -> "context";
                                    case "hashCode" -> 2;
                                    case "equals" -> proxy == args[0];
                                    default -> throw new UnsupportedOperationException(m.getName());
                                });
    }
}
