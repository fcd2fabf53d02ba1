package dev.frontrun.nativeio;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

/**
 * Child-JVM program of {@link PreloadStressTest}: Java threads exchange known byte counts with an
 * in-process loopback echo server, all at once, while the main thread drains events concurrently.
 * Prints, per client thread, what it sent and received and what the interposer counted for it
 * (through the JNA bridge), so the test can check that they agree exactly.
 */
public final class LoopbackEchoMain {

    static final int CLIENTS = 6;
    static final int ITERATIONS = 300;

    public static void main(String[] args) throws Exception {
        NativeIo.requireActive();
        try (ServerSocket server = new ServerSocket(0, CLIENTS, InetAddress.getLoopbackAddress())) {
            int port = server.getLocalPort();
            Thread acceptor = new Thread(() -> acceptAndEcho(server), "echo-acceptor");
            acceptor.start();
            try (PortWatch watch = NativeIo.watchPort(port);
                    EventRecording recording = NativeIo.recordEvents()) {
                Client[] clients = new Client[CLIENTS];
                CyclicBarrier start = new CyclicBarrier(CLIENTS);
                CountDownLatch done = new CountDownLatch(CLIENTS);
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < CLIENTS; i++) {
                    clients[i] = new Client(i, port, start, done);
                    threads.add(new Thread(clients[i], "client-" + i));
                }
                threads.forEach(Thread::start);
                List<IoEvent> events = new ArrayList<>();
                while (!done.await(5, TimeUnit.MILLISECONDS)) {
                    events.addAll(NativeIo.drainEvents().events()); // drain while the clients run
                }
                for (Thread t : threads) {
                    t.join();
                }
                EventBatch last = NativeIo.drainEvents();
                events.addAll(last.events());
                report(clients, events, last.dropped());
            }
            acceptor.join();
        }
    }

    private static void report(Client[] clients, List<IoEvent> events, long dropped) {
        Map<Integer, long[]> byThread = new HashMap<>();
        for (Client c : clients) {
            byThread.put(c.tid, new long[2]);
        }
        long foreign = 0;
        for (IoEvent e : events) {
            long[] bytes = byThread.get(e.threadId());
            if (bytes == null) {
                foreign++;
            } else if (e.op().outgoing()) {
                bytes[0] += e.bytes();
            } else if (e.op().incoming()) {
                bytes[1] += e.bytes();
            }
        }
        for (Client c : clients) {
            if (c.failure != null) {
                throw c.failure;
            }
            long[] seen = byThread.get(c.tid);
            System.out.printf(
                    "client index=%d tid=%d sentBytes=%d receivedBytes=%d outBytes=%d inBytes=%d"
                            + " outCalls=%d connects=%d closes=%d eventOutBytes=%d eventInBytes=%d%n",
                    c.index,
                    c.tid,
                    c.sent,
                    c.received,
                    c.counted.outBytes(),
                    c.counted.inBytes(),
                    c.counted.outCalls(),
                    c.counted.connects(),
                    c.counted.closes(),
                    seen[0],
                    seen[1]);
        }
        System.out.printf("events total=%d foreign=%d dropped=%d%n", events.size(), foreign, dropped);
    }

    private static void acceptAndEcho(ServerSocket server) {
        try {
            for (int i = 0; i < CLIENTS; i++) {
                Socket socket = server.accept();
                new Thread(() -> echo(socket), "echo-" + i).start();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void echo(Socket socket) {
        try (socket;
                InputStream in = socket.getInputStream();
                OutputStream out = socket.getOutputStream()) {
            byte[] buffer = new byte[4096];
            int n;
            while ((n = in.read(buffer)) > 0) {
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final class Client implements Runnable {
        final int index;
        final int port;
        final CyclicBarrier start;
        final CountDownLatch done;
        int tid;
        long sent;
        long received;
        IoCounters counted;
        RuntimeException failure;

        Client(int index, int port, CyclicBarrier start, CountDownLatch done) {
            this.index = index;
            this.port = port;
            this.start = start;
            this.done = done;
        }

        @Override
        public void run() {
            try {
                tid = NativeIo.currentThreadId();
                start.await();
                try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    OutputStream out = socket.getOutputStream();
                    InputStream in = socket.getInputStream();
                    for (int k = 0; k < ITERATIONS; k++) {
                        byte[] message = new byte[1 + (k * 7 + index) % 200];
                        Arrays.fill(message, (byte) k);
                        out.write(message);
                        sent += message.length;
                        byte[] echoed = in.readNBytes(message.length);
                        received += echoed.length;
                        if (!Arrays.equals(message, echoed)) {
                            throw new IllegalStateException("client " + index + ": echo corrupted at " + k);
                        }
                    }
                }
                counted = NativeIo.snapshot(port);
            } catch (Exception e) {
                failure = e instanceof RuntimeException r ? r : new IllegalStateException(e);
            } finally {
                done.countDown();
            }
        }
    }
}
