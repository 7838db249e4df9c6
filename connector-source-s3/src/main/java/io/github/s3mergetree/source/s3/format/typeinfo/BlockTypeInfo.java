package io.github.s3mergetree.source.s3.format.typeinfo;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import javax.annotation.Nullable;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.TypeExtractor;

/**
 * Flink type information of columnar {@link Block}s, of a known {@link TargetSchema} or of any
 * ({@link #anySchema()}): blocks travel between operators (and into checkpoints of buffering
 * operators) in the compact columnar form of {@link BlockSerializer}, never as per-row objects.
 *
 * <p>Lambdas: a {@code map(b -> ...)} returning a {@code Block} would get Kryo, which cannot copy a
 * block. {@link #registerForLambdas()} (run when {@code S3Source} is loaded) registers {@link
 * BlockTypeInfoFactory} with Flink's type extractor, so such a lambda's output is typed {@code
 * Block(any schema)} without {@code .returns(...)}. Elsewhere set {@code
 * pipeline.serialization-config: [io.github.s3mergetree.engine.column.Block: {type: typeinfo,
 * class: io.github.s3mergetree.source.s3.format.typeinfo.BlockTypeInfoFactory}]}.
 */
@PublicEvolving
public final class BlockTypeInfo extends TypeInformation<Block> {
    private static final long serialVersionUID = 1L;

    private static final java.util.concurrent.atomic.AtomicBoolean REGISTERED =
            new java.util.concurrent.atomic.AtomicBoolean();

    @Nullable private final TargetSchema schema;

    /** Blocks of {@code schema} (serialized without a per-block header). */
    public BlockTypeInfo(TargetSchema schema) {
        this.schema = java.util.Objects.requireNonNull(schema, "schema");
    }

    private BlockTypeInfo() {
        this.schema = null;
    }

    /** Blocks of any schema: each serialized block carries its column names and types. */
    public static BlockTypeInfo anySchema() {
        return new BlockTypeInfo();
    }

    /** The declared schema, or null ({@link #anySchema()}). */
    @Nullable
    public TargetSchema schema() {
        return schema;
    }

    /**
     * Registers {@link BlockTypeInfoFactory} for {@link Block} with Flink's type extractor (once
     * per JVM), so that functions returning blocks are typed without {@code .returns(...)}.
     */
    public static void registerForLambdas() {
        if (REGISTERED.compareAndSet(false, true)) {
            try {
                TypeExtractor.registerFactory(Block.class, BlockTypeInfoFactory.class);
            } catch (RuntimeException e) {
                // registered already (by the user, or by another class loader's copy)
            }
        }
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<Block> getTypeClass() {
        return Block.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<Block> createSerializer(SerializerConfig config) {
        return new BlockSerializer(schema);
    }

    /**
     * Flink 1.20's abstract variant (removed in 2.0, where this is an ordinary method nobody
     * calls): declared without {@code @Override} so one source compiles against both lines.
     */
    public TypeSerializer<Block> createSerializer(
            org.apache.flink.api.common.ExecutionConfig config) {
        return new BlockSerializer(schema);
    }

    @Override
    public String toString() {
        return schema == null ? "Block(any schema)" : "Block(" + schema + ")";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof BlockTypeInfo o
                && o.canEqual(this)
                && java.util.Objects.equals(o.schema, schema);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hashCode(schema);
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof BlockTypeInfo;
    }
}
