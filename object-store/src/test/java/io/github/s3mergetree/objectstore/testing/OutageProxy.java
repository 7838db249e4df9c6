package io.github.s3mergetree.objectstore.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP proxy in front of an S3 server that can have an outage: {@link #outage(int)} cuts
 * every open connection and resets the next {@code n} connections as soon as they are accepted (no
 * answer: the client sees a connection error, as when the server is unreachable); after that the
 * proxy forwards bytes both ways again. An outage measured in refused connections, not in seconds,
 * so a test decides exactly how many attempts fail. Listens on 127.0.0.1 only.
 */
public final class OutageProxy implements AutoCloseable {
    private final int upstreamPort;
    private final ServerSocket server;
    private final ExecutorService pool =
            Executors.newCachedThreadPool(
                    r -> {
                        Thread t = new Thread(r, "outage-proxy");
                        t.setDaemon(true);
                        return t;
                    });
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger toRefuse = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private volatile boolean closed;

    /** A proxy to the server listening on 127.0.0.1:{@code upstreamPort}. */
    public OutageProxy(int upstreamPort) throws IOException {
        this.upstreamPort = upstreamPort;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        pool.submit(this::acceptLoop);
    }

    /** The proxy's endpoint ({@code http://127.0.0.1:port}). */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    /** Starts an outage: open connections are cut, the next {@code connections} are reset. */
    public void outage(int connections) {
        toRefuse.set(connections);
        for (Socket s : open) {
            reset(s);
        }
    }

    /** Connections reset by outages so far. */
    public int refused() {
        return refused.get();
    }

    /** Connections an ongoing outage still resets (0: the store is reachable). */
    public int outageLeft() {
        return Math.max(0, toRefuse.get());
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            if (toRefuse.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
                refused.incrementAndGet();
                reset(client);
                continue;
            }
            pool.submit(() -> forward(client));
        }
    }

    private void forward(Socket client) {
        try (Socket up = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
            open.add(client);
            open.add(up);
            pool.submit(() -> pipe(up, client));
            pipe(client, up);
        } catch (IOException e) {
            reset(client);
        } finally {
            open.remove(client);
            reset(client);
        }
    }

    private void pipe(Socket from, Socket to) {
        byte[] buf = new byte[64 << 10];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
                out.flush();
            }
            to.shutdownOutput();
        } catch (IOException e) {
            reset(from);
            reset(to);
        } finally {
            open.remove(from);
        }
    }

    private static void reset(Socket s) {
        try {
            s.setSoLinger(true, 0);
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Socket s : open) {
            reset(s);
        }
        pool.shutdownNow();
    }
}
