package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.table.WriterLease;
import org.junit.jupiter.api.Test;

/**
 * The liveness check of the ingest's lease: a process of this machine that ended is known dead (its
 * lease is taken over at once after a kill -9), this one is not, and a process of another machine
 * never is (its lease is respected until it expires).
 */
class LocalProcessesTest {
    @Test
    void aProcessOfThisMachineThatEndedIsKnownDeadAndThisOneIsNot() throws Exception {
        Process p = new ProcessBuilder("true").start();
        String start =
                p.toHandle().info().startInstant().map(i -> "" + i.toEpochMilli()).orElse("0");
        p.waitFor();
        String self = LocalProcesses.identity();
        String machine = self.substring(0, self.lastIndexOf('/', self.lastIndexOf('/') - 1));
        WriterLease.Holder ended =
                new WriterLease.Holder("h", p.pid(), machine + "/" + p.pid() + "/" + start);
        assertThat(LocalProcesses.isDead(ended)).isTrue();
        assertThat(LocalProcesses.isDead(LocalProcesses.holder())).isFalse();
        assertThat(LocalProcesses.isDead(new WriterLease.Holder("h", p.pid(), "other|x/1/2")))
                .isFalse();
    }
}
