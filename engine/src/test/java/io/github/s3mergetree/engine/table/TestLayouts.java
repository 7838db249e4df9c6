package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.expr.ExprParser;
import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.merge.MergingMode;
import io.github.s3mergetree.engine.part.PartWriterOptions;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds table layouts for tests from a column structure and key expressions. */
public final class TestLayouts {
    private TestLayouts() {}

    public static Map<String, DataType> structure(String structure) {
        Map<String, DataType> out = new LinkedHashMap<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= structure.length(); i++) {
            char c = i < structure.length() ? structure.charAt(i) : ',';
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                String part = structure.substring(start, i).trim();
                int sp = part.indexOf(' ');
                out.put(part.substring(0, sp), DataTypeParser.parse(part.substring(sp + 1).trim()));
                start = i + 1;
            }
        }
        return out;
    }

    public static TableLayout of(
            String name,
            String structure,
            String orderBy,
            String partitionBy,
            MergingMode mode,
            TableSettings settings,
            PartWriterOptions format) {
        Map<String, DataType> cols = structure(structure);
        KeyExpression sort = ExprParser.parseKey(orderBy, cols, false);
        KeyExpression part =
                partitionBy == null
                        ? KeyExpression.EMPTY
                        : ExprParser.parseKey(partitionBy, cols, true);
        String ddl =
                "CREATE TABLE "
                        + name
                        + " ("
                        + structure
                        + ") ENGINE = MergeTree"
                        + (partitionBy == null ? "" : " PARTITION BY " + partitionBy)
                        + " ORDER BY "
                        + orderBy;
        return new TableLayout(
                ddl,
                name,
                new ArrayList<>(cols.keySet()),
                new ArrayList<>(cols.values()),
                Map.of(),
                part,
                sort,
                sort.size(),
                mode,
                format,
                settings,
                EvaluationContext.utc());
    }
}
