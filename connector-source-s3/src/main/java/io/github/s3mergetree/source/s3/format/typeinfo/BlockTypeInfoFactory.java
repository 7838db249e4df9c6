package io.github.s3mergetree.source.s3.format.typeinfo;

import io.github.s3mergetree.engine.column.Block;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Gives Flink's type extraction {@link BlockTypeInfo#anySchema()} for {@link Block}, instead of
 * Kryo's generic type (which cannot copy a block). See {@link BlockTypeInfo#registerForLambdas()}.
 */
@PublicEvolving
public final class BlockTypeInfoFactory extends TypeInfoFactory<Block> {
    @Override
    public TypeInformation<Block> createTypeInfo(
            Type t, Map<String, TypeInformation<?>> genericParameters) {
        return BlockTypeInfo.anySchema();
    }
}
