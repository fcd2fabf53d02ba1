package dev.frontrun.redis;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Hears, through the server's keyspace notifications, every key any client changes, so that a change no command sent
 * through Frontrun explains (a client made without {@link FrontrunRedis}, a second connection factory) ends the
 * exploration instead of passing for a verdict: its interleavings were never explored. The server's
 * {@code notify-keyspace-events} is turned on for the exploration and put back after it. A marker published on a
 * channel of its own, heard after every event before it, tells when all of an execution's events are in.
 */
final class UnseenWrites implements AutoCloseable {

    private static final String SYNC = "frontrun:redis:sync";
    private static final String PREFIX = "__keyevent@";

    /** A key one event says was changed. */
    record Changed(KeyRef key, String event) {}

    private final RespClient admin;
    private final RespClient subscriber;
    private final String previousSetting;
    private final BlockingQueue<Object> heard = new LinkedBlockingQueue<>();
    private final Thread reader;
    private long marker;

    private UnseenWrites(RespClient admin, RespClient subscriber, String previousSetting) {
        this.admin = admin;
        this.subscriber = subscriber;
        this.previousSetting = previousSetting;
        this.reader = new Thread(this::read, "frontrun-redis keyspace events");
        reader.setDaemon(true);
    }

    /** Starts listening, or says why the server does not let it (then nothing is checked). */
    static UnseenWrites start(FrontrunRedis redis, RespClient admin) throws IOException {
        List<?> setting = (List<?>) admin.call("CONFIG", "GET", "notify-keyspace-events");
        String previous = RespClient.text(setting.get(1));
        admin.call("CONFIG", "SET", "notify-keyspace-events", "EA" + previous.replaceAll("[EA]", ""));
        RespClient subscriber = redis.connect();
        subscriber.call("PSUBSCRIBE", PREFIX + "*__:*");
        subscriber.call("SUBSCRIBE", SYNC);
        UnseenWrites unseen = new UnseenWrites(admin, subscriber, previous);
        unseen.reader.start();
        return unseen;
    }

    private void read() {
        try {
            while (true) {
                heard.add(subscriber.read());
            }
        } catch (IOException e) {
            heard.add(e); // closed: the exploration is over, or the server went away
        }
    }

    /** The keys changed since the last call, every event of the server before this call heard. */
    List<Changed> drain() throws IOException {
        String nonce = Long.toString(++marker);
        admin.call("PUBLISH", SYNC, nonce);
        List<Changed> changed = new ArrayList<>();
        while (true) {
            Object next;
            try {
                next = heard.poll(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for Redis's keyspace events", e);
            }
            if (next == null) {
                throw new IOException("Redis's keyspace events did not arrive within 30 s");
            }
            if (next instanceof IOException e) {
                throw e;
            }
            List<?> message = (List<?>) next;
            String kind = RespClient.text(message.get(0));
            if (kind.equals("message") && RespClient.text(message.get(2)).equals(nonce)) {
                return changed;
            }
            if (kind.equals("pmessage")) {
                String channel = RespClient.text(message.get(2));
                int at = channel.indexOf("__:", PREFIX.length());
                int db = Integer.parseInt(channel.substring(PREFIX.length(), at));
                String event = channel.substring(at + 3);
                changed.add(new Changed(new KeyRef(db, (byte[]) message.get(3)), event));
            }
        }
    }

    /** Whether an event is one no client caused: a key expiring or evicted by the server itself. */
    static boolean byTheServer(Changed changed) {
        return changed.event().equals("expired") || changed.event().equals("evicted");
    }

    @Override
    public void close() throws IOException {
        try {
            admin.call("CONFIG", "SET", "notify-keyspace-events", previousSetting);
        } finally {
            try {
                subscriber.close();
            } finally {
                admin.close();
            }
        }
    }

    static String describe(Changed changed) {
        return "key '" + changed.key().name() + "' of database " + changed.key().db() + " (" + changed.event() + ")";
    }
}
