#!/usr/bin/env python3
"""Where the CPU of one `s3-mergetree ingest` went, from an async-profiler recording of every thread in collapsed
form (ingest-bench.sh with ASYNC_PROFILER=…: $OUT/ingest-p2.collapsed; the `threads` option puts the thread
name first on each stack). Unlike JFR it sees native code (LZ4, ZSTD, zlib), the JVM's own threads (JIT, GC),
class loading and page faults.

usage: tools/bench/profile-summary.py FILE.collapsed [--interval-ms 1] [--top N] [--role ROLE]
Prints CPU seconds by thread role (the roles of thread-cpu.py), then by stage inside each role (the first rule
whose pattern matches a frame, scanning from the leaf), and with --role the top inclusive frames of that role."""
import collections, re, sys

ROLES = ["main", "fetch", "task", "insert", "download", "list", "gc", "jit", "merge", "other"]


def role(name):
    if name.startswith("Source Data"):
        return "fetch"
    if name.startswith("mergetree-inse"):
        return "insert"
    if name.startswith("Source:"):
        return "task"
    if name.startswith("s3-source-down"):
        return "download"
    if name.startswith("s3-source-list") or name.startswith("parquet-footers"):
        return "list"
    if "MergeTree merges" in name or name.startswith("mergetree-merge"):
        return "merge"
    if "GC" in name or name.startswith("G1"):
        return "gc"
    if "Compiler" in name or "C2 Comp" in name or "C1 Comp" in name:
        return "jit"
    if name in ("java", "main"):
        return "main"
    return "other"


# (stage, regex on a frame) — scanning from the leaf, the first frame matching any rule decides, rules in order
RULES = [
    ("class loading / linking", r"ClassLoader|defineClass|ClassFileParser|SystemDictionary|link_class|KlassFactory|Verifier|resolve_from_cache|LinkResolver"),
    ("page faults / zeroing (kernel)", r"^(asm_exc_page_fault|exc_page_fault|do_user_addr_fault|handle_mm_fault|clear_page)"),
    ("LZ4", r"LZ4_|lz4|jpountz"),
    ("ZSTD", r"ZSTD_|zstd|luben"),
    ("zlib (jar reading, gzip)", r"libz\.so|inflate|Inflater|GZIP"),
    ("CityHash", r"engine/hash/|CityHash"),
    ("sort / split", r"engine/sort/|KeySorter|BlockSplitter|EvaluatedKeys|permut|Permut"),
    ("serialize / part files", r"engine/part/|engine/serde/|engine/io/|engine/column/|LowCardinality"),
    ("parquet decode", r"ParquetFlatPageReader|ParquetColumnDecoder|ParquetBlockFormat|org/apache/parquet"),
    ("text parse", r"source/s3/format/text/|TextBlockFormat"),
    ("S3 / HTTP", r"software/amazon|org/apache/http|ObjectReader|sun/nio/ch|java/net/|SocketInputStream|libnet|tcp_|sock_"),
    ("logging", r"org/apache/logging|log4j|slf4j"),
    ("Flink / Pekko", r"org/apache/flink|org/apache/pekko|scala/"),
    ("interpreter", r"^Interpreter|InterpreterRuntime"),
    ("C2", r"^(C2Compiler|Compile::|PhaseIdealLoop|PhaseChaitin|PhaseIterGVN|Matcher::|PhaseCFG|ConnectionGraph)"),
    ("C1", r"^(Compilation::|LinearScan|GraphBuilder|Compiler::compile_method|IR::|LIR_)"),
    ("GC", r"G1|GC|ParallelTask|WorkerThread"),
]


def stage_of(frames):
    for fr in reversed(frames):
        for name, rx in RULES:
            if re.search(rx, fr):
                return name
    return "other: " + (frames[-1][:60] if frames else "?")


def main():
    f = sys.argv[1]
    arg = lambda k, d: sys.argv[sys.argv.index(k) + 1] if k in sys.argv else d
    ms = float(arg("--interval-ms", "1"))
    top = int(arg("--top", "30"))
    want = arg("--role", None)
    by_role = collections.Counter()
    stages = collections.defaultdict(collections.Counter)
    inclusive = collections.Counter()
    total = 0
    for line in open(f):
        st, _, n = line.rstrip("\n").rpartition(" ")
        if not st:
            continue
        n = int(n)
        frames = st.split(";")
        tname = re.sub(r" tid=\d+\]$", "", frames[0].lstrip("["))
        r = role(tname)
        frames = frames[1:]
        by_role[r] += n
        total += n
        stages[r][stage_of(frames)] += n
        if want == r:
            for fr in set(re.sub(r"\$\$Lambda\$\d+/0x[0-9a-f]+(\.0x[0-9a-f]+)?", "$$Lambda", x) for x in frames):
                inclusive[fr] += n
    sec = lambda n: n * ms / 1000
    print(f"{sec(total):.1f} CPU-s sampled ({total} samples of {ms:g} ms)")
    for r in ROLES:
        if not by_role[r]:
            continue
        print(f"\n{r}: {sec(by_role[r]):.2f} CPU-s ({100 * by_role[r] / total:.1f} %)")
        for s, n in stages[r].most_common(12):
            print(f"    {sec(n):6.2f} s {100 * n / by_role[r]:5.1f} %  {s}")
    if want:
        print(f"\ntop {top} inclusive frames of {want}:")
        for s, n in inclusive.most_common(top):
            print(f"  {sec(n):6.2f} s {100 * n / by_role[want]:5.1f} %  {s[:160]}")


main()
