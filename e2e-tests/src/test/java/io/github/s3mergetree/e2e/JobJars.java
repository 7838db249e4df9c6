package io.github.s3mergetree.e2e;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/** Builds small job jars from this module's test classes. */
final class JobJars {
    private JobJars() {}

    /**
     * A jar with {@code mainClass} and its nested classes (nothing else), {@code Main-Class} set.
     */
    static Path jarOf(Class<?> mainClass, Path jar) {
        try {
            Path classes =
                    Path.of(mainClass.getProtectionDomain().getCodeSource().getLocation().toURI());
            String packageDir = mainClass.getPackageName().replace('.', '/');
            String simple = mainClass.getSimpleName();
            Manifest m = new Manifest();
            m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass.getName());
            Files.createDirectories(jar.getParent());
            try (OutputStream os = Files.newOutputStream(jar);
                    JarOutputStream out = new JarOutputStream(os, m);
                    Stream<Path> files = Files.list(classes.resolve(packageDir))) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    String name = f.getFileName().toString();
                    if (name.equals(simple + ".class") || name.startsWith(simple + "$")) {
                        out.putNextEntry(new JarEntry(packageDir + "/" + name));
                        Files.copy(f, out);
                        out.closeEntry();
                    }
                }
            }
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
