package io.github.s3mergetree.engine.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One chDB session per test class for its {@link ChDbSession} fields: started before the first test
 * in a fresh temporary directory, closed (and the directory deleted) after the last. A class whose
 * {@code @BeforeAll} methods need the session may use it there: JUnit runs extension callbacks
 * before the class's own {@code @BeforeAll} methods.
 */
public final class ChDbExtension implements BeforeAllCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(ChDbExtension.class);

    /** The session and its directory, closed by JUnit's store when the class is done. */
    private record Session(ChDb chdb, Path dir)
            implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() throws IOException {
            try {
                chdb.close();
            } finally {
                deleteTree(dir);
            }
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        List<Field> fields = sessionFields(context.getRequiredTestClass());
        if (fields.isEmpty()) {
            return;
        }
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        if (store.get(Session.class) != null) {
            return; // the field annotation registers this extension once per field
        }
        Path dir = Files.createTempDirectory("chdb-session");
        Session session;
        try {
            session = new Session(ChDb.start(dir.resolve("chdb")), dir);
        } catch (RuntimeException e) {
            deleteTree(dir);
            throw e;
        }
        store.put(Session.class, session);
        for (Field f : fields) {
            f.setAccessible(true);
            f.set(null, session.chdb());
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        // the store closes the session; the fields stop pointing at a closed engine
        for (Field f : sessionFields(context.getRequiredTestClass())) {
            f.setAccessible(true);
            f.set(null, null);
        }
    }

    private static List<Field> sessionFields(Class<?> testClass) {
        List<Field> out = new ArrayList<>();
        for (Class<?> c = testClass; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!f.isAnnotationPresent(ChDbSession.class)) {
                    continue;
                }
                if (f.getType() != ChDb.class || !Modifier.isStatic(f.getModifiers())) {
                    throw new ExtensionConfigurationException(
                            "@ChDbSession needs a static ChDb field, not "
                                    + f.getType().getSimpleName()
                                    + " "
                                    + c.getSimpleName()
                                    + "."
                                    + f.getName());
                }
                out.add(f);
            }
        }
        return out;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot delete " + p, e);
                }
            }
        }
    }
}
