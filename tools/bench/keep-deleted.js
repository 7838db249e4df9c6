// Preloaded into the chDB scripts by tools/bench/ingest-bench.sh (node --require): their fs.rmSync of a directory
// under BENCH_TRASH's file system becomes a rename into BENCH_TRASH, which the harness empties between rounds with a
// wait after it. Why: on an ext4 file system without a journal (this machine's), an inode deleted in the last 60 s
// (360 s while its inode table block is dirty) is skipped one by one when new files are created
// (fs/ext4/ialloc.c: find_inode_bit / recently_deleted, RECENTCY_MIN 60), so whichever process ran right after a
// table's deletion paid for it: ~1 CPU-s per 3,300 part files, seen with async-profiler in our insert threads.
const fs = require('fs'), path = require('path');
const trash = process.env.BENCH_TRASH;
if (trash) {
  const rmSync = fs.rmSync;
  let n = 0;
  fs.rmSync = function (p, opts) {
    try {
      if (fs.statSync(p).isDirectory()) {
        fs.renameSync(p, path.join(trash, `node-${process.pid}-${n++}-${path.basename(p)}`));
        return;
      }
    } catch (e) { /* not there, or not renameable: delete as asked */ }
    return rmSync.call(fs, p, opts);
  };
}
