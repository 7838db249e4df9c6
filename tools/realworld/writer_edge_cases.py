#!/usr/bin/env python3
"""Writes the Parquet files of ParquetWriterEdgeCasesTest (connector-source-s3): values other
writers store that sit at the edges of what ClickHouse reads, each read by this project's reader
and by ClickHouse (chDB) with several structures.

    tools/pyenv/bin/python tools/realworld/writer_edge_cases.py OUT_DIR

- decimal256 (FIXED_LEN_BYTE_ARRAY decimals wider than 16 bytes, as pyarrow and polars write
  them): values that fit Decimal(37, 5) although the declared precision is 40 or 76, NULLs,
  negatives; and a value that does not fit the target;
- INT96 timestamps (pyarrow's use_deprecated_int96_timestamps, as Spark and Impala write them):
  in range, at both ends of the Int64-nanosecond range, and beyond it (years 1000 and 3000,
  2262-04-12), which ClickHouse refuses;
- fixed-length binaries without a logical type (fastparquet's fixed-length text columns have this
  physical layout): text and bytes with trailing zeros, into String and FixedString.

OUT_DIR/manifest.tsv: file, ClickHouse format, ClickHouse structure, case. Deterministic.
"""

import datetime
import decimal
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

CASES = []
OUT = None


def write(table, name, structures, note, **options):
    pq.write_table(table, os.path.join(OUT, name), **options)
    for s in dict.fromkeys(structures):
        CASES.append((name, "Parquet", s, note))


def decimals():
    d = decimal.Decimal
    values = [d("1.5"), d("-123456.12345"), None, d("0"), d("99999999999999999999999999999999.99999"),
              d("-99999999999999999999999999999999.99999"), d("0.00001")]
    values += [d(k * 7919 - 500000).scaleb(-5) for k in range(300)]
    for precision, suffix, options in [
            (40, "", {}), (76, "", {}),
            (40, "-plain-v2", {"use_dictionary": False, "data_page_version": "2.0"}),
            (76, "-plain", {"use_dictionary": False})]:
        t = pa.table({"id": pa.array(range(len(values)), pa.int64()),
                      "d": pa.array(values, pa.decimal256(precision, 5))})
        write(t, f"decimal256-p{precision}{suffix}.parquet", [
            "id Int64, d Nullable(Decimal(37, 5))",
            "id Int64, d Nullable(Decimal(38, 5))",
            f"id Int64, d Nullable(Decimal({precision}, 5))",
            "id Int64, d Nullable(Decimal(76, 5))",
            "id Int64, d Decimal(37, 5)",
        ], f"decimal256({precision}, 5) with values that fit Decimal(37, 5)", **options)
    # the same values in Arrow IPC (file and stream)
    import pyarrow.ipc as ipc
    for precision in (40, 76):
        t = pa.table({"id": pa.array(range(len(values)), pa.int64()),
                      "d": pa.array(values, pa.decimal256(precision, 5))})
        for fmt, ext, new in [("Arrow", "arrow", ipc.new_file), ("ArrowStream", "arrows", ipc.new_stream)]:
            name = f"decimal256-p{precision}.{ext}"
            with new(os.path.join(OUT, name), t.schema) as w:
                w.write_table(t)
            for st in ["id Int64, d Nullable(Decimal(37, 5))", f"id Int64, d Nullable(Decimal({precision}, 5))"]:
                CASES.append((name, fmt, st, f"Arrow decimal256({precision}, 5)"))
    big = [d("1.5"), d("12345678901234567890123456789012345.12345")]
    t = pa.table({"id": pa.array(range(len(big)), pa.int64()), "d": pa.array(big, pa.decimal256(40, 5))})
    write(t, "decimal256-too-wide.parquet", [
        "id Int64, d Decimal(37, 5)",
        "id Int64, d Decimal(40, 5)",
    ], "decimal256 with a value wider than Decimal(37, 5)")


def int96():
    dt = datetime.datetime
    structures = [
        "id Int64, t Nullable(DateTime64(9, 'UTC'))",
        "id Int64, t Nullable(DateTime64(6, 'UTC'))",
        "id Int64, t Nullable(DateTime64(3, 'UTC'))",
    ]
    ok = [dt(2020, 1, 2, 3, 4, 5, 678000), None, dt(1677, 9, 22), dt(2262, 4, 11, 23, 47, 16),
          dt(1970, 1, 1), dt(1969, 12, 31, 23, 59, 59, 999000)]
    t = pa.table({"id": pa.array(range(len(ok)), pa.int64()), "t": pa.array(ok, pa.timestamp("ms"))})
    write(t, "int96-in-range.parquet", structures, "INT96 in the Int64-nanosecond range",
          use_deprecated_int96_timestamps=True)
    for name, when in [("int96-year-3000.parquet", dt(3000, 1, 1)),
                       ("int96-year-1000.parquet", dt(1000, 6, 1)),
                       ("int96-2262-04-12.parquet", dt(2262, 4, 12))]:
        t = pa.table({"id": pa.array([0, 1], pa.int64()),
                      "t": pa.array([dt(2020, 1, 1), when], pa.timestamp("ms"))})
        write(t, name, structures, "INT96 beyond the Int64-nanosecond range",
              use_deprecated_int96_timestamps=True)


def fixed_binary():
    text = [b"north", b"south", b"ab\x00\x00\x00", None, b"\xc3\xa9t\xc3\xa9", b"\x00\x00x\x00y"]
    t = pa.table({"id": pa.array(range(len(text)), pa.int64()),
                  "s": pa.array(text, pa.binary(5))})
    note = "FIXED_LEN_BYTE_ARRAY(5) without a logical type (fastparquet's fixed-length text layout)"
    write(t, "fixed-binary-text.parquet", [
        "id Int64, s Nullable(String)",
        "id Int64, s Nullable(FixedString(5))",
    ], note)
    # no NULLs into non-Nullable targets: ClickHouse 26.7 stores the next row's value in a NULL
    # slot of a fixed-length binary read into String (seen with chDB), which we do not follow
    t = pa.table({"id": pa.array(range(len(text) - 1), pa.int64()),
                  "s": pa.array([v for v in text if v is not None], pa.binary(5))})
    write(t, "fixed-binary-text-not-null.parquet", [
        "id Int64, s String",
        "id Int64, s FixedString(5)",
    ], note)


def main():
    global OUT
    OUT = sys.argv[1]
    os.makedirs(OUT, exist_ok=True)
    decimals()
    int96()
    fixed_binary()
    with open(os.path.join(OUT, "manifest.tsv"), "w") as f:
        for c in CASES:
            f.write("\t".join(c) + "\n")


if __name__ == "__main__":
    main()
