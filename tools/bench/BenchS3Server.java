// An S3 API server for tools/bench/ingest-bench.sh until `s3-mergetree s3-server` lands: the CLI's
// LocalS3Server (S3Proxy, filesystem store, 127.0.0.1 only) over ROOT. Run with the command's classpath:
//   java -cp CP tools/bench/BenchS3Server.java ROOT PORT ACCESS_KEY SECRET_KEY PORT_FILE
// Writes the bound port into PORT_FILE once the server accepts requests; runs until killed.
import io.github.s3mergetree.cli.s3server.LocalS3Server;
import java.nio.file.Files;
import java.nio.file.Path;

public class BenchS3Server {
    public static void main(String[] a) throws Exception {
        LocalS3Server s = LocalS3Server.start(Path.of(a[0]), Integer.parseInt(a[1]), a[2], a[3]);
        Path tmp = Path.of(a[4] + ".tmp");
        Files.writeString(tmp, Integer.toString(s.port()));
        Files.move(tmp, Path.of(a[4]));
        Thread.currentThread().join();
    }
}
