package io.github.s3mergetree.engine.table;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The table's metadata lock: serializes block number allocation, part publication (inserts and
 * merges) and commit-log recovery among all writers of one table directory — threads of this JVM
 * (an in-process lock per directory) and other processes on the same file system (an exclusive
 * {@link FileLock} on {@code s3mergetree_metadata/lock}).
 */
final class TableLock {
    private static final ConcurrentHashMap<Path, ReentrantLock> IN_PROCESS =
            new ConcurrentHashMap<>();

    private final Path lockFile;
    private final ReentrantLock local;

    TableLock(Path lockFile) {
        this.lockFile = lockFile.toAbsolutePath().normalize();
        this.local = IN_PROCESS.computeIfAbsent(this.lockFile, p -> new ReentrantLock());
    }

    /** Holds the lock until closed. */
    final class Held implements AutoCloseable {
        private final FileChannel channel;
        private final FileLock lock;

        private Held(FileChannel channel, FileLock lock) {
            this.channel = channel;
            this.lock = lock;
        }

        @Override
        public void close() throws IOException {
            try {
                if (lock != null) {
                    lock.release();
                }
                if (channel != null) {
                    channel.close();
                }
            } finally {
                local.unlock();
            }
        }
    }

    /** Blocks until this thread holds the lock; re-entrant within a thread. */
    Held acquire() throws IOException {
        local.lock();
        if (local.getHoldCount() > 1) {
            return new Held(null, null);
        }
        FileChannel ch = null;
        try {
            ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            return new Held(ch, ch.lock());
        } catch (IOException | RuntimeException e) {
            if (ch != null) {
                ch.close();
            }
            local.unlock();
            throw e;
        }
    }
}
