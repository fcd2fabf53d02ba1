package dev.frontrun.redis;

import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import java.io.IOException;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Puts Redis back as the exploration found it, before every execution and after the last, so every execution starts
 * from the same keys: a snapshot of the databases in use (every key's value by {@code DUMP}, and its time to live) when
 * the exploration starts; then, before each execution, only what the commands sent through Frontrun changed since the
 * last restore (a written key is deleted and restored from its dump, a database flushed as a whole is refilled), so an
 * exploration that leaves Redis alone pays nothing. A key keeps the time to live it had at the snapshot.
 */
final class RedisRestore implements ExplorationHook {

    private static final int SCAN_COUNT = 1000;

    private final FrontrunRedis redis;
    private RespClient client;
    private Changes changes;
    private UnseenWrites unseen;
    private String unchecked;
    /** by database, every key's dump and time to live (ms, 0 for none) */
    private final Map<Integer, Map<KeyRef, Saved>> snapshot = new HashMap<>();

    private record Saved(byte[] dump, long ttl) {}

    /** Every key the explored commands changed in this exploration: what the serial check compares, in order. */
    private final Set<KeyRef> changedKeys = new TreeSet<>(RedisRestore::byName);

    RedisRestore(FrontrunRedis redis) {
        this.redis = redis;
    }

    /**
     * Takes the snapshot. A server nobody can reach (a context that configures Redis its tests never start) has no
     * data to put back, and the explored commands fail as they would without Frontrun: nothing is done then.
     */
    @Override
    public void beforeExploration() throws IOException {
        if (!snapshot()) {
            return;
        }
        try {
            unseen = UnseenWrites.start(redis, redis.connect());
        } catch (RespClient.ServerError e) {
            unchecked = "Redis at " + redis.host() + ":" + redis.port() + " refused to turn on keyspace"
                    + " notifications (" + e.getMessage() + "), so changes made by clients Frontrun does not see"
                    + " would go unnoticed";
        }
    }

    /** Snapshots the databases in use and starts recording changes; false when the server cannot be reached. */
    private boolean snapshot() throws IOException {
        try {
            client = redis.connect();
        } catch (ConnectException e) {
            return false;
        }
        redis.warmUp();
        Set<Integer> databases = new TreeSet<>(redis.databasesWithKeys(client));
        databases.add(redis.database());
        for (int db : databases) {
            snapshot.put(db, save(db));
        }
        changes = new Changes();
        redis.feed().recordInto(changes);
        return true;
    }

    /** The work run plainly needs its restore (the same state every round), and nothing else. */
    @Override
    public void beforeBaseline() throws IOException {
        snapshot();
    }

    @Override
    public void beforeExecution(ExecutionContext execution) throws IOException, InterruptedException {
        if (client == null) {
            return;
        }
        redis.feed().awaitAnswers(); // a command of an execution that ended early
        restore();
        if (unseen != null) {
            unseen.drain(); // the restore's own changes
        }
    }

    /**
     * Every key changed during the execution must be one a command sent through Frontrun wrote. Anything else came
     * from a client Frontrun does not see, whose commands' orders were never explored.
     */
    @Override
    public void executionCompleted(ExecutionContext execution) throws IOException, InterruptedException {
        if (client != null) {
            redis.feed().awaitAnswers(); // the invariant reads what the threads sent
        }
        if (unseen == null) {
            return;
        }
        List<String> around = new ArrayList<>();
        for (UnseenWrites.Changed changed : unseen.drain()) {
            if (!UnseenWrites.byTheServer(changed) && !changes.covers(changed.key())) {
                around.add(UnseenWrites.describe(changed));
            }
        }
        if (!around.isEmpty()) {
            throw new IllegalStateException("Redis was changed by a client Frontrun does not see: "
                    + String.join(", ", around.stream().distinct().toList()) + ". Frontrun explores only the commands"
                    + " of clients made through FrontrunRedis (instrument(client), jedis(), forSpring(factory); in"
                    + " Spring, a LettuceConnectionFactory or pooled JedisConnectionFactory bean), so the interleavings of these were never explored;"
                    + " or a script wrote keys it did not declare");
        }
    }

    /**
     * What every key the explored commands changed so far holds now ({@code redis:<db>:<key>}), for the check that every
     * outcome is one a serial order gives. A database changed as a whole adds all its keys, then and at the snapshot.
     */
    @Override
    public Map<String, Optional<String>> observed() throws IOException {
        if (client == null) {
            return Map.of();
        }
        Changes.Taken now = changes.peek();
        changedKeys.addAll(now.keys());
        for (int db : now.databases()) {
            changedKeys.addAll(snapshot.getOrDefault(db, Map.of()).keySet());
            changedKeys.addAll(keysOf(db));
        }
        Map<String, Optional<String>> contents = new LinkedHashMap<>();
        Integer selected = null;
        for (KeyRef key : changedKeys) {
            if (selected == null || selected != key.db()) {
                client.call("SELECT", key.db());
                selected = key.db();
            }
            contents.put(key.resource(), RedisContents.of(client, key));
        }
        return contents;
    }

    private static int byName(KeyRef a, KeyRef b) {
        return a.db() != b.db() ? Integer.compare(a.db(), b.db()) : Arrays.compare(a.key(), b.key());
    }

    @Override
    public List<String> notExplored() {
        return unchecked == null ? List.of() : List.of(unchecked);
    }

    @Override
    public void afterExploration() throws IOException, InterruptedException {
        try {
            if (client != null) {
                redis.feed().awaitAnswers();
                restore();
            }
        } finally {
            if (unseen != null) {
                unseen.close();
                unseen = null;
            }
            redis.feed().recordInto(null);
            snapshot.clear();
            changedKeys.clear();
            if (client != null) {
                client.close();
                client = null;
            }
        }
    }

    /** Every key of database {@code db} now. */
    private List<KeyRef> keysOf(int db) throws IOException {
        client.call("SELECT", db);
        List<KeyRef> keys = new ArrayList<>();
        String cursor = "0";
        do {
            List<?> page = (List<?>) client.call("SCAN", cursor, "COUNT", SCAN_COUNT);
            cursor = RespClient.text(page.get(0));
            for (Object key : (List<?>) page.get(1)) {
                keys.add(new KeyRef(db, (byte[]) key));
            }
        } while (!cursor.equals("0"));
        return keys;
    }

    private Map<KeyRef, Saved> save(int db) throws IOException {
        List<byte[]> keys = keysOf(db).stream().map(KeyRef::key).toList();
        for (byte[] key : keys) {
            client.send("DUMP", key);
            client.send("PTTL", key);
        }
        client.flush();
        Map<KeyRef, Saved> saved = new LinkedHashMap<>();
        for (byte[] key : keys) {
            byte[] dump = (byte[]) client.read();
            long ttl = (Long) client.read();
            if (dump != null && ttl != -2) {
                saved.put(new KeyRef(db, key), new Saved(dump, Math.max(ttl, 0)));
            }
        }
        return saved;
    }

    private void restore() throws IOException {
        Changes.Taken taken = changes.take();
        if (taken.nothing()) {
            return;
        }
        int replies = 0;
        for (int db : taken.databases()) {
            client.send("SELECT", db);
            client.send("FLUSHDB");
            replies += 2;
            for (Map.Entry<KeyRef, Saved> e :
                    snapshot.getOrDefault(db, Map.of()).entrySet()) {
                replies += put(e.getKey(), e.getValue());
            }
        }
        Integer selected = null;
        for (KeyRef key : taken.keys()) {
            if (taken.databases().contains(key.db())) {
                continue;
            }
            if (selected == null || selected != key.db()) {
                client.send("SELECT", key.db());
                selected = key.db();
                replies++;
            }
            client.send("DEL", key.key());
            replies++;
            Saved saved = snapshot.getOrDefault(key.db(), Map.of()).get(key);
            if (saved != null) {
                replies += put(key, saved);
            }
        }
        if (taken.scripts()) {
            client.send("SCRIPT", "FLUSH");
            replies++;
        }
        client.flush();
        for (int i = 0; i < replies; i++) {
            client.read();
        }
    }

    private int put(KeyRef key, Saved saved) throws IOException {
        client.send("RESTORE", key.key(), saved.ttl(), saved.dump(), "REPLACE");
        return 1;
    }
}
