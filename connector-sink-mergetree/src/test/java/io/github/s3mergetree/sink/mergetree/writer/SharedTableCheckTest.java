package io.github.s3mergetree.sink.mergetree.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.store.TableStore;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SharedTableCheck}: the subtasks of a job must see each other in their table. */
class SharedTableCheckTest {
    private static final Duration WAIT = Duration.ofMillis(300);

    @TempDir Path tmp;

    @Test
    void subtasksWritingOneDirectoryPass() throws Exception {
        TableStore store = TableStore.local(tmp.resolve("t").toString());
        SharedTableCheck a = new SharedTableCheck(store, "s", "job1", 0, 2, WAIT);
        SharedTableCheck b = new SharedTableCheck(store, "s", "job1", 1, 2, WAIT);
        a.register();
        b.register();
        a.verify();
        b.verify();
    }

    @Test
    void aLateSubtaskIsWaitedFor() throws Exception {
        TableStore store = TableStore.local(tmp.resolve("t").toString());
        SharedTableCheck a = new SharedTableCheck(store, "s", "job1", 0, 2, Duration.ofSeconds(10));
        a.register();
        Thread late =
                new Thread(
                        () -> {
                            try {
                                Thread.sleep(500);
                                new SharedTableCheck(store, "s", "job1", 1, 2, WAIT).register();
                            } catch (Exception e) {
                                throw new RuntimeException(e);
                            }
                        });
        late.start();
        a.verify();
        late.join();
    }

    @Test
    void directoriesOfTheSamePathOnOtherHostsFailWithAMessage() throws Exception {
        // two hosts: the same table path, a directory each
        TableStore hostA = TableStore.local(tmp.resolve("a/t").toString());
        TableStore hostB = TableStore.local(tmp.resolve("b/t").toString());
        SharedTableCheck a = new SharedTableCheck(hostA, "s", "job1", 0, 2, WAIT);
        SharedTableCheck b = new SharedTableCheck(hostB, "s", "job1", 1, 2, WAIT);
        a.register();
        b.register();
        assertThatThrownBy(a::verify)
                .isInstanceOf(TableNotSharedException.class)
                .hasMessageContaining("is not shared by the TaskManagers")
                .hasMessageContaining("subtasks [0] of 2")
                .hasMessageContaining("not those of [1]")
                .hasMessageContaining("Nothing was committed");
        assertThatThrownBy(b::verify).isInstanceOf(TableNotSharedException.class);
    }

    @Test
    void anEarlierJobsRegistrationDoesNotCount() throws Exception {
        TableStore store = TableStore.local(tmp.resolve("t").toString());
        new SharedTableCheck(store, "s", "job0", 1, 2, WAIT).register();
        SharedTableCheck a = new SharedTableCheck(store, "s", "job1", 0, 2, WAIT);
        a.register();
        assertThatThrownBy(a::verify).hasMessageContaining("not those of [1]");
        new SharedTableCheck(store, "s", "job1", 1, 2, WAIT).register();
        a.verify();
        assertThat(store.exists(SharedTableCheck.key("s", 1))).isTrue();
    }
}
