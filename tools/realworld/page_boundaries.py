#!/usr/bin/env python3
"""Writes Parquet files whose pages cut where readers go wrong, for ParquetPageBoundariesTest
(connector-source-s3), which reads each with this project's reader (bulk and value by value) and
with ClickHouse (chDB) and requires the same rows.

    tools/pyenv/bin/python tools/realworld/page_boundaries.py OUT_DIR

- Data pages without a value (num_values 0): pyarrow writes them for repeated columns when a write
  batch ends on a record boundary and the page is already full (tiny data_page_size, v1 and v2
  pages); parquet-mr 1.12 wrote them too (apache/parquet-java#1555). parquet-mr's column reader
  fails on them with "Reading past RLE/BitPacking stream".
- Rows (lists) running across several v1 data pages: legal in v1 pages, written by older
  parquet-mr and Arrow, never by pyarrow 25 (it cuts pages at record boundaries). Made here by
  rewriting a pyarrow file's pages into pages of a few levels each, cut anywhere, with empty pages
  between rows (resplit-v1: in lists only; resplit-v1-empty-flat: in every column). resplit-v2
  does the same with v2 pages, cut at row boundaries as the format requires, with empty pages.
- ClickHouse 26.7 refuses some of these valid files (an empty v2 page; an empty v1 page of a
  column outside lists); every file holds the same rows, and reference.parquet (pyarrow's
  defaults) gives them as ClickHouse reads them.

OUT_DIR/manifest.tsv: file, ClickHouse format, ClickHouse structure, note (as generate.py writes
it). Deterministic.
"""

import os
import struct
import sys

import pyarrow as pa
import pyarrow.parquet as pq

from generate import Compact, enc_struct, field

ROWS = 240
CASES = []
OUT = None

STRUCTURE = ", ".join([
    "id Int64", "n Nullable(Int32)", "s Nullable(String)", "b Nullable(Bool)",
    "li Array(Nullable(Int32))", "ls Array(Nullable(String))", "lli Array(Array(Nullable(Int64)))",
    "m Map(String, Nullable(Int32))", "lst Array(Tuple(x Nullable(Int64), y Nullable(String)))",
    "st Tuple(a Nullable(Int32), b Array(Nullable(Int32)))",
])


def case(name, note):
    CASES.append((name, "Parquet", STRUCTURE, note))
    return os.path.join(OUT, name)


def table():
    """Lists of 0..20 elements (a NULL list now and then), nested lists, maps, lists of structs,
    a NULL struct over a list, and flat columns (the bulk decoder's) with NULLs."""
    i = range(ROWS)
    length = [(x * 7) % 21 if x % 9 else 0 for x in i]
    words = ["a", "", "bc", "déf", "longer value"]
    return pa.table({
        "id": pa.array(list(i), pa.int64()),
        "n": pa.array([None if x % 5 == 0 else x * 3 - 100 for x in i], pa.int32()),
        "s": pa.array([None if x % 7 == 0 else words[x % 5] + str(x) for x in i], pa.string()),
        "b": pa.array([None if x % 4 == 0 else x % 3 == 0 for x in i], pa.bool_()),
        "li": pa.array([None if x % 11 == 3 else [None if k % 4 == 3 else x + k for k in range(length[x])]
                        for x in i], pa.list_(pa.int32())),
        "ls": pa.array([[None if k == 2 else words[(x + k) % 5] for k in range(x % 6)] for x in i],
                       pa.list_(pa.string())),
        "lli": pa.array([[[None if (x + k + j) % 5 == 0 else x * 100 + k * 10 + j for j in range((x + k) % 4)]
                          for k in range(x % 5)] for x in i], pa.list_(pa.list_(pa.int64()))),
        "m": pa.array([[("k" + str(k), None if k == 1 else x * k) for k in range(x % 4)] for x in i],
                      pa.map_(pa.string(), pa.int32())),
        "lst": pa.array([[{"x": x + k, "y": None if k == 1 else words[k % 5]} for k in range(x % 5)] for x in i],
                        pa.list_(pa.struct([("x", pa.int64()), ("y", pa.string())]))),
        "st": pa.array([None if x % 6 == 1 else {"a": None if x % 3 == 0 else x, "b": list(range(x % 7))}
                        for x in i], pa.struct([("a", pa.int32()), ("b", pa.list_(pa.int32()))])),
    })


# ---------------------------------------------------------------------------------- levels, values

def bit_width(max_level):
    return max_level.bit_length()


def decode_hybrid(buf, pos, width, count):
    """`count` values of the RLE / bit-packed hybrid encoding from buf[pos:]; (values, end)."""
    out = []
    nbytes = (width + 7) // 8
    while len(out) < count:
        header = 0
        shift = 0
        while True:
            b = buf[pos]
            pos += 1
            header |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        if header & 1 == 0:
            v = int.from_bytes(buf[pos:pos + nbytes], "little")
            pos += nbytes
            out += [v] * (header >> 1)
        else:
            groups = header >> 1
            bits = int.from_bytes(buf[pos:pos + groups * width], "little")
            pos += groups * width
            out += [(bits >> (k * width)) & ((1 << width) - 1) for k in range(groups * 8)]
    return out[:count], pos


def encode_rle(values, width):
    """RLE runs only (valid hybrid encoding)."""
    out = bytearray()
    nbytes = (width + 7) // 8
    k = 0
    while k < len(values):
        j = k
        while j < len(values) and values[j] == values[k]:
            j += 1
        header = (j - k) << 1
        while True:
            b = header & 0x7F
            header >>= 7
            out.append(b | 0x80 if header else b)
            if not header:
                break
        out += values[k].to_bytes(nbytes, "little")
        k = j
    return bytes(out)


def split_values(buf, pos, physical, type_length, count):
    """The PLAIN values as a list of byte strings (booleans as 0/1 ints); (values, end)."""
    if physical == "BOOLEAN":
        bits = int.from_bytes(buf[pos:pos + (count + 7) // 8], "little")
        return [(bits >> k) & 1 for k in range(count)], pos + (count + 7) // 8
    values = []
    for _ in range(count):
        if physical == "BYTE_ARRAY":
            n = struct.unpack_from("<I", buf, pos)[0] + 4
        else:
            n = {"INT32": 4, "FLOAT": 4, "INT64": 8, "DOUBLE": 8, "INT96": 12}.get(physical, type_length)
        values.append(bytes(buf[pos:pos + n]))
        pos += n
    return values, pos


def join_values(values, physical):
    if physical == "BOOLEAN":
        bits = sum(v << k for k, v in enumerate(values))
        return bits.to_bytes((len(values) + 7) // 8, "little")
    return b"".join(values)


# ---------------------------------------------------------------------------------- page rewriting

def read_chunk(data, md, col_schema):
    """All (rep, def, value) triplets of an UNCOMPRESSED, PLAIN, v1 column chunk."""
    max_rep, max_def = col_schema.max_repetition_level, col_schema.max_definition_level
    start = md.data_page_offset
    end = start + md.total_compressed_size
    reps, defs, values = [], [], []
    pos = start
    while pos < end:
        r = Compact(data, pos)
        header = r.struct()
        size = field(header, 3)[2]
        body = data[r.p:r.p + size]
        pos = r.p + size
        assert field(header, 1)[2] == 0, "v1 data pages only"
        n = field(field(header, 5)[2], 1)[2]
        p = 0
        page_reps = [0] * n
        page_defs = [max_def] * n
        if max_rep > 0:
            length = struct.unpack_from("<I", body, p)[0]
            page_reps, _ = decode_hybrid(body, p + 4, bit_width(max_rep), n)
            p += 4 + length
        if max_def > 0:
            length = struct.unpack_from("<I", body, p)[0]
            page_defs, _ = decode_hybrid(body, p + 4, bit_width(max_def), n)
            p += 4 + length
        present = sum(1 for d in page_defs if d == max_def)
        page_values, _ = split_values(body, p, col_schema.physical_type, col_schema.length or 0, present)
        reps += page_reps
        defs += page_defs
        values += page_values
    return reps, defs, values


def page_v1(reps, defs, values, max_rep, max_def, physical):
    body = bytearray()
    if max_rep > 0:
        levels = encode_rle(reps, bit_width(max_rep))
        body += struct.pack("<I", len(levels)) + levels
    if max_def > 0:
        levels = encode_rle(defs, bit_width(max_def))
        body += struct.pack("<I", len(levels)) + levels
    body += join_values(values, physical)
    # DataPageHeader: num_values, encoding PLAIN, definition and repetition levels RLE
    dph = [[1, Compact.I32, len(reps)], [2, Compact.I32, 0], [3, Compact.I32, 3], [4, Compact.I32, 3]]
    header = [[1, Compact.I32, 0], [2, Compact.I32, len(body)], [3, Compact.I32, len(body)],
              [5, Compact.STRUCT, dph]]
    return enc_struct(header) + bytes(body)


def page_v2(reps, defs, values, max_rep, max_def, physical):
    rep_bytes = encode_rle(reps, bit_width(max_rep)) if max_rep > 0 and reps else b""
    def_bytes = encode_rle(defs, bit_width(max_def)) if max_def > 0 and defs else b""
    data = join_values(values, physical)
    rows = sum(1 for r in reps if r == 0)
    nulls = sum(1 for d in defs if d != max_def)
    dph = [[1, Compact.I32, len(reps)], [2, Compact.I32, nulls], [3, Compact.I32, rows],
           [4, Compact.I32, 0], [5, Compact.I32, len(def_bytes)], [6, Compact.I32, len(rep_bytes)],
           [7, Compact.FALSE, False]]
    size = len(rep_bytes) + len(def_bytes) + len(data)
    header = [[1, Compact.I32, 3], [2, Compact.I32, size], [3, Compact.I32, size],
              [8, Compact.STRUCT, dph]]
    return enc_struct(header) + rep_bytes + def_bytes + data


def cuts_anywhere(reps, sizes):
    """Page ends every sizes[k] levels (cycling), wherever rows begin; a size 0 is an empty page
    between two rows, and nothing otherwise: writers put them between rows (Arrow 25 refuses an
    empty page inside a row, and reads no rows at all from a chunk whose first page is empty)."""
    bounds, at, k = [], 0, 0
    while at < len(reps):
        size = sizes[k % len(sizes)]
        k += 1
        if size == 0 and (at == 0 or reps[at] != 0):
            continue
        at = min(len(reps), at + size)
        bounds.append(at)
    return bounds


def cuts_at_rows(reps, sizes):
    """Page ends every sizes[k] rows (cycling); a size 0 is an empty page (never the first)."""
    row_starts = [p for p, r in enumerate(reps) if r == 0] + [len(reps)]
    bounds, row, k = [], 0, 0
    while row < len(row_starts) - 1:
        size = sizes[k % len(sizes)]
        k += 1
        if size == 0 and row == 0:
            continue
        row = min(len(row_starts) - 1, row + size)
        bounds.append(row_starts[row])
    return bounds


def resplit(src, out_path, page, cuts, sizes, empty_flat=True):
    """Rewrites an uncompressed PLAIN v1 file with its column chunks cut into new pages (empty pages
    in columns outside lists only if empty_flat)."""
    data = open(src, "rb").read()
    pf = pq.ParquetFile(src)
    schema = pf.schema
    flen = struct.unpack("<I", data[-8:-4])[0]
    footer = Compact(data, len(data) - 8 - flen).struct()
    out = bytearray(b"PAR1")
    for rg_index, rg in enumerate(field(footer, 4)[2][1]):
        rg_start = len(out)
        for c, chunk in enumerate(field(rg, 1)[2][1]):
            col_schema = schema.column(c)
            max_rep, max_def = col_schema.max_repetition_level, col_schema.max_definition_level
            reps, defs, values = read_chunk(data, pf.metadata.row_group(rg_index).column(c), col_schema)
            col_sizes = sizes if empty_flat or max_rep > 0 else [n for n in sizes if n]
            start = len(out)
            prev = 0
            vpos = 0
            for end in cuts(reps, col_sizes):
                present = sum(1 for d in defs[prev:end] if d == max_def)
                out += page(reps[prev:end], defs[prev:end], values[vpos:vpos + present],
                            max_rep, max_def, col_schema.physical_type)
                vpos += present
                prev = end
            md = field(chunk, 3)[2]
            md[:] = [f for f in md if f[0] not in (11, 12, 13, 14, 15, 16)]  # no stale page facts
            field(md, 6)[2] = len(out) - start
            field(md, 7)[2] = len(out) - start
            field(md, 9)[2] = start
            chunk[:] = [f for f in chunk if f[0] not in (4, 5, 6, 7)]  # no page indexes
            field(chunk, 2)[2] = start
        for fid in (2, 6):
            if field(rg, fid):
                field(rg, fid)[2] = len(out) - rg_start
        if field(rg, 5):
            field(rg, 5)[2] = rg_start
    fb = enc_struct(footer)
    out += fb + struct.pack("<I", len(fb)) + b"PAR1"
    open(out_path, "wb").write(out)


def main():
    global OUT
    if len(sys.argv) != 2:
        print("usage: page_boundaries.py OUT_DIR", file=sys.stderr)
        sys.exit(2)
    OUT = sys.argv[1]
    os.makedirs(OUT, exist_ok=True)
    t = table()
    # the rows as ClickHouse reads them: every other file holds the same rows, and ClickHouse
    # 26.7 refuses some of them (an empty v2 page, an empty v1 page of a column outside lists)
    pq.write_table(t, case("reference.parquet", "pyarrow defaults: the rows every file holds"),
                   row_group_size=120)
    # pyarrow's own empty pages: a write batch (5 levels) ending on a record boundary with the
    # page already over data_page_size
    pq.write_table(t, case("pyarrow-empty-pages-v1-dict.parquet",
                           "pyarrow v1 pages, dictionary, write_batch_size 5, data_page_size 100"),
                   write_batch_size=5, data_page_size=100, row_group_size=120)
    pq.write_table(t, case("pyarrow-tiny-pages-v2.parquet",
                           "pyarrow v2 pages, PLAIN, write_batch_size 5, data_page_size 1: a page per batch"),
                   write_batch_size=5, data_page_size=1, data_page_version="2.0", use_dictionary=False,
                   row_group_size=120)
    pq.write_table(t, case("pyarrow-empty-pages-v2-dict.parquet",
                           "pyarrow v2 pages, dictionary, write_batch_size 5, data_page_size 64"),
                   write_batch_size=5, data_page_size=64, data_page_version="2.0", row_group_size=120)
    src = os.path.join(OUT, "plain-src.tmp")
    pq.write_table(t, src, compression="NONE", use_dictionary=False, data_page_version="1.0",
                   write_statistics=False, row_group_size=120)
    v1_sizes = [3, 1, 0, 5, 2, 7, 0, 4]
    resplit(src, case("resplit-v1.parquet",
                      "v1 pages of 1..7 levels cut anywhere (rows span pages), empty pages in lists"),
            page_v1, cuts_anywhere, v1_sizes, empty_flat=False)
    resplit(src, case("resplit-v1-empty-flat.parquet", "the same with empty pages in every column"),
            page_v1, cuts_anywhere, v1_sizes)
    resplit(src, case("resplit-v2.parquet", "v2 pages of 0..3 rows, empty pages between"),
            page_v2, cuts_at_rows, [2, 0, 1, 3, 0])
    os.remove(src)
    for name, _, _, _ in CASES:
        # valid Parquet: pyarrow reads the rows back (Arrow 25 mishandles an empty first page of a
        # chunk and two empty pages in a row, so the rewriter writes neither)
        back = pq.read_table(os.path.join(OUT, name))
        assert back.equals(t), f"pyarrow reads {name} differently"
    with open(os.path.join(OUT, "manifest.tsv"), "w", encoding="utf-8") as f:
        for c in CASES:
            f.write("\t".join(c) + "\n")
    print(f"{len(CASES)} files in {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
