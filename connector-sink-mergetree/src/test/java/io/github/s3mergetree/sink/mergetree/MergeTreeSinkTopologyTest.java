package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operators the sink adds: with a uid on the sink, every one of them (writer, committer, merge
 * coordinator) gets a uid derived from it, so a job keeps its operator ids across changes; without
 * one, Flink derives them all from the topology (and accepts the sink).
 */
class MergeTreeSinkTopologyTest {
    static final String DDL = "CREATE TABLE t (id Int64) ENGINE = MergeTree ORDER BY id";
    @TempDir Path dir;

    private List<StreamNode> nodes(boolean withUid, boolean merges) {
        RowType rowType =
                RowType.of(
                        new org.apache.flink.table.types.logical.LogicalType[] {
                            new BigIntType(false)
                        },
                        new String[] {"id"});
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        DataStream<RowData> rows =
                env.fromData(List.<RowData>of(GenericRowData.of(1L)), InternalTypeInfo.of(rowType));
        MergeTreeSink<RowData> sink =
                MergeTreeSink.forRowData()
                        .setRowType(rowType)
                        .setTablePath(dir.resolve("t").toString())
                        .setDdl(DDL)
                        .setOption(MergeTreeSinkOptions.MERGES_ENABLED, merges)
                        .build();
        var s = rows.sinkTo(sink);
        if (withUid) {
            s.uid("events");
        }
        return List.copyOf(env.getStreamGraph().getStreamNodes());
    }

    @Test
    void everyOperatorOfASinkWithAUidHasOne() {
        for (boolean merges : new boolean[] {true, false}) {
            List<StreamNode> sinkNodes =
                    nodes(true, merges).stream()
                            .filter(n -> !n.getOperatorName().contains("Source"))
                            .toList();
            sinkNodes.forEach(
                    n ->
                            System.out.println(
                                    "NODE "
                                            + n.getOperatorName()
                                            + " uid="
                                            + n.getTransformationUID()));
            assertThat(sinkNodes).hasSizeGreaterThanOrEqualTo(merges ? 3 : 2);
            for (StreamNode n : sinkNodes) {
                assertThat(n.getTransformationUID())
                        .as("uid of %s", n.getOperatorName())
                        .isNotNull()
                        .contains("events");
            }
            if (merges) {
                assertThat(sinkNodes)
                        .anySatisfy(
                                n ->
                                        assertThat(n.getTransformationUID())
                                                .contains(MergeTreeSink.MERGES_UID));
            }
        }
    }

    @Test
    void aSinkWithoutAUidIsAccepted() {
        assertThat(nodes(false, true))
                .anySatisfy(n -> assertThat(n.getOperatorName()).contains("MergeTree merges"));
    }
}
