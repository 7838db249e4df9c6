package io.github.s3mergetree.sink.mergetree.testutils;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;

/**
 * A deterministic test table: row {@code i} is a pure function of {@code i}, computed here as a
 * Flink {@link RowData} and, in {@link #chdbSelect}, by ClickHouse SQL over {@code numbers()}, so
 * that chDB can ingest the very same rows itself and the two tables can be compared.
 */
public final class EventRows {
    private EventRows() {}

    /** The table's columns (note and id2 are not in the input: they take their DEFAULTs). */
    public static final String COLUMNS =
            "(id UInt64, d Date, ts DateTime64(3, 'UTC'), user LowCardinality(String),"
                    + " kind Enum8('click' = 1, 'view' = 2, 'buy' = 3), amount Decimal(18, 4),"
                    + " score Float64, n Nullable(Int32), tags Array(String), attrs Map(String, UInt32),"
                    + " loc Tuple(lat Float64, lon Float64), code FixedString(4), u UUID, small UInt8,"
                    + " note String DEFAULT 'none', id2 UInt64 DEFAULT id * 2)";

    /** The DDL of table {@code name}. */
    public static String ddl(String name) {
        return "CREATE TABLE "
                + name
                + " "
                + COLUMNS
                + " ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY (user, id)";
    }

    /** The Flink row type of the input. */
    public static final RowType ROW_TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("d", DataTypes.DATE()),
                                    DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
                                    DataTypes.FIELD("user", DataTypes.STRING()),
                                    DataTypes.FIELD("kind", DataTypes.STRING()),
                                    DataTypes.FIELD("amount", DataTypes.DECIMAL(18, 4)),
                                    DataTypes.FIELD("score", DataTypes.DOUBLE()),
                                    DataTypes.FIELD("n", DataTypes.INT()),
                                    DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.STRING())),
                                    DataTypes.FIELD(
                                            "attrs",
                                            DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
                                    DataTypes.FIELD(
                                            "loc",
                                            DataTypes.ROW(
                                                    DataTypes.FIELD("lat", DataTypes.DOUBLE()),
                                                    DataTypes.FIELD("lon", DataTypes.DOUBLE()))),
                                    DataTypes.FIELD("code", DataTypes.STRING()),
                                    DataTypes.FIELD("u", DataTypes.STRING()),
                                    DataTypes.FIELD("small", DataTypes.INT()))
                            .getLogicalType();

    private static final String[] KINDS = {"click", "view", "buy"};

    /** Row {@code i}. */
    public static RowData row(long i) {
        GenericRowData r = new GenericRowData(14);
        r.setField(0, i);
        r.setField(1, (int) (19723 + i % 90)); // 2024-01-01 + i % 90
        r.setField(2, TimestampData.fromEpochMillis(1_700_000_000_000L + i * 1000 + i % 1000));
        r.setField(3, StringData.fromString("u" + (i % 37)));
        r.setField(4, StringData.fromString(KINDS[(int) (i % 3)]));
        r.setField(5, DecimalData.fromBigDecimal(BigDecimal.valueOf(i * 12345, 4), 18, 4));
        r.setField(6, i / 7.0);
        r.setField(7, i % 5 == 0 ? null : (int) (i % 1000) - 500);
        int k = (int) (i % 4);
        StringData[] tags = new StringData[k];
        for (int t = 0; t < k; t++) {
            tags[t] = StringData.fromString("t" + t);
        }
        r.setField(8, new GenericArrayData(tags));
        Map<Object, Object> attrs = new LinkedHashMap<>();
        attrs.put(StringData.fromString("a"), (int) (i % 100));
        attrs.put(StringData.fromString("b"), (int) (i % 7));
        r.setField(9, new GenericMapData(attrs));
        r.setField(
                10,
                GenericRowData.of((double) (i % 180) - 90 + 0.5, (double) (i % 360) - 180 + 0.25));
        r.setField(11, StringData.fromString("c" + (i % 1000)));
        r.setField(12, StringData.fromString(new UUID(i, i * 31).toString()));
        r.setField(13, (int) (i % 256));
        return r;
    }

    /** ClickHouse SQL producing rows {@code [from, from + count)} with the input's columns. */
    public static String chdbSelect(long from, long count) {
        String h =
                "concat(leftPad(lower(hex(number)), 16, '0'), leftPad(lower(hex(number * 31)), 16, '0'))";
        return "SELECT number AS id, toDate('2024-01-01') + (number % 90) AS d,"
                + " fromUnixTimestamp64Milli(toInt64(1700000000000 + number * 1000 + number % 1000), 'UTC') AS ts,"
                + " concat('u', toString(number % 37)) AS user,"
                + " ['click', 'view', 'buy'][number % 3 + 1] AS kind,"
                + " concat(toString(intDiv(number * 12345, 10000)), '.', leftPad(toString((number * 12345) % 10000), 4, '0')) AS amount,"
                + " number / 7 AS score,"
                + " if(number % 5 = 0, NULL, toInt32(number % 1000) - 500) AS n,"
                + " arrayMap(x -> concat('t', toString(x)), range(number % 4)) AS tags,"
                + " map('a', toUInt32(number % 100), 'b', toUInt32(number % 7)) AS attrs,"
                + " tuple(toFloat64(number % 180) - 90 + 0.5, toFloat64(number % 360) - 180 + 0.25) AS loc,"
                + " concat('c', toString(number % 1000)) AS code,"
                + " toUUID(concat(substring(h, 1, 8), '-', substring(h, 9, 4), '-', substring(h, 13, 4), '-',"
                + " substring(h, 17, 4), '-', substring(h, 21, 12))) AS u,"
                + " number % 256 AS small"
                + " FROM (SELECT number, "
                + h
                + " AS h FROM numbers("
                + from
                + ", "
                + count
                + "))";
    }

    /** The input's column names, for INSERT INTO t (...) SELECT. */
    public static final String INPUT_COLUMNS =
            "(id, d, ts, user, kind, amount, score, n, tags, attrs, loc, code, u, small)";
}
