package io.github.s3mergetree.source.s3.format;

import io.github.s3mergetree.engine.column.Block;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink type information of columnar {@link Block}s of a known {@link TargetSchema}: blocks travel
 * between operators (and into checkpoints of buffering operators) in the compact columnar form of
 * {@link BlockSerializer}, never as per-row objects.
 */
@PublicEvolving
public final class BlockTypeInfo extends TypeInformation<Block> {
    private static final long serialVersionUID = 1L;

    private final TargetSchema schema;

    public BlockTypeInfo(TargetSchema schema) {
        this.schema = java.util.Objects.requireNonNull(schema, "schema");
    }

    public TargetSchema schema() {
        return schema;
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

    @Override
    public String toString() {
        return "Block(" + schema + ")";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof BlockTypeInfo o && o.canEqual(this) && o.schema.equals(schema);
    }

    @Override
    public int hashCode() {
        return schema.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof BlockTypeInfo;
    }
}
