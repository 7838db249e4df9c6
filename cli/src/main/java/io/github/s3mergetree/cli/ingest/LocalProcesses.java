package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.engine.table.WriterLease;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Which processes of this machine run ({@link WriterLease.Liveness} of the ingest's lease): lets a
 * {@link WriterLease} whose holder was killed (kill -9, a crash) on this very machine be taken over
 * at once instead of after its expiry. A process is named by its machine (the kernel's boot id and
 * the pid namespace, so that two containers that share a kernel are not confused), its pid and its
 * start time (so that a reused pid is not taken for the holder). A holder on another machine, or
 * when this machine cannot be identified, is never known dead: its lease is respected until it
 * expires.
 */
public final class LocalProcesses {
    private static final String MACHINE = machine();

    private LocalProcesses() {}

    /** This process as a lease holder: its host name, pid and {@link #identity()}. */
    public static WriterLease.Holder holder() {
        return new WriterLease.Holder(hostName(), ProcessHandle.current().pid(), identity());
    }

    /** {@code <machine>/<pid>/<start millis>} of this process. */
    public static String identity() {
        ProcessHandle self = ProcessHandle.current();
        return MACHINE + "/" + self.pid() + "/" + startMillis(self);
    }

    /** This machine's host name, for messages ({@code ?} if unknown). */
    public static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "?";
        }
    }

    /** Whether {@code holder} is a process of this machine that no longer runs. */
    public static boolean isDead(WriterLease.Holder holder) {
        String p = holder.process();
        int last = p.lastIndexOf('/');
        int pidSlash = last < 0 ? -1 : p.lastIndexOf('/', last - 1);
        if (MACHINE.isEmpty() || pidSlash < 0 || !p.substring(0, pidSlash).equals(MACHINE)) {
            return false;
        }
        long pid;
        long start;
        try {
            pid = Long.parseLong(p.substring(pidSlash + 1, last));
            start = Long.parseLong(p.substring(last + 1));
        } catch (NumberFormatException e) {
            return false;
        }
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isEmpty() || !h.get().isAlive()) {
            return true;
        }
        long actual = startMillis(h.get());
        return start > 0 && actual > 0 && actual != start;
    }

    private static long startMillis(ProcessHandle h) {
        return h.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    }

    /** The kernel's boot id and this process's pid namespace; empty where there are none. */
    private static String machine() {
        try {
            String boot =
                    Files.readString(
                                    Path.of("/proc/sys/kernel/random/boot_id"),
                                    StandardCharsets.UTF_8)
                            .strip();
            String ns = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
            return boot + "|" + ns.replace('/', '_');
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return "";
        }
    }
}
