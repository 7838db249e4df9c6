package io.github.s3mergetree.cli.s3server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Amazon S3's rules for general purpose bucket names, which ClickHouse's S3 URIs and the AWS SDK
 * assume too: 3 to 63 characters; lowercase letters, digits, dots and hyphens; starting and ending
 * with a letter or digit; no two adjacent dots; not an IPv4 address; none of S3's reserved prefixes
 * ({@code xn--}, {@code sthree-}, {@code amzn-s3-demo-}) and suffixes ({@code -s3alias}, {@code
 * --ol-s3}, {@code .mrap}, {@code --x-s3}, {@code --table-s3}).
 *
 * <p>Why: {@code s3-server} serves each subdirectory of its root as a bucket; a directory S3 would
 * refuse (say {@code b}) is served, but no real S3 client setup that follows S3's rules would reach
 * it in the same way, so the server refuses to start instead.
 */
public final class BucketNames {
    private static final Pattern CHARS = Pattern.compile("[a-z0-9.\\-]+");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final List<String> RESERVED_PREFIXES =
            List.of("xn--", "sthree-", "amzn-s3-demo-");
    private static final List<String> RESERVED_SUFFIXES =
            List.of("-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3");

    private BucketNames() {}

    /** Why S3 would refuse {@code name} as a bucket name; empty when it is valid. */
    public static Optional<String> problem(String name) {
        if (name.length() < 3 || name.length() > 63) {
            return Optional.of(
                    "S3 bucket names have 3 to 63 characters, this has " + name.length());
        }
        if (!CHARS.matcher(name).matches()) {
            return Optional.of(
                    "S3 bucket names consist of lowercase letters, digits, dots and hyphens");
        }
        if (!Character.isLetterOrDigit(name.charAt(0))
                || !Character.isLetterOrDigit(name.charAt(name.length() - 1))) {
            return Optional.of("S3 bucket names begin and end with a letter or a digit");
        }
        if (name.contains("..")) {
            return Optional.of("S3 bucket names have no two adjacent dots");
        }
        if (IPV4.matcher(name).matches()) {
            return Optional.of("S3 bucket names are not IP addresses");
        }
        for (String p : RESERVED_PREFIXES) {
            if (name.startsWith(p)) {
                return Optional.of("S3 reserves the bucket name prefix '" + p + "'");
            }
        }
        for (String s : RESERVED_SUFFIXES) {
            if (name.endsWith(s)) {
                return Optional.of("S3 reserves the bucket name suffix '" + s + "'");
            }
        }
        return Optional.empty();
    }

    /**
     * Checks every bucket directory (non-hidden subdirectory) of {@code root}; {@link
     * IllegalArgumentException} naming each invalid one and why.
     */
    public static void checkBucketDirectories(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return;
        }
        List<String> bad = new ArrayList<>();
        try (Stream<Path> s = Files.list(root)) {
            for (Path p : s.sorted().toList()) {
                String name = p.getFileName().toString();
                if (!Files.isDirectory(p) || name.startsWith(".")) {
                    continue;
                }
                problem(name).ifPresent(why -> bad.add("'" + name + "' (" + why + ")"));
            }
        }
        if (!bad.isEmpty()) {
            throw new IllegalArgumentException(
                    "the bucket "
                            + (bad.size() == 1 ? "directory " : "directories ")
                            + String.join(", ", bad)
                            + " under "
                            + root
                            + " cannot be S3 bucket names; rename "
                            + (bad.size() == 1 ? "it" : "them"));
        }
    }
}
