#!/usr/bin/env python3
"""Breaks a JFR recording of `s3-mergetree ingest` down by stage: every jdk.ExecutionSample (Java threads on
CPU; native frames of JNI code such as zstd-jni and lz4-java count to the Java method that called them) is
assigned to the first stage whose pattern matches a frame, scanning from the top of the stack.
usage: tools/bench/jfr-breakdown.py FILE.jfr [--top N]"""
import collections, re, subprocess, sys

# (stage, regex on "class.method") — first match from the top of the stack wins, so specific rules go first
RULES = [
    ("merge", r"engine\.merge\.|MergeCoordinator|MergeScheduler|optimizeFinal"),
    ("commit", r"MergeTreeCommitter|TableDirectory\.commit|MergeTreeTable\.commit|PartLog"),
    ("compress (LZ4/ZSTD codecs)", r"engine\.compress\.|net\.jpountz|lz4"),
    ("checksums (CityHash128)", r"engine\.hash\."),
    ("sort (keys, radix, permutation)", r"engine\.sort\.|EvaluatedKeys|KeySorter|permut|BlockSplitter|PartitionedBlock|engine\.expr\."),
    ("write (serialize, files)", r"engine\.part\.|engine\.serde\.|engine\.io\.|InsertWriter|PartsWriter|FileChannel|FileOutputStream"),
    ("convert (sink: Block append, defaults)", r"sink\.mergetree\.input\.|MergeTreeSinkWriter\.write|Block\.appendRange|Column.*append"),
    ("parquet decode (incl. page decompression)", r"ParquetColumnDecoder|ParquetBlockFormat|org\.apache\.parquet|com\.github\.luben|xerial\.snappy|aircompressor|engine\.convert\."),
    ("download (S3 client, HTTP)", r"software\.amazon|io\.netty|ObjectReader|CachedRangeInputFile|sun\.nio\.ch|java\.net\.|source\.s3\.s3\."),
    ("flink overhead", r"org\.apache\.flink|org\.apache\.pekko|akka"),
]

def main():
    f = sys.argv[1]
    top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 25
    out = subprocess.run(["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", "96", f],
                         capture_output=True, text=True, check=True).stdout
    stages, threads, tops = collections.Counter(), collections.Counter(), collections.Counter()
    timeline = collections.defaultdict(collections.Counter)
    total = 0
    evs = []
    for ev in out.split("jdk.ExecutionSample")[1:]:
        m = re.search(r'sampledThread = "([^"]*)"', ev)
        t = re.search(r"startTime = (\d+):(\d+):([\d.]+)", ev)
        secs = int(t.group(1)) * 3600 + int(t.group(2)) * 60 + float(t.group(3)) if t else 0
        evs.append((secs, m.group(1) if m else "?", ev))
    evs.sort(key=lambda e: e[0])
    t0 = evs[0][0] if evs else 0
    # the job window: from the first sample of a source reader thread to the last sample of the sink
    job = [e[0] for e in evs if "Source Data Fetcher" in e[1] or "mergetree" in e[1] or "MergeTree" in e[1]]
    j0, j1 = (min(job), max(job)) if job else (t0, evs[-1][0])
    print(f"recording {evs[-1][0] - t0:.1f} s; job window {j0 - t0:.1f} s .. {j1 - t0:.1f} s (samples outside it: JVM and MiniCluster start, shutdown)")
    for secs, tname, ev in evs:
        thread = re.sub(r"\d+", "#", tname)
        frames = re.findall(r"^\s+([\w$.<>]+)\(.*line:", ev, re.M)
        if not frames:
            continue
        bucket = int((secs - t0) // 10) * 10
        timeline[bucket]["main" if tname == "main" else "job" if j0 <= secs <= j1 else "other"] += 1
        if not (j0 <= secs <= j1):
            continue
        total += 1
        threads[thread[:70]] += 1
        tops[frames[0]] += 1
        stage = next((s for s, rx in RULES for fr in frames if re.search(rx, fr)), None)
        if stage is None:
            stage = "GC/JIT/other JVM" if not frames else "other: " + frames[-1].rsplit(".", 1)[0][-50:]
        stages[stage] += 1
    print("timeline (execution samples per 10 s: main thread / threads in the job window / other):")
    for b in sorted(timeline):
        c = timeline[b]
        print(f"  {b:4d} s  main {c['main']:4d}  job {c['job']:4d}  other {c['other']:4d}")
    print(f"\n{total} execution samples in the job window")
    print("\nby stage:")
    for s, n in stages.most_common(20):
        print(f"  {100.0 * n / total:5.1f} %  {s}")
    print("\nby thread:")
    for s, n in threads.most_common(12):
        print(f"  {100.0 * n / total:5.1f} %  {s}")
    print(f"\ntop {top} frames:")
    for s, n in tops.most_common(top):
        print(f"  {100.0 * n / total:5.1f} %  {s}")
    gc = subprocess.run(["jfr", "summary", f], capture_output=True, text=True).stdout
    pauses = subprocess.run(["jfr", "print", "--events", "jdk.GarbageCollection", f], capture_output=True, text=True).stdout
    sums = re.findall(r"sumOfPauses = ([\d.]+) (ms|s)", pauses)
    ms = sum(float(v) * (1000 if u == "s" else 1) for v, u in sums)
    print(f"\nGC: {len(sums)} collections, {ms:.0f} ms of pauses in total")

main()
