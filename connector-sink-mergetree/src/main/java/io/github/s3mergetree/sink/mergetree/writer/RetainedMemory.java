package io.github.s3mergetree.sink.mergetree.writer;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import org.apache.flink.annotation.Internal;

/**
 * The heap a block really holds: the capacity of its column arrays (which grow by doubling, so up
 * to twice {@link Block#byteSize()}), not just the bytes in use. This is what the writer's {@code
 * peakMemoryBytes} reports against {@code max_memory_usage}.
 */
@Internal
final class RetainedMemory {
    private RetainedMemory() {}

    static long of(Block block) {
        long total = 0;
        for (Column c : block.columns()) {
            total += of(c);
        }
        return total;
    }

    static long of(Column c) {
        if (c instanceof LongColumn l) {
            return 8L * l.data().length;
        }
        if (c instanceof IntColumn i) {
            return 4L * i.data().length;
        }
        if (c instanceof ShortColumn s) {
            return 2L * s.data().length;
        }
        if (c instanceof ByteColumn b) {
            return b.data().length;
        }
        if (c instanceof DoubleColumn d) {
            return 8L * d.data().length;
        }
        if (c instanceof FloatColumn f) {
            return 4L * f.data().length;
        }
        if (c instanceof FixedBytesColumn f) {
            return f.data().length;
        }
        if (c instanceof StringColumn s) {
            return s.bytes().length + 4L * s.offsets().length;
        }
        if (c instanceof NullableColumn n) {
            return of(n.nullMap()) + of(n.nested());
        }
        if (c instanceof ArrayColumn a) {
            return 4L * a.offsets().length + of(a.elements());
        }
        if (c instanceof TupleColumn t) {
            long total = 0;
            for (int i = 0; i < t.arity(); i++) {
                total += of(t.element(i));
            }
            return total;
        }
        return c.byteSize();
    }
}
