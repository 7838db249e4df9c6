package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.expr.SqlLexer.Token;
import io.github.s3mergetree.engine.expr.SqlLexer.Type;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The parameters of the plain MergeTree engines, checked as ClickHouse's {@code
 * registerStorageMergeTree} and the merging modes check them: ReplacingMergeTree's version and
 * is_deleted columns, SummingMergeTree's columns to sum, the sign (and version) columns of the
 * Collapsing engines, with ClickHouse's messages.
 */
final class EngineParameterChecks {

    private final DdlTokens in;

    EngineParameterChecks(DdlTokens in) {
        this.in = in;
    }

    EngineDefinition plainEngine(
            Token nameToken,
            String name,
            List<List<Token>> args,
            List<ColumnDefinition> columns,
            KeyExpression sortingKey,
            boolean allowNullableKey) {
        int at = nameToken.start();
        switch (name) {
            case "MergeTree":
                if (!args.isEmpty()) {
                    throw in.error(
                            "This syntax for *MergeTree engine is deprecated. Use extended"
                                    + " storage definition syntax with ORDER BY/PRIMARY KEY clause",
                            at);
                }
                return EngineDefinition.mergeTree();
            case "ReplacingMergeTree":
                {
                    if (args.size() > 2) {
                        throw in.error(
                                "ReplacingMergeTree takes at most 2 parameters (version"
                                        + " column, is_deleted column), got "
                                        + args.size(),
                                at);
                    }
                    String ver = args.size() >= 1 ? columnArg(args.get(0), "version column") : null;
                    String del =
                            args.size() == 2 ? columnArg(args.get(1), "is_deleted column") : null;
                    if (ver != null) {
                        ColumnDefinition c =
                                engineColumn(columns, ver, "Version column", args.get(0).get(0));
                        DataType vt = c.type();
                        if (!isVersionType(vt)) {
                            throw in.error(
                                    "The column "
                                            + ver
                                            + " cannot be used as a version column for storage"
                                            + " ReplacingMergeTree because it is of type "
                                            + vt.name()
                                            + " (must be of an integer type or of"
                                            + " type Date/DateTime/DateTime64)",
                                    args.get(0).get(0).start());
                        }
                    }
                    if (del != null) {
                        ColumnDefinition c =
                                engineColumn(columns, del, "is_deleted column", args.get(1).get(0));
                        if (del.equals(ver)) {
                            throw in.error(
                                    "The version and is_deleted column cannot be the same"
                                            + " column ("
                                            + del
                                            + ")",
                                    args.get(1).get(0).start());
                        }
                        if (c.type().kind() != TypeKind.UINT8) {
                            throw in.error(
                                    "is_deleted column ("
                                            + del
                                            + ") for storage ReplacingMergeTree must have type"
                                            + " UInt8. Provided column of type "
                                            + c.type().name()
                                            + ".",
                                    args.get(1).get(0).start());
                        }
                    }
                    return EngineDefinition.replacingMergeTree(ver, del);
                }
            case "SummingMergeTree":
                {
                    if (args.size() > 1) {
                        throw in.error(
                                "SummingMergeTree takes at most 1 parameter (a column or a"
                                        + " tuple of columns to sum), got "
                                        + args.size(),
                                at);
                    }
                    List<String> sums = new ArrayList<>();
                    if (args.size() == 1) {
                        List<Token> a = args.get(0);
                        if (a.get(0).type() == Type.OPEN_PAREN) {
                            if (a.get(a.size() - 1).type() != Type.CLOSE_PAREN) {
                                throw in.unexpected(a.get(a.size() - 1), "')'");
                            }
                            for (int i = 1; i < a.size() - 1; i++) {
                                Token x = a.get(i);
                                if (x.isIdentifier()) {
                                    sums.add(x.text());
                                } else if (x.type() != Type.COMMA) {
                                    throw in.unexpected(x, "a column name");
                                }
                            }
                        } else {
                            sums.add(columnArg(a, "column to sum"));
                        }
                        Set<String> keyColumns = sortingKey.requiredColumns();
                        for (int i = 0; i < sums.size(); i++) {
                            String s = sums.get(i);
                            boolean exists = false;
                            for (ColumnDefinition c : columns) {
                                exists |= c.name().equals(s);
                            }
                            if (!exists) {
                                throw in.error(
                                        "Column "
                                                + s
                                                + " listed in columns to sum does not"
                                                + " exist in table declaration",
                                        a.get(0).start());
                            }
                            if (keyColumns.contains(s)) {
                                throw in.error(
                                        "Columns: "
                                                + s
                                                + " listed both in columns to sum and"
                                                + " in sorting key. That is not allowed",
                                        a.get(0).start());
                            }
                        }
                    }
                    return EngineDefinition.summingMergeTree(sums);
                }
            case "CollapsingMergeTree":
                {
                    if (args.size() != 1) {
                        throw in.error(
                                "With extended storage definition syntax storage"
                                        + " CollapsingMergeTree requires 1 parameters: name of column"
                                        + " with sign",
                                at);
                    }
                    String sign = columnArg(args.get(0), "sign column");
                    ColumnDefinition c =
                            engineColumn(columns, sign, "Sign column", args.get(0).get(0));
                    if (c.type().kind() != TypeKind.INT8) {
                        throw in.error(
                                "Sign column ("
                                        + sign
                                        + ") for storage CollapsingMergeTree"
                                        + " must have type Int8. Provided column of type "
                                        + c.type().name()
                                        + ".",
                                args.get(0).get(0).start());
                    }
                    return EngineDefinition.collapsingMergeTree(sign);
                }
            case "VersionedCollapsingMergeTree":
                {
                    if (args.size() != 2) {
                        throw in.error(
                                "With extended storage definition syntax storage"
                                        + " VersionedCollapsingMergeTree requires 2 parameters:"
                                        + " sign column, version",
                                at);
                    }
                    String sign = columnArg(args.get(0), "sign column");
                    String ver = columnArg(args.get(1), "version column");
                    ColumnDefinition s =
                            engineColumn(columns, sign, "Sign column", args.get(0).get(0));
                    if (s.type().kind() != TypeKind.INT8) {
                        throw in.error(
                                "Sign column ("
                                        + sign
                                        + ") for storage VersionedCollapsingMergeTree must have"
                                        + " type Int8. Provided column of type "
                                        + s.type().name()
                                        + ".",
                                args.get(0).get(0).start());
                    }
                    if (sign.equals(ver)) {
                        throw in.error(
                                "The version and sign column cannot be the same column ("
                                        + sign
                                        + ")",
                                args.get(1).get(0).start());
                    }
                    ColumnDefinition v = null;
                    for (ColumnDefinition c : columns) {
                        v = c.name().equals(ver) ? c : v;
                    }
                    if (v == null) {
                        throw in.error(
                                "There is no physical column " + ver + " in table",
                                args.get(1).get(0).start());
                    }
                    // the version joins the sorting key, whose Nullable check comes first
                    if (!allowNullableKey
                            && v.type() instanceof NullableType
                            && !sortingKey.columnNames().contains(ver)) {
                        throw in.error(
                                "Sorting key contains nullable columns, but merge tree setting"
                                        + " `allow_nullable_key` is disabled",
                                args.get(1).get(0).start());
                    }
                    if (!isVersionType(v.type())) {
                        throw in.error(
                                "The column "
                                        + ver
                                        + " cannot be used as a version column for storage"
                                        + " VersionedCollapsingMergeTree because it is of type "
                                        + v.type().name()
                                        + " (must be of an integer type or of"
                                        + " type Date/DateTime/DateTime64)",
                                args.get(1).get(0).start());
                    }
                    return EngineDefinition.versionedCollapsingMergeTree(sign, ver);
                }
            case "AggregatingMergeTree":
                if (!args.isEmpty()) {
                    throw in.error(
                            "With extended storage definition syntax storage AggregatingMergeTree"
                                    + " requires no parameters",
                            at);
                }
                return EngineDefinition.aggregatingMergeTree();
            default:
                if (EngineClauseParser.OTHER_ENGINES.contains(name)) {
                    throw in.unsupported(
                            "ENGINE " + name, EngineClauseParser.unsupportedEngine(name), at);
                }
                throw in.error("Unknown table engine " + name, at);
        }
    }

    private String columnArg(List<Token> arg, String what) {
        if (arg.size() != 1 || !arg.get(0).isIdentifier()) {
            throw in.error(
                    "The "
                            + what
                            + " must be given as a column name, found '"
                            + in.text.substring(arg.get(0).start(), arg.get(arg.size() - 1).end())
                            + "'",
                    arg.get(0).start());
        }
        return arg.get(0).text();
    }

    private ColumnDefinition engineColumn(
            List<ColumnDefinition> columns, String name, String what, Token at) {
        for (ColumnDefinition c : columns) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        throw in.error(what + " " + name + " does not exist in table declaration", at.start());
    }

    /**
     * ClickHouse's {@code IDataType::canBeUsedAsVersion}: numbers (integers, Bool, floats), Date,
     * Date32, DateTime and DateTime64; not Nullable, Decimal, Enum, UUID or IP types.
     */
    private static boolean isVersionType(DataType t) {
        return switch (t.kind()) {
            case UINT8,
                    UINT16,
                    UINT32,
                    UINT64,
                    UINT128,
                    UINT256,
                    INT8,
                    INT16,
                    INT32,
                    INT64,
                    INT128,
                    INT256,
                    BOOL,
                    FLOAT32,
                    FLOAT64,
                    DATE,
                    DATE32,
                    DATETIME,
                    DATETIME64 ->
                    true;
            default -> false;
        };
    }
}
