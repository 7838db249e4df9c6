#!/usr/bin/env python3
"""Per-thread CPU of a running JVM, by thread role, sampled from /proc (ClickHouse's per-thread CPU habit:
which stage burns the cores). Used by ingest-bench.sh for every run of ours; also usable alone.

usage: tools/bench/thread-cpu.py PID OUT_PREFIX [INTERVAL_S] [--by-name EXE]
  PID: the java process, or a parent of it (e.g. /usr/bin/time), resolved to its first java descendant.
  --by-name EXE: the first descendant whose executable is named EXE (e.g. node, for chDB), its CPU by thread
  name (numbers folded: ClickHouse's pool threads) instead of by role.
  Writes OUT_PREFIX.tsv (CPU % of one core per role per interval) and OUT_PREFIX.txt (CPU seconds per role),
  until the process exits.
Roles (Linux thread names, 15 characters): fetch = the source's fetcher (download wait, Parquet decode),
insert = the sink's insert threads (sort, serialize, compress, write), task = the Flink task thread
(hands blocks to the sink), download = S3 ranged GETs, gc, jit (C1/C2 compiler threads), main (JVM and
MiniCluster start), other (Flink RPC, metrics, merges, ...).
The .tsv also has the whole machine's idle and steal (from /proc/stat, % of one core, not in the totals): a
core idle while the job runs is time no faster code can win back; steal is time the hypervisor gave away."""
import os, sys, time

ROLES = ["main", "fetch", "task", "insert", "download", "gc", "jit", "other"]


def role(name):
    if name.startswith("Source Data"):
        return "fetch"
    if name.startswith("mergetree-inse"):
        return "insert"
    if name.startswith("Source:"):
        return "task"
    if name.startswith("s3-source-down"):
        return "download"
    if "GC" in name or name.startswith("G1"):
        return "gc"
    if "Compiler" in name or "C2 Comp" in name or "C1 Comp" in name:
        return "jit"
    if name in ("java", "main"):
        return "main"
    return "other"


def machine_ticks():
    """(idle + iowait, steal) jiffies of all cores since boot, from /proc/stat."""
    with open("/proc/stat") as f:
        cpu = f.readline().split()[1:]
    return int(cpu[3]) + int(cpu[4]), int(cpu[7]) if len(cpu) > 7 else 0


def java_of(pid, exe="java"):
    """pid itself if it is a java process, else the first java process among its descendants."""
    todo = [pid]
    while todo:
        p = todo.pop(0)
        try:
            if os.path.basename(os.readlink(f"/proc/{p}/exe")).startswith(exe):
                return p
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo += f.read().split()
        except OSError:
            pass
    return None


def main():
    args = sys.argv[1:]
    by_name = None
    if "--by-name" in args:
        i = args.index("--by-name")
        by_name = args[i + 1]
        del args[i : i + 2]
    parent, prefix = args[0], args[1]
    interval = float(args[2]) if len(args) > 2 else 0.5
    hz = os.sysconf("SC_CLK_TCK")
    global ROLES, role
    if by_name:
        import re
        names = []
        fold = lambda name: re.sub(r"\d+", "#", name)

        def role(name):  # noqa: F811 (by thread name instead of role)
            n = fold(name)
            if n not in names:
                names.append(n)
            return n

        ROLES = names
    pid = None
    while pid is None and os.path.exists(f"/proc/{parent}"):
        pid = java_of(parent, by_name or "java")
        if pid is None:
            time.sleep(0.02)
    if pid is None:
        return
    import collections
    prev, total = {}, collections.Counter()
    t0 = time.time()
    prev_machine = machine_ticks()
    with open(prefix + ".tsv", "w") as tsv:
        if by_name:  # names appear as threads start: one line per (interval, name)
            tsv.write("t_s\tthread\tcpu_pct\n")
        else:
            tsv.write("t_s\t" + "\t".join(ROLES) + "\tmachine_idle\tmachine_steal\n")
        while os.path.exists(f"/proc/{pid}"):
            cur, per = {}, collections.Counter()
            try:
                tids = os.listdir(f"/proc/{pid}/task")
            except OSError:
                break
            for tid in tids:
                try:
                    with open(f"/proc/{pid}/task/{tid}/stat") as f:
                        s = f.read()
                except OSError:
                    continue
                name = s[s.index("(") + 1 : s.rindex(")")]
                fields = s[s.rindex(")") + 2 :].split()
                ticks = int(fields[11]) + int(fields[12])  # utime + stime
                cur[tid] = (name, ticks)
                d = ticks - prev.get(tid, (name, 0))[1]
                per[role(name)] += d
                total[role(name)] += d
            prev = cur
            machine = machine_ticks()
            idle, steal = (m - p for m, p in zip(machine, prev_machine))
            prev_machine = machine
            if by_name:
                for r, d in per.items():
                    if d:
                        tsv.write(f"{time.time() - t0:.1f}\t{r}\t{100 * d / hz / interval:.0f}\n")
            else:
                tsv.write(f"{time.time() - t0:.1f}\t" + "\t".join(f"{100 * per[r] / hz / interval:.0f}" for r in ROLES)
                          + f"\t{100 * idle / hz / interval:.0f}\t{100 * steal / hz / interval:.0f}\n")
            tsv.flush()
            time.sleep(interval)
    keys = ROLES if not by_name else [k for k, _ in total.most_common() if total[k] > 0]
    with open(prefix + ".txt", "w") as out:
        out.write(" ".join(f"{r.replace(' ', '_')}={total[r] / hz:.1f}" for r in keys) + "\n")


if __name__ == "__main__":
    main()
