package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.ddl.DdlParseException;
import io.github.s3mergetree.engine.ddl.DdlParser;
import io.github.s3mergetree.engine.ddl.TableSchema;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A {@link TableDefinition} is parsed once where it is made; a serialized copy carries only the
 * text and parses it once, when its schema is first asked for (not when it is read: Flink
 * deserializes copies nothing uses).
 */
class TableDefinitionTest {
    static final String DDL =
            "create table defs_t (id UInt64, s String DEFAULT 'x', m UInt64 MATERIALIZED id * 2)"
                    + " engine = MergeTree order by id";

    @Test
    void parsedOnceAndACopyParsesOnceAtItsFirstUse() throws Exception {
        List<String> parses = new CopyOnWriteArrayList<>();
        try (AutoCloseable observed =
                DdlParser.observeParses(
                        t -> {
                            if (t.equals(DDL)) {
                                parses.add(t);
                            }
                        })) {
            TableDefinition d = TableDefinition.parse(DDL);
            d.schema();
            d.storedDdl();
            d.utcLayout();
            assertThat(parses).hasSize(1);

            TableDefinition copy = roundTrip(d);
            assertThat(parses).as("reading a copy parses nothing").hasSize(1);
            assertThat(copy).isEqualTo(d);
            assertThat(copy.ddl()).isEqualTo(DDL);
            assertThat(copy.schema().columns()).isEqualTo(d.schema().columns());
            assertThat(copy.storedDdl()).isEqualTo(d.storedDdl());
            copy.utcLayout();
            assertThat(parses).as("the copy parsed once").hasSize(2);
        }
    }

    @Test
    void theStoredFormIsTheCanonicalStatementOfEveryLayout() {
        TableDefinition d = TableDefinition.parse(DDL);
        assertThat(d.storedDdl())
                .isEqualTo(TableSchema.parse(DDL).toCreateTableSql())
                .isEqualTo(d.utcLayout().ddl())
                .isEqualTo(TableLayouts.fromDdl(DDL).ddl())
                .isNotEqualTo(DDL);
    }

    @Test
    void anInvalidStatementIsRefusedAsTheParserRefusesIt() {
        String bad = "CREATE TABLE t (id UInt64) ENGINE = MergeTree ORDER BY nope";
        assertThatThrownBy(() -> TableDefinition.parse(bad))
                .isInstanceOf(DdlParseException.class)
                .hasMessageContaining("nope");
    }

    @Test
    void theObserverIsToldNothingOnceClosed() throws Exception {
        List<String> parses = new CopyOnWriteArrayList<>();
        AutoCloseable observed = DdlParser.observeParses(parses::add);
        TableSchema.parse(DDL);
        observed.close();
        TableSchema.parse(DDL);
        assertThat(parses).containsExactly(DDL);
    }

    private static TableDefinition roundTrip(TableDefinition d) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(d);
        }
        try (ObjectInputStream in =
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (TableDefinition) in.readObject();
        }
    }
}
