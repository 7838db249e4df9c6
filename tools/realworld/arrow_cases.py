#!/usr/bin/env python3
"""Writes the Arrow IPC (and Parquet) files of ArrowWriterTypesTest (connector-source-s3): one
feature per file, with its edge cases, each read by this project's reader and by ClickHouse (chDB).

    tools/pyenv/bin/python tools/realworld/arrow_cases.py OUT_DIR

- decimal32 / decimal64 (Arrow 18+; Arrow Java refuses their schema): extremes of the precision,
  negative values, NULLs; into the same Decimal, a wider one, and another scale (a cast);
- Utf8View / BinaryView: values inline (up to 12 bytes) and in several variadic data buffers,
  empty values, NULLs, bytes that are not UTF-8; into String, FixedString and Nullable(String);
- NULL parents: a NULL struct over non-NULL child values, a NULL fixed-size list over its values,
  a NULL list and a NULL map whose offsets still span elements, nested; as ClickHouse reads them
  (the children as stored), and the same rows written to Parquet.

OUT_DIR/manifest.tsv: file, ClickHouse format, ClickHouse structure, case (as generate.py writes
it). Deterministic.
"""

import decimal
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

CASES = []
OUT = None


def case(name, fmt, structure, note):
    CASES.append((name, fmt, structure, note))
    return os.path.join(OUT, name)


def write_arrow(table, name, structures, note, batch=None):
    """An IPC file and an IPC stream of the table, each read with every structure."""
    for fmt, ext, new in [("Arrow", "arrow", pa.ipc.new_file), ("ArrowStream", "arrows", pa.ipc.new_stream)]:
        path = os.path.join(OUT, f"{name}.{ext}")
        with new(path, table.schema) as w:
            w.write_table(table, max_chunksize=batch)
        for structure in structures:
            case(f"{name}.{ext}", fmt, structure, note)


def decimals():
    d = decimal.Decimal
    d32 = [d("9999999.99"), d("-9999999.99"), d("0.01"), d("-0.01"), d("0"), None, d("1234.5")]
    d32 += [d(k * 37 - 9000).scaleb(-2) for k in range(200)]
    d64 = [d("999999999999.999"), d("-999999999999.999"), d("0.001"), None, d("-1"), d("42")]
    d64 += [d(k * 123456789 - 10**10).scaleb(-3) for k in range(201)]
    t = pa.table({
        "d32": pa.array(d32, pa.decimal32(9, 2)),
        "d64": pa.array(d64, pa.decimal64(15, 3)),
        "d32s0": pa.array([None if k % 5 == 0 else k * 1000 - 99999 for k in range(207)], pa.decimal32(6, 0)),
    })
    write_arrow(t, "decimal32-64", [
        "d32 Nullable(Decimal(9, 2)), d64 Nullable(Decimal(15, 3)), d32s0 Nullable(Decimal(6, 0))",
        "d32 Nullable(Decimal(38, 2)), d64 Nullable(Decimal(18, 3)), d32s0 Nullable(Decimal(18, 0))",
        "d32 Nullable(Decimal(12, 4)), d64 Nullable(Decimal(38, 1)), d32s0 Nullable(Int64)",
        "d32 Decimal(9, 2), d64 Decimal(15, 3), d32s0 Decimal(6, 0)",
    ], "decimal32/decimal64: extremes, negatives, NULLs; same, wider, other scale", batch=50)


def views():
    values = []
    for k in range(300):
        if k % 11 == 0:
            values.append(None)
        elif k % 7 == 0:
            values.append("")
        elif k % 2 == 0:
            values.append(f"s{k}")  # inline: at most 12 bytes
        else:
            values.append(f"a value longer than twelve bytes, number {k}, " + "x" * (k % 40))
    binary = [None if v is None else v.encode() for v in values]
    binary = [b"\xff\x00\xfe" * (k % 9) if k % 5 == 1 and b is not None else b for k, b in enumerate(binary)]
    sv = pa.array(values, pa.string_view())
    bv = pa.array(binary, pa.binary_view())
    short = pa.array([None if k % 9 == 0 else f"{k % 1000}" for k in range(300)], pa.string_view())
    t = pa.table({"sv": sv, "bv": bv, "short": short})
    write_arrow(t, "views", [
        "sv Nullable(String), bv Nullable(String), short Nullable(String)",
        "sv String, bv String, short FixedString(3)",
    ], "Utf8View/BinaryView: inline, out of line in variadic buffers, empty, NULL, not UTF-8",
        batch=64)
    # a batch whose long values span several variadic buffers (pyarrow's concatenation of chunks)
    chunks = [pa.array([f"chunk {c} value {k} " + "y" * 20 for k in range(40)], pa.string_view())
              for c in range(4)]
    combined = pa.concat_arrays(chunks)
    t = pa.table({"sv": combined})
    write_arrow(t, "views-variadic", ["sv String"], "Utf8View over several data buffers")
    assert combined.buffers()[2:] and len(combined.buffers()) > 3, "expected several data buffers"


def null_parents():
    st_type = pa.struct([("a", pa.int32()), ("b", pa.string())])
    n = 40
    # a NULL struct over non-NULL child values (ClickHouse keeps them)
    st = pa.StructArray.from_arrays(
        [pa.array([k * 10 for k in range(n)], pa.int32()), pa.array([f"b{k}" for k in range(n)])],
        fields=list(st_type), mask=pa.array([k % 4 == 1 for k in range(n)]))
    # a NULL list whose offsets still span two elements
    offsets = pa.array([k * 2 for k in range(n + 1)], pa.int32())
    li = pa.ListArray.from_arrays(offsets, pa.array(range(2 * n), pa.int32()),
                                  mask=pa.array([k % 5 == 2 for k in range(n)]))
    # a NULL map over entries
    keys = pa.array([f"k{k}" for k in range(2 * n)])
    items = pa.array([k * 3 for k in range(2 * n)], pa.int64())
    m = pa.MapArray.from_arrays(offsets, keys, items, mask=pa.array([k % 6 == 3 for k in range(n)]))
    # a NULL fixed-size list slot over its values
    fsl = pa.FixedSizeListArray.from_arrays(pa.array(range(3 * n), pa.int16()), 3,
                                            mask=pa.array([k % 7 == 4 for k in range(n)]))
    # nested: a NULL struct holding a list, a list of NULL structs
    inner = pa.StructArray.from_arrays(
        [li, pa.array([float(k) / 4 for k in range(n)])], names=["l", "f"],
        mask=pa.array([k % 3 == 0 for k in range(n)]))
    lst_values = pa.StructArray.from_arrays(
        [pa.array(range(2 * n), pa.int64()), pa.array([f"q{k}" for k in range(2 * n)])],
        names=["p", "q"], mask=pa.array([k % 3 == 1 for k in range(2 * n)]))
    lst = pa.ListArray.from_arrays(offsets, lst_values)
    t = pa.table({"id": pa.array(range(n), pa.int64()), "st": st, "li": li, "m": m, "fsl": fsl,
                  "inner": inner, "lst": lst})
    structures = [
        "id Int64, st Tuple(a Nullable(Int32), b Nullable(String)), li Array(Nullable(Int32)),"
        " m Map(String, Nullable(Int64)), fsl Array(Nullable(Int16)),"
        " inner Tuple(l Array(Nullable(Int32)), f Nullable(Float64)),"
        " lst Array(Tuple(p Nullable(Int64), q Nullable(String)))",
        "id Int64, st Tuple(a Int32, b String), li Array(Int32), m Map(String, Int64),"
        " fsl Array(Int16), inner Tuple(l Array(Int32), f Float64), lst Array(Tuple(p Int64, q String))",
    ]
    write_arrow(t, "null-parents", structures,
                "NULL struct/list/map/fixed-size list slots over stored children, nested")
    # the same rows through Parquet (where a NULL parent stores no children)
    pq.write_table(t, os.path.join(OUT, "null-parents.parquet"), row_group_size=16)
    for structure in structures:
        case("null-parents.parquet", "Parquet", structure, "NULL parents written to Parquet")


def main():
    global OUT
    if len(sys.argv) != 2:
        print("usage: arrow_cases.py OUT_DIR", file=sys.stderr)
        sys.exit(2)
    OUT = sys.argv[1]
    os.makedirs(OUT, exist_ok=True)
    decimals()
    views()
    null_parents()
    with open(os.path.join(OUT, "manifest.tsv"), "w", encoding="utf-8") as f:
        for c in CASES:
            f.write("\t".join(c) + "\n")
    print(f"{len(CASES)} files in {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
