package io.github.s3mergetree.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.ddl.ColumnDefinition;
import io.github.s3mergetree.engine.ddl.DefaultKind;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.testing.LocalParts;
import io.github.s3mergetree.engine.types.DataType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MATERIALIZED columns over Map and Array columns ({@code attributes['service.name']}, {@code
 * tags[1]}, {@code length(tags)}, {@code mapKeys(attributes)}, {@code splitByChar(',', csv)} into
 * an {@code Array(LowCardinality(String))}): computed by our expressions, written into a part,
 * attached to chDB, whose own computation of the same expressions over the stored columns must give
 * the stored values.
 */
class MaterializedArrayAndMapColumnsChDbTest {
    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    static final String INPUT =
            "id UInt32, attributes Map(LowCardinality(String), String), tags"
                    + " Array(LowCardinality(String)), csv Nullable(String)";

    static final String DDL =
            "CREATE TABLE mat (id UInt32, attributes Map(LowCardinality(String), String), tags"
                    + " Array(LowCardinality(String)), csv Nullable(String), service"
                    + " LowCardinality(String) MATERIALIZED attributes['service.name'], first_tag"
                    + " String MATERIALIZED tags[1], last_tag String MATERIALIZED tags[-1],"
                    + " tag_count UInt32 MATERIALIZED length(tags), keys Array(String) MATERIALIZED"
                    + " mapKeys(attributes), parts Array(LowCardinality(String)) MATERIALIZED"
                    + " splitByChar(',',"
                    + " csv), has_env UInt8 MATERIALIZED mapContains(attributes, 'env'), uniq"
                    + " Array(String) MATERIALIZED arrayDistinct(tags)) ENGINE = MergeTree ORDER BY"
                    + " (service, id) SETTINGS index_granularity = 64";

    static final String GENERATOR =
            "SELECT toUInt32(number), CAST(arrayConcat(if(number % 3 = 0, [], [('service.name',"
                    + " concat(if(number % 7 = 0, 'сервис-', 'svc-'), toString(number % 5)))]),"
                    + " if(number % 4 = 0, [('env', 'prod')], []), arrayMap(i -> (concat('k',"
                    + " toString(i)), toString(number * i)), range(number % 3))),"
                    + " 'Map(LowCardinality(String), String)'), arrayMap(i -> concat('t',"
                    + " toString((number + i % 2) % 9)), range(number % 5)), if(number % 6 = 0, NULL,"
                    + " arrayStringConcat(arrayMap(i -> toString(i), range(number % 4)), ','))"
                    + " FROM numbers(1000)";

    @Test
    void materializedColumnsAreWhatClickHouseComputes() throws Exception {
        TableSchema schema = TableSchema.parse(DDL);
        TableLayout layout = TableLayouts.fromDdl(DDL);
        Path data = tmp.resolve("mat.bin");
        ch.execute(
                "INSERT INTO FUNCTION file('"
                        + data
                        + "', RowBinary, '"
                        + INPUT
                        + "') "
                        + GENERATOR);
        List<String> inputNames = List.of("id", "attributes", "tags", "csv");
        List<DataType> inputTypes = new ArrayList<>();
        for (String n : inputNames) {
            inputTypes.add(schema.column(n).orElseThrow().type());
        }
        Block input =
                RowBinary.read(Files.readAllBytes(data), inputNames, inputTypes, data.toString());
        List<Column> columns = new ArrayList<>();
        for (int c = 0; c < layout.columnNames().size(); c++) {
            ColumnDefinition def = schema.column(layout.columnNames().get(c)).orElseThrow();
            if (def.defaultKind() == DefaultKind.MATERIALIZED) {
                columns.add(
                        def.defaultExpression().orElseThrow().evaluate(input, layout.evaluation()));
            } else {
                columns.add(input.column(input.indexOf(def.name())));
            }
        }
        MergeTreeTable table =
                MergeTreeTable.open(
                        LocalParts.store(tmp.resolve("mat")), layout, Clock.systemUTC());
        table.insert(new Block(layout.columnNames(), layout.columnTypes(), columns));
        ch.execute(DDL);
        for (ActivePart p : table.activeParts()) {
            ch.attachPart("mat", LocalParts.root(table).resolve(p.name().toString()));
        }
        ch.assertCheckTablePasses("mat");
        assertThat(ch.queryLong("SELECT count() FROM mat")).isEqualTo(1000);
        String differences =
                ch.query(
                        "SELECT id, service, first_tag, last_tag, tag_count, keys, parts, has_env,"
                                + " uniq FROM mat WHERE service != attributes['service.name'] OR"
                                + " first_tag != tags[1] OR last_tag != tags[-1] OR tag_count !="
                                + " length(tags) OR keys != mapKeys(attributes) OR parts !="
                                + " splitByChar(',', csv) OR has_env != mapContains(attributes,"
                                + " 'env') OR uniq != arrayDistinct(tags) ORDER BY id LIMIT 10");
        assertThat(differences).isEmpty();
        // the comparison means something: the columns hold varied values
        assertThat(ch.queryLong("SELECT uniqExact(service) FROM mat")).isGreaterThan(5);
        assertThat(ch.queryLong("SELECT countIf(service = '') FROM mat")).isGreaterThan(100);
        assertThat(ch.queryLong("SELECT countIf(has_env) FROM mat")).isEqualTo(250);
    }
}
