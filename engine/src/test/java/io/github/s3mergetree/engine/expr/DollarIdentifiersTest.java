package io.github.s3mergetree.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Identifiers with {@code $} as ClickHouse lexes them: inside a bare name ({@code a$b}, {@code
 * a$}), at its start ({@code $a}) and back-quoted; a table whose columns and DEFAULT use them
 * parses as chDB's does.
 */
class DollarIdentifiersTest {
    @ChDbSession static ChDb db;

    @Test
    void dollarNamesParseBareAndQuoted() {
        Map<String, DataType> cols = new LinkedHashMap<>();
        cols.put("a$b", DataTypes.UINT32);
        cols.put("$a", DataTypes.UINT8);
        cols.put("a$", DataTypes.INT64);
        assertThat(ExprParser.parse("a$b + 1", cols).requiredColumns()).containsExactly("a$b");
        assertThat(ExprParser.parse("$a * a$", cols).requiredColumns()).containsExactly("$a", "a$");
        assertThat(ExprParser.parse("`$a` = 1 AND `a$b` > $a", cols).resultType().name())
                .isEqualTo("UInt8");
        // the printed form parses back to the same expression
        Expr e = ExprParser.parse("$a + a$b", cols);
        assertThat(ExprParser.parse(e.toSql(), cols).toSql()).isEqualTo(e.toSql());
    }

    @Test
    void tablesWithDollarColumnsParseAsInClickHouse() {
        String ddl =
                "CREATE TABLE dollars ($id UInt64, a$b String, total$ UInt64 DEFAULT $id * 2)"
                        + " ENGINE = MergeTree ORDER BY ($id, a$b)";
        db.execute(ddl);
        TableSchema s = TableSchema.parse(ddl);
        assertThat(s.column("$id")).isPresent();
        assertThat(s.column("total$").orElseThrow().defaultExpression().orElseThrow().toSql())
                .isEqualTo(
                        ExprOracle.unescape(
                                db.query(
                                        "SELECT default_expression FROM system.columns WHERE"
                                                + " table = 'dollars' AND name = 'total$'")));
    }
}
