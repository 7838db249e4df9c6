package io.github.s3mergetree.source.s3.testutils;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback HTTP/1.1 proxy in front of an S3 server that injects faults into a deterministic share
 * of requests: 503 SlowDown answers, connection resets (RST, no answer) and truncated bodies (the
 * announced Content-Length, then half the bytes and a closed connection).
 *
 * <p>Requests are forwarded byte for byte (SigV4 signatures stay valid), each over a fresh upstream
 * connection. Listens on 127.0.0.1 only.
 */
public final class FaultInjectingProxy implements AutoCloseable {
    private final int upstreamPort;
    private final ServerSocket server;
    private final ExecutorService pool =
            Executors.newCachedThreadPool(
                    r -> {
                        Thread t = new Thread(r, "fault-proxy");
                        t.setDaemon(true);
                        return t;
                    });
    private final AtomicLong requests = new AtomicLong();
    public final AtomicInteger slowDowns = new AtomicInteger();
    public final AtomicInteger resets = new AtomicInteger();
    public final AtomicInteger truncations = new AtomicInteger();
    private volatile int slowDownEvery;
    private volatile int resetEvery;
    private volatile int truncateEvery;
    private volatile boolean closed;
    private volatile long delayMillis;
    private final AtomicLong gets = new AtomicLong();

    /**
     * @param slowDownEvery every n-th request gets a 503 SlowDown (0: never)
     * @param resetEvery every n-th request has its connection reset (0: never)
     * @param truncateEvery every n-th GET with a body has it cut in half (0: never)
     */
    public FaultInjectingProxy(
            int upstreamPort, int slowDownEvery, int resetEvery, int truncateEvery)
            throws IOException {
        this.upstreamPort = upstreamPort;
        this.slowDownEvery = slowDownEvery;
        this.resetEvery = resetEvery;
        this.truncateEvery = truncateEvery;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        pool.submit(this::acceptLoop);
    }

    public int port() {
        return server.getLocalPort();
    }

    public java.net.URI endpoint() {
        return java.net.URI.create("http://127.0.0.1:" + port());
    }

    public void setFaults(int slowDownEvery, int resetEvery, int truncateEvery) {
        this.slowDownEvery = slowDownEvery;
        this.resetEvery = resetEvery;
        this.truncateEvery = truncateEvery;
    }

    /** Every request waits this long before it is answered (0: no delay). */
    public void setDelayMillis(long delayMillis) {
        this.delayMillis = delayMillis;
    }

    /** Requests seen so far. */
    public long requests() {
        return requests.get();
    }

    /** GET requests seen so far (object reads; ListObjects is a GET too). */
    public long gets() {
        return gets.get();
    }

    public int faults() {
        return slowDowns.get() + resets.get() + truncations.get();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                pool.submit(() -> serve(client));
            } catch (IOException e) {
                if (!closed) {
                    e.printStackTrace();
                }
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            client.setTcpNoDelay(true);
            InputStream in = client.getInputStream();
            OutputStream out = client.getOutputStream();
            while (true) {
                byte[] head = readHead(in);
                if (head == null) {
                    return;
                }
                String headText = new String(head, StandardCharsets.ISO_8859_1);
                long contentLength = header(headText, "content-length");
                byte[] body = contentLength > 0 ? in.readNBytes((int) contentLength) : new byte[0];
                long n = requests.incrementAndGet();
                boolean isGet = headText.startsWith("GET ");
                if (isGet) {
                    gets.incrementAndGet();
                }
                long delay = delayMillis;
                if (delay > 0) {
                    try {
                        Thread.sleep(delay);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                if (slowDownEvery > 0 && n % slowDownEvery == 0) {
                    slowDowns.incrementAndGet();
                    byte[] xml =
                            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code>"
                                            + "<Message>Please reduce your request rate.</Message></Error>")
                                    .getBytes(StandardCharsets.UTF_8);
                    out.write(
                            ("HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: "
                                            + xml.length
                                            + "\r\n\r\n")
                                    .getBytes(StandardCharsets.ISO_8859_1));
                    out.write(xml);
                    out.flush();
                    continue;
                }
                if (resetEvery > 0 && n % resetEvery == 0) {
                    resets.incrementAndGet();
                    client.setSoLinger(true, 0); // RST on close
                    return;
                }
                byte[] response = forward(head, body);
                int headEnd =
                        indexOf(response, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1)) + 4;
                int bodyLen = response.length - headEnd;
                if (isGet && truncateEvery > 0 && n % truncateEvery == 0 && bodyLen > 1) {
                    truncations.incrementAndGet();
                    out.write(response, 0, headEnd + bodyLen / 2);
                    out.flush();
                    client.setSoLinger(true, 0);
                    return;
                }
                out.write(response);
                out.flush();
                String respHead = new String(response, 0, headEnd, StandardCharsets.ISO_8859_1);
                if (respHead.toLowerCase(Locale.ROOT).contains("connection: close")) {
                    return;
                }
            }
        } catch (IOException e) {
            // client went away
        }
    }

    /** Sends one request upstream on a fresh connection and reads the whole response. */
    private byte[] forward(byte[] head, byte[] body) throws IOException {
        try (Socket up = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
            OutputStream o = up.getOutputStream();
            o.write(head);
            o.write(body);
            o.flush();
            InputStream i = up.getInputStream();
            byte[] respHead = readHead(i);
            if (respHead == null) {
                throw new IOException("upstream closed without a response");
            }
            String h = new String(respHead, StandardCharsets.ISO_8859_1);
            long len = header(h, "content-length");
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            all.write(respHead);
            boolean noBody =
                    head.length >= 4
                            && new String(head, 0, 4, StandardCharsets.ISO_8859_1)
                                    .startsWith("HEAD");
            if (!noBody) {
                if (len >= 0) {
                    all.write(i.readNBytes((int) len));
                } else if (h.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")) {
                    copyChunked(i, all);
                }
            }
            return all.toByteArray();
        }
    }

    private static void copyChunked(InputStream in, ByteArrayOutputStream out) throws IOException {
        while (true) {
            String sizeLine = readLine(in);
            out.write((sizeLine + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
            if (size == 0) {
                String trailer;
                while (!(trailer = readLine(in)).isEmpty()) {
                    out.write((trailer + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                }
                out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
                return;
            }
            out.write(in.readNBytes(size));
            readLine(in);
            out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                break;
            }
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }

    private static byte[] readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int state = 0;
        int c;
        while ((c = in.read()) >= 0) {
            b.write(c);
            state =
                    switch (state) {
                        case 0, 2 -> c == '\r' ? state + 1 : 0;
                        case 1 -> c == '\n' ? 2 : 0;
                        case 3 -> c == '\n' ? 4 : 0;
                        default -> 0;
                    };
            if (state == 4) {
                return b.toByteArray();
            }
        }
        return null;
    }

    private static long header(String head, String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return Long.parseLong(line.substring(colon + 1).trim());
            }
        }
        return -1;
    }

    private static int indexOf(byte[] data, byte[] pattern) {
        outer:
        for (int i = 0; i <= data.length - pattern.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        pool.shutdownNow();
    }
}
