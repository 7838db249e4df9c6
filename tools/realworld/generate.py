#!/usr/bin/env python3
"""Writes the real-world file suite: files as other tools write them, for the differential test
RealWorldFilesITCase (connector-source-s3), which reads each file with this project's reader and
with ClickHouse (chDB) and requires equal rows or a refusal by both.

    tools/pyenv/bin/python tools/realworld/generate.py OUT_DIR

Writers: pyarrow (Parquet with every compression, data page v1/v2, dictionary on/off, each Parquet
encoding, page checksums, INT96, FLOAT16, null parents, many row groups; Arrow IPC file, stream and
Feather with LZ4/ZSTD buffers, dictionaries, decimal32/64, string/binary views), pandas (CSV, CSV
with a BOM, JSON lines) and DuckDB (Parquet with its types, INTERVAL and HUGEINT, CSV). Files of
apache/parquet-testing and apache/arrow-testing cannot be kept in this repository: their interesting
cases are reproduced here instead (the legacy Hadoop-framed LZ4 codec, a page with a wrong CRC, a
truncated file, a corrupt page), some by rewriting a pyarrow-written file's Thrift metadata.

OUT_DIR/manifest.tsv lists one case per line: file, ClickHouse format, ClickHouse structure (the
target columns), and what the case is. Deterministic: the same files on every run.
"""

import datetime
import decimal
import os
import struct
import sys

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq

ROWS = 600
OUT = None
CASES = []


def case(name, fmt, structure, note):
    CASES.append((name, fmt, structure, note))
    return os.path.join(OUT, name)


def nth_null(values, every, offset=0):
    return [None if (i + offset) % every == 0 else v for i, v in enumerate(values)]


# ---------------------------------------------------------------------------------- the base table

def base_table(rows=ROWS):
    """Flat and nested columns with NULLs at the leaves (never a NULL list, struct or map)."""
    rng = np.random.default_rng(42)
    i = np.arange(rows)
    cols = {}
    cols["id"] = pa.array(i, pa.int64())
    cols["i8"] = pa.array(nth_null(((i * 37) % 256 - 128).tolist(), 7), pa.int8())
    cols["i16"] = pa.array(nth_null(((i * 7919) % 65536 - 32768).tolist(), 11), pa.int16())
    cols["i32"] = pa.array(nth_null((rng.integers(-2**31, 2**31 - 1, rows)).tolist(), 5), pa.int32())
    cols["i64"] = pa.array(nth_null((rng.integers(-2**62, 2**62, rows)).tolist(), 13), pa.int64())
    cols["u8"] = pa.array(nth_null(((i * 13) % 256).tolist(), 9), pa.uint8())
    cols["u16"] = pa.array(nth_null(((i * 1009) % 65536).tolist(), 6), pa.uint16())
    cols["u32"] = pa.array(nth_null((rng.integers(0, 2**32 - 1, rows)).tolist(), 8), pa.uint32())
    cols["u64"] = pa.array(nth_null([int(x) * 3 for x in rng.integers(0, 2**62, rows)], 10), pa.uint64())
    cols["f32"] = pa.array(nth_null((rng.standard_normal(rows) * 1000).astype(np.float32).tolist(), 4), pa.float32())
    cols["f64"] = pa.array(nth_null((rng.standard_normal(rows) * 1e6).tolist(), 12), pa.float64())
    cols["b"] = pa.array(nth_null([bool(x % 3) for x in i], 7), pa.bool_())
    words = ["alpha", "beta", "gamma", "délta", "ε", "", "a longer value with spaces", "日本語"]
    cols["s"] = pa.array(nth_null([words[x % len(words)] + str(x % 50) for x in i], 6), pa.string())
    cols["bin"] = pa.array(nth_null([bytes([x % 256, (x * 7) % 256, 0, 255]) * (x % 3) for x in i], 5), pa.binary())
    cols["fsb"] = pa.array(nth_null([struct.pack("<I", x * 2654435761 % 2**32) for x in i], 9), pa.binary(4))
    cols["d"] = pa.array(nth_null([datetime.date(1970, 1, 1) + datetime.timedelta(days=int(x * 97 % 60000)) for x in i], 8), pa.date32())
    base = 1_600_000_000_000
    cols["ts_ms"] = pa.array(nth_null([base + int(x) * 123457 for x in i], 7), pa.timestamp("ms", tz="UTC"))
    cols["ts_us"] = pa.array(nth_null([base * 1000 + int(x) * 123456789 for x in i], 9), pa.timestamp("us", tz="UTC"))
    cols["ts_ns"] = pa.array(nth_null([base * 1000000 + int(x) * 987654321123 for x in i], 11), pa.timestamp("ns", tz="UTC"))
    cols["dec9"] = pa.array(nth_null([decimal.Decimal(int(x) * 12345 - 3000000).scaleb(-2) for x in i], 6), pa.decimal128(9, 2))
    cols["dec18"] = pa.array(nth_null([decimal.Decimal(int(x) * 123456789012 - 10**15).scaleb(-4) for x in i], 7), pa.decimal128(18, 4))
    cols["dec38"] = pa.array(nth_null([decimal.Decimal(int(x) * 10**25 + 7).scaleb(-10) for x in i], 8), pa.decimal128(38, 10))
    cols["li"] = pa.array([nth_null(list(range(x % 5)), 3, x) for x in i], pa.list_(pa.int32()))
    cols["ls"] = pa.array([[words[(x + k) % len(words)] for k in range(x % 4)] for x in i], pa.list_(pa.string()))
    cols["st"] = pa.array([{"a": None if x % 5 == 0 else int(x), "b": words[x % len(words)]} for x in i],
                          pa.struct([("a", pa.int32()), ("b", pa.string())]))
    cols["m"] = pa.array([[(words[k % len(words)] + str(k), None if (x + k) % 4 == 0 else int(x * k)) for k in range(x % 3)] for x in i],
                         pa.map_(pa.string(), pa.int64()))
    cols["lst"] = pa.array([[{"x": int(x + k), "y": None if k == 1 else float(k) / 2} for k in range(x % 3)] for x in i],
                           pa.list_(pa.struct([("x", pa.int64()), ("y", pa.float64())])))
    return pa.table(cols)


BASE_STRUCTURE = ", ".join([
    "id Int64", "i8 Nullable(Int8)", "i16 Nullable(Int16)", "i32 Nullable(Int32)", "i64 Nullable(Int64)",
    "u8 Nullable(UInt8)", "u16 Nullable(UInt16)", "u32 Nullable(UInt32)", "u64 Nullable(UInt64)",
    "f32 Nullable(Float32)", "f64 Nullable(Float64)", "b Nullable(Bool)", "s Nullable(String)",
    "bin Nullable(String)", "fsb Nullable(FixedString(4))", "d Nullable(Date32)",
    "ts_ms Nullable(DateTime64(3, 'UTC'))", "ts_us Nullable(DateTime64(6, 'UTC'))",
    "ts_ns Nullable(DateTime64(9, 'UTC'))", "dec9 Nullable(Decimal(9, 2))",
    "dec18 Nullable(Decimal(18, 4))", "dec38 Nullable(Decimal(38, 10))",
    "li Array(Nullable(Int32))", "ls Array(Nullable(String))",
    "st Tuple(a Nullable(Int32), b Nullable(String))", "m Map(String, Nullable(Int64))",
    "lst Array(Tuple(x Nullable(Int64), y Nullable(Float64)))",
])

# the same columns into other ClickHouse types than the natural ones (ClickHouse's casts)
CAST_STRUCTURE = ", ".join([
    "id UInt64", "i8 Int64", "i16 Float64", "i32 Nullable(Int64)", "u8 UInt16", "u32 Int64",
    "f32 Float64", "s LowCardinality(Nullable(String))", "d Nullable(Date)",
    "ts_ms Nullable(DateTime('UTC'))", "ts_us Nullable(DateTime64(3, 'UTC'))",
    "dec9 Nullable(Decimal(18, 2))", "dec18 Nullable(Decimal(38, 4))", "li Array(Int64)",
    "st Tuple(Int32, String)", "fsb Nullable(String)", "absent_column String",
])


# ---------------------------------------------------------------------------------- Parquet, pyarrow

def parquet_matrix(table):
    codecs = ["NONE", "SNAPPY", "GZIP", "BROTLI", "ZSTD", "LZ4"]
    for codec in codecs:
        for version in ["1.0", "2.0"]:
            for dictionary in [True, False]:
                name = f"pyarrow-{codec.lower()}-v{version[0]}-{'dict' if dictionary else 'plain'}.parquet"
                pq.write_table(table, case(name, "Parquet", BASE_STRUCTURE,
                                           f"pyarrow {codec}, data page v{version[0]}, dictionary {dictionary}"),
                               compression=codec, data_page_version=version, use_dictionary=dictionary,
                               row_group_size=250, data_page_size=2048)
    # format version 1.0 (uint32 as INT64, no nanosecond timestamps)
    pq.write_table(table, case("pyarrow-format-1.0.parquet", "Parquet", BASE_STRUCTURE.replace(
        "ts_ns Nullable(DateTime64(9, 'UTC'))", "ts_ns Nullable(DateTime64(6, 'UTC'))"), "pyarrow format version 1.0"),
        version="1.0", coerce_timestamps="us", allow_truncated_timestamps=True)
    pq.write_table(table, case("pyarrow-casts.parquet", "Parquet", CAST_STRUCTURE,
                               "pyarrow, read into other ClickHouse types (casts)"))
    pq.write_table(table, case("pyarrow-int96.parquet", "Parquet",
                               "id Int64, ts_ms Nullable(DateTime64(3, 'UTC')), ts_us Nullable(DateTime64(6, 'UTC')),"
                               " ts_ns Nullable(DateTime64(9, 'UTC'))", "INT96 timestamps (Spark, Impala)"),
                   use_deprecated_int96_timestamps=True)
    pq.write_table(table, case("pyarrow-checksums.parquet", "Parquet", BASE_STRUCTURE,
                               "page CRC checksums written"), write_page_checksum=True)
    pq.write_table(table, case("pyarrow-small-pages.parquet", "Parquet", BASE_STRUCTURE,
                               "100-byte pages, 7 rows per group"),
                   row_group_size=7, data_page_size=100, write_batch_size=5)
    pq.write_table(table.slice(0, 0), case("pyarrow-empty.parquet", "Parquet", BASE_STRUCTURE, "no rows"))
    # encodings, one column kind each
    i = np.arange(ROWS)
    enc_table = pa.table({
        "i32": pa.array(nth_null((i * 7 - 1000).tolist(), 5), pa.int32()),
        "i64": pa.array(nth_null((i * 1234567891 - 10**11).tolist(), 6), pa.int64()),
        "f32": pa.array(nth_null((i / 3).astype(np.float32).tolist(), 7), pa.float32()),
        "f64": pa.array(nth_null((i / 7).tolist(), 8), pa.float64()),
        "s": pa.array(nth_null([f"prefix-{x // 10}-{x}" for x in i], 9), pa.string()),
        "b": pa.array(nth_null([x % 3 == 0 for x in i], 4), pa.bool_()),
    })
    enc_structure = ("i32 Nullable(Int32), i64 Nullable(Int64), f32 Nullable(Float32), f64 Nullable(Float64),"
                     " s Nullable(String), b Nullable(Bool)")
    encodings = {
        "delta-binary-packed": {"i32": "DELTA_BINARY_PACKED", "i64": "DELTA_BINARY_PACKED"},
        "delta-length-byte-array": {"s": "DELTA_LENGTH_BYTE_ARRAY"},
        "delta-byte-array": {"s": "DELTA_BYTE_ARRAY"},
        "byte-stream-split": {"f32": "BYTE_STREAM_SPLIT", "f64": "BYTE_STREAM_SPLIT",
                              "i32": "BYTE_STREAM_SPLIT", "i64": "BYTE_STREAM_SPLIT"},
        "rle-boolean": {"b": "RLE"},
        "plain": {c: "PLAIN" for c in enc_table.column_names},
    }
    for label, enc in encodings.items():
        for version in ["1.0", "2.0"]:
            pq.write_table(enc_table, case(f"pyarrow-encoding-{label}-v{version[0]}.parquet", "Parquet", enc_structure,
                                           f"encoding {label}, data page v{version[0]}"),
                           use_dictionary=False, column_encoding=enc, data_page_version=version,
                           data_page_size=1024)


def parquet_special():
    i = np.arange(ROWS)
    # FLOAT16
    t = pa.table({"h": pa.array(nth_null([np.float16(x / 8 - 20) for x in i], 7), pa.float16())})
    pq.write_table(t, case("pyarrow-float16.parquet", "Parquet", "h Nullable(Float32)", "Parquet FLOAT16 (half floats)"))
    pq.write_table(t, case("pyarrow-float16-to-float64.parquet", "Parquet", "h Float64", "FLOAT16 into Float64"))
    # NULL parents: a NULL struct, list, map and fixed-size list slot
    st_type = pa.struct([("a", pa.int32()), ("b", pa.string())])
    nulls = pa.table({
        "id": pa.array(i, pa.int64()),
        "st": pa.array([None if x % 4 == 1 else {"a": int(x), "b": f"b{x}"} for x in i], st_type),
        "li": pa.array([None if x % 5 == 2 else list(range(x % 4)) for x in i], pa.list_(pa.int32())),
        "m": pa.array([None if x % 6 == 3 else [("k", int(x))] for x in i], pa.map_(pa.string(), pa.int32())),
        "nst": pa.array([None if x % 3 == 0 else {"inner": None if x % 2 == 0 else {"v": int(x)}} for x in i],
                        pa.struct([("inner", pa.struct([("v", pa.int64())]))])),
        "lnst": pa.array([[None if k == 1 else {"p": k, "q": "q"} for k in range(x % 3)] for x in i],
                         pa.list_(st_type.__class__ and pa.struct([("p", pa.int32()), ("q", pa.string())]))),
    })
    pq.write_table(nulls, case("pyarrow-null-parents.parquet", "Parquet",
                               "id Int64, st Tuple(a Nullable(Int32), b Nullable(String)), li Array(Int32),"
                               " m Map(String, Int32), nst Tuple(inner Tuple(v Nullable(Int64))),"
                               " lnst Array(Tuple(p Nullable(Int32), q Nullable(String)))",
                               "NULL structs, lists, maps, nested NULL structs (into Nullable children)"))
    pq.write_table(nulls, case("pyarrow-null-parents-plain.parquet", "Parquet",
                               "id Int64, st Tuple(a Int32, b String), li Array(Int32), m Map(String, Int32),"
                               " nst Tuple(inner Tuple(v Int64)), lnst Array(Tuple(p Int32, q String))",
                               "NULL structs, lists, maps into non-Nullable children"))
    # a required struct with required children, dictionary-encoded strings, LowCardinality
    t = pa.table({"id": pa.array(i, pa.int64()),
                  "dict": pa.array([["red", "green", "blue", None][x % 4] for x in i]).dictionary_encode()})
    pq.write_table(t, case("pyarrow-dictionary-array.parquet", "Parquet", "id Int64, dict LowCardinality(Nullable(String))",
                           "an Arrow dictionary column"))
    # timestamps without a time zone, times of day, and a date far outside Date's range
    t = pa.table({
        "ts": pa.array([datetime.datetime(2020, 1, 1) + datetime.timedelta(seconds=int(x) * 3607) for x in i], pa.timestamp("us")),
        "t32": pa.array([int(x) * 1000 for x in i], pa.time32("ms")),
        "t64": pa.array([int(x) * 1000003 for x in i], pa.time64("us")),
    })
    pq.write_table(t, case("pyarrow-local-timestamps.parquet", "Parquet",
                           "ts DateTime64(6, 'UTC'), t32 Int64, t64 Int64",
                           "timestamps without a time zone, TIME(ms/us) as integers"))


def corrupt_variants(table):
    """A page whose bytes were damaged (CRC checksum written / not written), a truncated file."""
    src = case("pyarrow-crc-ok.parquet", "Parquet", "id Int64, s Nullable(String)", "page checksums, intact")
    small = table.select(["id", "s"])
    pq.write_table(small, src, write_page_checksum=True, compression="NONE", use_dictionary=False)
    data = bytearray(open(src, "rb").read())
    # the middle of the first column chunk's data: inside the values of a data page
    meta = pq.ParquetFile(src).metadata.row_group(0).column(1)
    at = meta.data_page_offset + meta.total_compressed_size // 2
    bad = bytearray(data)
    bad[at] ^= 0x01
    with open(case("pyarrow-crc-wrong.parquet", "Parquet", "id Int64, s Nullable(String)",
                   "one byte of a page changed, its CRC checksum disagrees (ClickHouse refuses)"), "wb") as f:
        f.write(bad)
    src2 = os.path.join(OUT, "pyarrow-snappy-src.tmp")
    pq.write_table(small, src2, compression="SNAPPY", use_dictionary=False)
    d2 = bytearray(open(src2, "rb").read())
    os.remove(src2)
    meta = pq.ParquetFile(pa.BufferReader(bytes(d2))).metadata.row_group(0).column(1)
    at = meta.data_page_offset + meta.total_compressed_size // 2
    for k in range(at, at + 16):
        d2[k] ^= 0x55
    with open(case("pyarrow-snappy-corrupt-page.parquet", "Parquet", "id Int64, s Nullable(String)",
                   "16 bytes of a SNAPPY page changed, no checksums (both refuse: the error names the column)"), "wb") as f:
        f.write(d2)
    whole = open(src, "rb").read()
    with open(case("pyarrow-truncated.parquet", "Parquet", "id Int64, s Nullable(String)",
                   "cut in the middle (no footer)"), "wb") as f:
        f.write(whole[: len(whole) // 2])


# ---------------------------------------------------------------------------------- Thrift rewriting
# A minimal Thrift compact protocol reader/writer, enough to rewrite a Parquet file's page headers
# and footer generically (unknown fields are kept as they are).

class Compact:
    STOP, TRUE, FALSE, BYTE, I16, I32, I64, DOUBLE, BINARY, LIST, SET, MAP, STRUCT = range(13)

    def __init__(self, data, pos=0):
        self.d, self.p = data, pos

    def varint(self):
        shift = v = 0
        while True:
            b = self.d[self.p]
            self.p += 1
            v |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return v

    def zigzag(self):
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def value(self, t):
        if t in (self.TRUE, self.FALSE):
            return t == self.TRUE
        if t == self.BYTE:
            self.p += 1
            return self.d[self.p - 1]
        if t in (self.I16, self.I32, self.I64):
            return self.zigzag()
        if t == self.DOUBLE:
            self.p += 8
            return self.d[self.p - 8:self.p]
        if t == self.BINARY:
            n = self.varint()
            self.p += n
            return bytes(self.d[self.p - n:self.p])
        if t in (self.LIST, self.SET):
            h = self.d[self.p]
            self.p += 1
            n, et = h >> 4, h & 0x0F
            if n == 15:
                n = self.varint()
            return (et, [self.value(et) for _ in range(n)])
        if t == self.STRUCT:
            return self.struct()
        raise ValueError(f"thrift type {t}")

    def struct(self):
        fields = []
        last = 0
        while True:
            h = self.d[self.p]
            self.p += 1
            if h == 0:
                return fields
            t = h & 0x0F
            delta = h >> 4
            fid = last + delta if delta else self.zigzag()
            last = fid
            v = self.value(t)
            fields.append([fid, t, v])


def enc_varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def enc_value(t, v):
    C = Compact
    if t in (C.TRUE, C.FALSE):
        return b""
    if t == C.BYTE:
        return bytes([v])
    if t in (C.I16, C.I32, C.I64):
        return enc_varint((v << 1) ^ (v >> 63))
    if t == C.DOUBLE:
        return bytes(v)
    if t == C.BINARY:
        return enc_varint(len(v)) + v
    if t in (C.LIST, C.SET):
        et, items = v
        head = bytes([(len(items) << 4) | et]) if len(items) < 15 else bytes([0xF0 | et]) + enc_varint(len(items))
        return head + b"".join(enc_value(et, x) for x in items)
    if t == C.STRUCT:
        return enc_struct(v)
    raise ValueError(t)


def enc_struct(fields):
    out = bytearray()
    last = 0
    for fid, t, v in fields:
        if t in (Compact.TRUE, Compact.FALSE):
            t = Compact.TRUE if v else Compact.FALSE
        delta = fid - last
        if 0 < delta <= 15:
            out.append((delta << 4) | t)
        else:
            out.append(t)
            out += enc_varint((fid << 1) ^ (fid >> 63))
        out += enc_value(t, v)
        last = fid
    out.append(0)
    return bytes(out)


def field(fields, fid):
    for f in fields:
        if f[0] == fid:
            return f
    return None


def hadoop_lz4(raw):
    """Hadoop's LZ4 framing: big-endian uncompressed and compressed sizes, then an LZ4 block."""
    block = pa.compress(raw, codec="lz4_raw", asbytes=True)
    return struct.pack(">II", len(raw), len(block)) + block


def recompress(src_path, out_path, compress, codec_id):
    """Rewrites an UNCOMPRESSED Parquet file (v1 pages) with each page compressed by `compress`
    and the column chunks' codec set to `codec_id`: how the legacy LZ4 files are made."""
    data = open(src_path, "rb").read()
    flen = struct.unpack("<I", data[-8:-4])[0]
    footer = Compact(data, len(data) - 8 - flen).struct()
    out = bytearray(b"PAR1")
    for rg in field(footer, 4)[2][1]:
        rg_total = 0
        for chunk in field(rg, 1)[2][1]:
            md = field(chunk, 3)[2]
            start = field(md, 11)[2] if field(md, 11) else field(md, 9)[2]
            end = start + field(md, 7)[2]
            pos = start
            new_start = len(out)
            new_dict = new_data = None
            while pos < end:
                r = Compact(data, pos)
                header = r.struct()
                size = field(header, 3)[2]
                body = data[r.p:r.p + size]
                pos = r.p + size
                ptype = field(header, 1)[2]
                if ptype == 2:
                    new_dict = len(out)
                elif new_data is None:
                    new_data = len(out)
                packed = compress(body)
                field(header, 3)[2] = len(packed)
                out += enc_struct(header) + packed
            field(md, 4)[2] = codec_id
            field(md, 7)[2] = len(out) - new_start
            field(md, 9)[2] = new_data
            if new_dict is not None:
                field(md, 11)[2] = new_dict
            f2 = field(chunk, 2)
            if f2:
                f2[2] = new_start
            rg_total += len(out) - new_start
        f6 = field(rg, 6)
        if f6:
            f6[2] = rg_total
    footer = [f for f in footer]
    fb = enc_struct(footer)
    out += fb + struct.pack("<I", len(fb)) + b"PAR1"
    open(out_path, "wb").write(out)


def legacy_lz4(table):
    tmp = os.path.join(OUT, "uncompressed-src.tmp")
    small = table.select(["id", "i32", "s", "f64", "li"])
    structure = "id Int64, i32 Nullable(Int32), s Nullable(String), f64 Nullable(Float64), li Array(Nullable(Int32))"
    pq.write_table(small, tmp, compression="NONE", data_page_version="1.0", write_statistics=False,
                   row_group_size=300)
    recompress(tmp, case("legacy-lz4-hadoop.parquet", "Parquet", structure,
                         "codec LZ4 (5) with Hadoop framing, as parquet-mr writes it"), hadoop_lz4, 5)
    recompress(tmp, case("legacy-lz4-raw-block.parquet", "Parquet", structure,
                         "codec LZ4 (5) holding bare LZ4 blocks, as old Arrow wrote it"),
               lambda b: pa.compress(b, codec="lz4_raw", asbytes=True), 5)
    recompress(tmp, case("lz4-raw-rewritten.parquet", "Parquet", structure,
                         "codec LZ4_RAW (7), pages rewritten (checks the rewriter itself)"),
               lambda b: pa.compress(b, codec="lz4_raw", asbytes=True), 7)
    os.remove(tmp)


# ---------------------------------------------------------------------------------- Arrow IPC

ARROW_STRUCTURE_DROP = {"fsb"}  # (kept: every base column has an Arrow type)


def arrow_files(table):
    for codec in [None, "lz4", "zstd"]:
        label = codec or "uncompressed"
        opts = pa.ipc.IpcWriteOptions(compression=codec)
        path = case(f"pyarrow-file-{label}.arrow", "Arrow", BASE_STRUCTURE, f"Arrow IPC file, {label} buffers")
        with pa.ipc.new_file(path, table.schema, options=opts) as w:
            for b in table.to_batches(max_chunksize=200):
                w.write_batch(b)
        path = case(f"pyarrow-stream-{label}.arrows", "ArrowStream", BASE_STRUCTURE, f"Arrow IPC stream, {label} buffers")
        with pa.ipc.new_stream(path, table.schema, options=opts) as w:
            for b in table.to_batches(max_chunksize=170):
                w.write_batch(b)
    feather.write_feather(table, case("pyarrow-feather-v2.feather", "Arrow", BASE_STRUCTURE, "Feather v2 (LZ4)"))
    feather.write_feather(table, case("pyarrow-feather-zstd.feather", "Arrow", BASE_STRUCTURE, "Feather v2 ZSTD"),
                          compression="zstd")
    path = case("pyarrow-casts.arrow", "Arrow", CAST_STRUCTURE, "Arrow, read into other ClickHouse types")
    with pa.ipc.new_file(path, table.schema) as w:
        w.write_table(table)
    i = np.arange(ROWS)
    # newer Arrow types
    t = pa.table({
        "d32": pa.array(nth_null([decimal.Decimal(int(x) * 37 - 9000).scaleb(-2) for x in i], 5), pa.decimal32(7, 2)),
        "d64": pa.array(nth_null([decimal.Decimal(int(x) * 123456789 - 10**10).scaleb(-3) for x in i], 6), pa.decimal64(15, 3)),
        "sv": pa.array(nth_null([("short" if x % 2 else "a value longer than twelve bytes ") + str(x) for x in i], 7), pa.string_view()),
        "bv": pa.array(nth_null([bytes([x % 256]) * (x % 20) for x in i], 8), pa.binary_view()),
        "h": pa.array(nth_null([np.float16(x / 4 - 50) for x in i], 9), pa.float16()),
        "ls": pa.array([None if x % 7 == 0 else [int(x)] * (x % 3) for x in i], pa.large_list(pa.int64())),
        "lstr": pa.array(nth_null([f"large-{x}" for x in i], 4), pa.large_string()),
    })
    structure = ("d32 Nullable(Decimal(7, 2)), d64 Nullable(Decimal(15, 3)), sv Nullable(String), bv Nullable(String),"
                 " h Nullable(Float32), ls Array(Int64), lstr Nullable(String)")
    path = case("pyarrow-new-types.arrow", "Arrow", structure, "decimal32/64, string/binary views, half floats, large lists")
    with pa.ipc.new_file(path, t.schema) as w:
        w.write_table(t)
    path = case("pyarrow-new-types.arrows", "ArrowStream", structure, "the same as an IPC stream")
    with pa.ipc.new_stream(path, t.schema) as w:
        w.write_table(t)
    # NULL parents, dictionaries, fixed-size lists
    st_type = pa.struct([("a", pa.int32()), ("b", pa.string())])
    nulls = pa.table({
        "id": pa.array(i, pa.int64()),
        "st": pa.array([None if x % 4 == 1 else {"a": int(x), "b": f"b{x}"} for x in i], st_type),
        "fsl": pa.array([None if x % 5 == 2 else [int(x), int(x) + 1] for x in i], pa.list_(pa.int32(), 2)),
        "li": pa.array([None if x % 6 == 3 else list(range(x % 4)) for x in i], pa.list_(pa.int32())),
        "m": pa.array([None if x % 7 == 4 else [("k", int(x))] for x in i], pa.map_(pa.string(), pa.int32())),
        "dict": pa.array([["x", "y", None, "z"][x % 4] for x in i]).dictionary_encode(),
    })
    for structure, label in [
        ("id Int64, st Tuple(a Nullable(Int32), b Nullable(String)), fsl Array(Nullable(Int32)),"
         " li Array(Int32), m Map(String, Int32), dict LowCardinality(Nullable(String))", "nullable"),
        ("id Int64, st Tuple(a Int32, b String), fsl Array(Int32), li Array(Int32), m Map(String, Int32),"
         " dict String", "plain"),
    ]:
        path = case(f"pyarrow-null-parents-{label}.arrow", "Arrow", structure,
                    f"NULL structs, fixed-size lists, lists, maps; dictionary strings ({label} children)")
        with pa.ipc.new_file(path, nulls.schema) as w:
            w.write_table(nulls)
    # a NULL struct whose children are NULL too (as pyarrow builds it from Python dicts) vs not
    child_a = pa.array([1, 2, 3, 4], pa.int32())
    child_b = pa.array(["w", "x", "y", "z"])
    st = pa.StructArray.from_arrays([child_a, child_b], names=["a", "b"], mask=pa.array([False, True, False, True]))
    t = pa.table({"st": st})
    path = case("pyarrow-null-struct-valued-children.arrow", "Arrow",
                "st Tuple(a Nullable(Int32), b Nullable(String))",
                "NULL struct slots over non-NULL child values (ClickHouse keeps the children)")
    with pa.ipc.new_file(path, t.schema) as w:
        w.write_table(t)
    pq.write_table(t, case("pyarrow-null-struct-valued-children.parquet", "Parquet",
                           "st Tuple(a Nullable(Int32), b Nullable(String))",
                           "the same written to Parquet"))
    # truncated stream
    whole = open(os.path.join(OUT, "pyarrow-stream-uncompressed.arrows"), "rb").read()
    with open(case("pyarrow-stream-truncated.arrows", "ArrowStream", BASE_STRUCTURE, "stream cut in a record batch"), "wb") as f:
        f.write(whole[: len(whole) * 2 // 3])


# ---------------------------------------------------------------------------------- pandas, DuckDB

def pandas_files():
    i = np.arange(ROWS)
    df = pd.DataFrame({
        "id": i,
        "name": [["Zoë", "O'Brien", 'say "hi"', "comma, inside", "multi\nline", ""][x % 6] for x in i],
        "value": [x / 7 for x in i],
        "flag": [x % 2 == 0 for x in i],
        "when": pd.to_datetime(1_600_000_000 + i * 3601, unit="s"),
    })
    structure = "id Int64, name String, value Float64, flag Bool, when DateTime('UTC')"
    df.to_csv(case("pandas.csv", "CSVWithNames", structure, "pandas to_csv"), index=False)
    df.to_csv(case("pandas-bom.csv", "CSVWithNames", structure, "pandas to_csv utf-8-sig (a BOM)"),
              index=False, encoding="utf-8-sig")
    df.to_json(case("pandas.jsonl", "JSONEachRow", "id Int64, name String, value Float64, flag Bool, when Int64",
                    "pandas to_json lines (dates as epoch milliseconds)"), orient="records", lines=True)
    df.to_parquet(case("pandas.parquet", "Parquet", "id Int64, name String, value Float64, flag Bool,"
                       " when DateTime64(9, 'UTC')", "pandas to_parquet (pyarrow, with pandas metadata)"))


def duckdb_files():
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    con.execute(f"""
        CREATE TABLE t AS SELECT
            i::BIGINT AS id,
            (i % 100)::TINYINT AS ti, (i * 3)::SMALLINT AS si, (i * 7)::INTEGER AS ii,
            (i * 1234567)::UBIGINT AS ub, (i % 250)::UTINYINT AS ut,
            (i / 3)::DOUBLE AS d, (i / 3)::FLOAT AS f, (i * 1.25)::DECIMAL(10, 2) AS dec,
            (i * 100000000000.125)::DECIMAL(30, 3) AS bigdec,
            CASE WHEN i % 7 = 0 THEN NULL ELSE 'v' || i END AS s,
            DATE '2020-01-01' + (i % 1000)::INTEGER AS dt,
            TIMESTAMP '2021-06-01 00:00:00' + INTERVAL (i) MINUTE AS ts,
            TIMESTAMPTZ '2021-06-01 00:00:00+00' + INTERVAL (i) SECOND AS tstz,
            [i, i + 1] AS arr, {{'k': i, 'v': 'x' || i}} AS st, MAP {{'a': i}} AS m,
            i % 2 = 0 AS bo,
            INTERVAL (i) DAY + INTERVAL (i % 24) HOUR AS iv,
            (i * 1000000000000)::HUGEINT AS hi,
            md5(i::VARCHAR)::UUID AS u
        FROM range({ROWS}) r(i)
    """)
    structure = ("id Int64, ti Int8, si Int16, ii Int32, ub UInt64, ut UInt8, d Float64, f Float32,"
                 " dec Decimal(10, 2), bigdec Decimal(30, 3), s Nullable(String), dt Date32,"
                 " ts DateTime64(6, 'UTC'), tstz DateTime64(6, 'UTC'), arr Array(Int64),"
                 " st Tuple(k Int64, v String), m Map(String, Int64), bo Bool, iv FixedString(12),"
                 " hi Float64, u UUID")
    for codec in ["snappy", "zstd", "gzip", "uncompressed", "brotli", "lz4"]:
        con.execute(f"COPY t TO '{case(f'duckdb-{codec}.parquet', 'Parquet', structure, f'DuckDB {codec}')}'"
                    f" (FORMAT PARQUET, COMPRESSION {codec})")
    con.execute(f"COPY t TO '{case('duckdb-v2.parquet', 'Parquet', structure, 'DuckDB PARQUET_VERSION V2')}'"
                f" (FORMAT PARQUET, PARQUET_VERSION V2)")
    con.execute(f"COPY (SELECT id, iv FROM t) TO '{case('duckdb-interval-string.parquet', 'Parquet', 'id Int64, iv String', 'DuckDB INTERVAL into String (raw 12 bytes)')}' (FORMAT PARQUET)")
    con.execute(f"COPY (SELECT id, ti, ii, d, s, dt, bo FROM t) TO "
                f"'{case('duckdb.csv', 'CSVWithNames', 'id Int64, ti Int8, ii Int32, d Float64, s Nullable(String), dt Date, bo Bool', 'DuckDB CSV')}'"
                f" (HEADER, DELIMITER ',')")


def main():
    global OUT
    if len(sys.argv) != 2:
        print("usage: generate.py OUT_DIR", file=sys.stderr)
        sys.exit(2)
    OUT = sys.argv[1]
    os.makedirs(OUT, exist_ok=True)
    table = base_table()
    parquet_matrix(table)
    parquet_special()
    corrupt_variants(table)
    legacy_lz4(table)
    arrow_files(table)
    pandas_files()
    duckdb_files()
    with open(os.path.join(OUT, "manifest.tsv"), "w", encoding="utf-8") as f:
        for c in CASES:
            f.write("\t".join(c) + "\n")
    print(f"{len(CASES)} files in {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
