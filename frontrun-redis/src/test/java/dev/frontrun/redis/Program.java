package dev.frontrun.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * A random program of Redis commands over two or three threads: each thread a few units, each unit what the server
 * runs at once (one command, a {@code MULTI … EXEC}, a script), some depending on what the thread read before (an
 * optimistic {@code WATCH}/{@code GET}/{@code MULTI … EXEC} increment).
 *
 * @param seed    what generated it (to find it again)
 * @param initial commands that make the state every run starts from
 * @param threads each thread's units
 */
record Program(long seed, List<List<String>> initial, List<List<Unit>> threads) {

    /** Where a unit's commands go: a connection of the thread's own. */
    interface Connection {
        /** Sends one command and returns its reply as text (errors as {@code ERR…}: their first word). */
        String call(List<String> words);
    }

    /** One thing the server runs at once; {@code read} is what the thread read last (for the optimistic increment). */
    interface Unit {
        String run(Connection connection, String[] read);
    }

    static final List<String> KEYS = List.of("a", "b", "h", "s", "l");

    private static final String SCRIPT = "local v = redis.call('GET', KEYS[1])"
            + " redis.call('SET', KEYS[1], (tonumber(v) or 0) + tonumber(ARGV[1])) return v";

    static Program random(long seed) {
        Random random = new Random(seed);
        int threadCount = 2 + random.nextInt(2);
        List<List<Unit>> threads = new ArrayList<>();
        for (int t = 0; t < threadCount; t++) {
            List<Unit> units = new ArrayList<>();
            int count = 1 + random.nextInt(threadCount == 2 ? 3 : 2);
            int limit = threadCount == 2 ? 4 : 3;
            for (int i = 0; i < count; i++) {
                List<Unit> next = units(random, t);
                if (units.size() + next.size() <= limit) {
                    units.addAll(next);
                }
            }
            if (units.isEmpty()) {
                List<String> words = command(random, t);
                units.add(named(String.join(" ", words), (c, read) -> c.call(words)));
            }
            threads.add(units);
        }
        List<List<String>> initial = new ArrayList<>();
        if (random.nextBoolean()) {
            initial.add(List.of("SET", "a", "1"));
        }
        if (random.nextBoolean()) {
            initial.add(List.of("HSET", "h", "f1", "1"));
            initial.add(List.of("EXPIRE", "h", "1000"));
        }
        if (random.nextBoolean()) {
            initial.add(List.of("RPUSH", "l", "x", "y"));
        }
        return new Program(seed, initial, threads);
    }

    /** One unit, or the three units of an optimistic increment. */
    private static List<Unit> units(Random random, int thread) {
        int kind = random.nextInt(10);
        String key = random.nextBoolean() ? "a" : "b";
        if (kind == 0) {
            List<List<String>> queued = List.of(queued(random, thread), queued(random, thread));
            return List.of(named("MULTI " + queued + " EXEC", (c, read) -> {
                c.call(List.of("MULTI"));
                queued.forEach(c::call);
                return c.call(List.of("EXEC"));
            }));
        }
        if (kind == 1) {
            return List.of(
                    named("WATCH " + key, (c, read) -> c.call(List.of("WATCH", key))),
                    named("GET " + key, (c, read) -> read[0] = c.call(List.of("GET", key))),
                    named("MULTI SET " + key + " read+1 EXEC", (c, read) -> {
                        c.call(List.of("MULTI"));
                        long n = read[0] == null || read[0].equals("nil") ? 0 : parse(read[0]);
                        c.call(List.of("SET", key, Long.toString(n + 1)));
                        return c.call(List.of("EXEC"));
                    }));
        }
        if (kind == 2) {
            List<String> words = List.of("EVAL", SCRIPT, "1", key, Integer.toString(1 + thread));
            return List.of(named("EVAL +" + (1 + thread) + " " + key, (c, read) -> c.call(words)));
        }
        List<String> words = command(random, thread);
        return List.of(named(String.join(" ", words), (c, read) -> c.call(words)));
    }

    /** A command inside a transaction: not KEYS, whose order of keys depends on how the keyspace was filled. */
    private static List<String> queued(Random random, int thread) {
        List<String> words = command(random, thread);
        return words.get(0).equals("KEYS") ? List.of("DBSIZE") : words;
    }

    private static long parse(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return 100;
        }
    }

    private static List<String> command(Random random, int thread) {
        String key = random.nextBoolean() ? "a" : "b";
        String value = Integer.toString(10 * (thread + 1) + random.nextInt(3));
        String field = random.nextBoolean() ? "f1" : "f2";
        String member = random.nextBoolean() ? "m1" : "m2";
        return switch (random.nextInt(24)) {
            case 0, 1 -> List.of("GET", key);
            case 2, 3 -> List.of("SET", key, value);
            case 4, 5 -> List.of("INCR", key);
            case 6 -> List.of("DEL", key);
            case 7 -> List.of("APPEND", key, "x");
            case 8 -> List.of("EXISTS", key);
            case 9 -> List.of("HSET", "h", field, value);
            case 10 -> List.of("HINCRBY", "h", field, "1");
            case 11 -> List.of("HGET", "h", field);
            case 12 -> List.of("SADD", "s", member);
            case 13 -> List.of("SREM", "s", member);
            case 14 -> List.of("SCARD", "s");
            case 15 -> List.of("LPUSH", "l", value);
            case 16 -> List.of("RPOP", "l");
            case 17 -> List.of("LLEN", "l");
            case 18 -> List.of("EXPIRE", key, "1000");
            case 19 -> List.of("PERSIST", random.nextBoolean() ? key : "h");
            case 20 -> List.of("TTL", random.nextBoolean() ? key : "h");
            case 21 -> List.of("KEYS", "*");
            case 22 -> List.of("DBSIZE");
            default -> List.of("RENAME", key, key.equals("a") ? "b" : "a");
        };
    }

    private static Unit named(String name, Unit unit) {
        return new Unit() {
            @Override
            public String run(Connection connection, String[] read) {
                return unit.run(connection, read);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    @Override
    public String toString() {
        return "seed " + seed + ", initial " + initial + ", threads "
                + threads.stream().map(Object::toString).collect(Collectors.joining(" | "));
    }
}
