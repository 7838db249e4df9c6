package io.github.s3mergetree.objectstore;

import java.io.FileNotFoundException;
import java.io.IOException;

/**
 * The one-line explanation of a failed listing by a build-time check (the source's and the sink's
 * {@code validate-on-build}): an unreachable endpoint, a missing bucket or wrong credentials, each
 * with what to check, so that a misconfigured job fails before it is submitted with a message that
 * says which. Secrets never appear: the store's messages hold the access key id at most.
 */
public final class StoreAccessProblems {
    /** How {@code validate-on-build = false} is suggested in every message. */
    public static final String SKIP_HINT =
            " (validate-on-build = false skips this check, e.g. where only the TaskManagers"
                    + " can reach the store)";

    private StoreAccessProblems() {}

    /** The message for a listing of {@code location} that failed with {@code e}. */
    public static String explainListing(IOException e, String location) {
        if (e instanceof RetryableStoreException) {
            return "cannot reach the object store of "
                    + location
                    + ": "
                    + oneLine(e.getMessage())
                    + "; check the endpoint and the network"
                    + SKIP_HINT;
        }
        if (e instanceof FileNotFoundException) {
            return "cannot list "
                    + location
                    + ": "
                    + oneLine(e.getMessage())
                    + "; does the bucket exist (and the endpoint and region name it)?"
                    + SKIP_HINT;
        }
        String m = oneLine(String.valueOf(e.getMessage()));
        if (m.contains("403")
                || m.contains("AccessDenied")
                || m.contains("SignatureDoesNotMatch")
                || m.contains("InvalidAccessKeyId")) {
            return "cannot list "
                    + location
                    + ": "
                    + m
                    + "; check the credentials (access key, secret key or the AWS default chain)"
                    + " and the bucket policy"
                    + SKIP_HINT;
        }
        return "cannot list " + location + ": " + m + SKIP_HINT;
    }

    private static String oneLine(String s) {
        return s == null ? "null" : s.replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }
}
