package io.github.s3mergetree.e2e;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * The smallest real job, packaged by {@link JobJars} into a jar of its own to check that the
 * standalone cluster runs submitted jobs: a sequence through a map into a discarding sink, on every
 * slot of the cluster.
 */
public final class TrivialJob {
    private TrivialJob() {}

    public static void main(String[] args) throws Exception {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 100_000;
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.fromSequence(1, n).map(new Square()).sinkTo(new DiscardingSink<>());
        env.execute("e2e trivial job");
    }

    /** A user function, so the job needs its own jar's classes on the TaskManagers. */
    public static final class Square implements MapFunction<Long, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long map(Long v) {
            return v * v;
        }
    }
}
