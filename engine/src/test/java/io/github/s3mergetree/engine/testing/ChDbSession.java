package io.github.s3mergetree.engine.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a {@code static ChDb} field of a test class: {@link ChDbExtension} starts one chDB session
 * for the class before its first test (in a temporary directory of its own), assigns it to the
 * field, and closes it and deletes the directory after the last test. It replaces the
 * {@code @TempDir} + {@code @BeforeAll ChDb.start} + {@code @AfterAll close} lifecycle every class
 * that shares a chDB session used to repeat.
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(ChDbExtension.class)
public @interface ChDbSession {}
