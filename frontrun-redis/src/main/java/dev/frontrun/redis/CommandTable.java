package dev.frontrun.redis;

import dev.frontrun.redis.Effect.Control;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Reads what a Redis command touches from its name and arguments, so that two commands are ordered by the scheduler
 * exactly when they may not commute: the keys each reads and writes (a key's value, type and expiry together), the
 * whole keyspace for the commands that see or change every key, pub/sub channels and the script and function caches as
 * resources of their own. A command the table does not know writes the whole keyspace of its database: coarser, never
 * finer. Its coverage of the server's own command list is tested against {@code COMMAND INFO}.
 */
final class CommandTable {

    /** Commands whose first argument is a subcommand, named {@code container|subcommand} in the table. */
    static final Set<String> CONTAINERS = Set.of(
            "acl",
            "client",
            "cluster",
            "command",
            "config",
            "function",
            "latency",
            "memory",
            "module",
            "object",
            "pubsub",
            "script",
            "slowlog",
            "xgroup",
            "xinfo");

    /** How many databases a server has by default: what {@code FLUSHALL} and {@code SWAPDB} may change. */
    static final int DATABASES = 16;

    /** Which arguments are keys. */
    interface Positions {
        List<Integer> of(Command c);
    }

    /** How the keys at those positions are touched. */
    private enum Mode {
        READ,
        WRITE,
        /** the first key written, the others read (a destination and its sources) */
        FIRST_WRITTEN
    }

    private static final Map<String, BiFunction<Integer, Command, Effect>> RULES = new HashMap<>();
    /** Commands taken on purpose for a write of the whole keyspace: what they change is not the table's to say. */
    private static final Set<String> COARSE = Set.of(
            "debug",
            "migrate",
            "shutdown",
            "replicaof",
            "slaveof",
            "sync",
            "psync",
            "replconf",
            "failover",
            "config|set",
            "config|resetstat",
            "config|rewrite",
            "module|load",
            "module|loadex",
            "module|unload",
            "pfdebug",
            "cluster|addslots",
            "cluster|addslotsrange",
            "cluster|delslots",
            "cluster|delslotsrange",
            "cluster|flushslots",
            "cluster|setslot",
            "cluster|reset",
            "cluster|failover",
            "cluster|replicate",
            "cluster|forget",
            "cluster|meet",
            "cluster|bumpepoch",
            "cluster|set-config-epoch",
            "cluster|saveconfig");

    /**
     * Commands that change their key (the first argument) from the value they find, keeping what was there: an
     * increment, an append, a push, an added member. A write of another client just before is built on, never
     * overwritten; a command that may replace the key, a field or a member's score ({@code SET}, {@code HSET},
     * {@code ZADD}) or remove one is not among them.
     */
    private static final Set<String> CUMULATIVE = Set.of(
            "incr",
            "decr",
            "incrby",
            "decrby",
            "incrbyfloat",
            "hincrby",
            "hincrbyfloat",
            "zincrby",
            "append",
            "lpush",
            "rpush",
            "lpushx",
            "rpushx",
            "sadd",
            "pfadd",
            "xadd");

    static final Positions FIRST = c -> c.args().isEmpty() ? List.of() : List.of(0);
    private static final Positions TWO = c -> range(0, Math.min(2, c.args().size()));
    private static final Positions ALL = c -> range(0, c.args().size());
    private static final Positions ALL_BUT_LAST = c -> range(0, c.args().size() - 1);
    private static final Positions PAIRS = c ->
            IntStream.range(0, c.args().size()).filter(i -> i % 2 == 0).boxed().toList();

    static {
        keys(Mode.READ, FIRST, "get", "getrange", "substr", "strlen", "getbit", "bitcount", "bitpos", "bitfield_ro");
        keys(Mode.READ, FIRST, "hget", "hmget", "hgetall", "hkeys", "hvals", "hlen", "hexists", "hstrlen");
        keys(Mode.READ, FIRST, "hrandfield", "hscan", "smembers", "sismember", "smismember", "scard", "srandmember");
        keys(Mode.READ, FIRST, "sscan", "llen", "lrange", "lindex", "lpos", "zcard", "zcount", "zscore", "zmscore");
        keys(Mode.READ, FIRST, "zrank", "zrevrank", "zrange", "zrevrange", "zrangebyscore", "zrevrangebyscore");
        keys(Mode.READ, FIRST, "zrangebylex", "zrevrangebylex", "zlexcount", "zrandmember", "zscan", "geodist");
        keys(Mode.READ, FIRST, "geohash", "geopos", "geosearch", "georadius_ro", "georadiusbymember_ro", "xlen");
        keys(Mode.READ, FIRST, "xrange", "xrevrange", "xpending", "ttl", "pttl", "expiretime", "pexpiretime");
        keys(Mode.READ, FIRST, "type", "dump");
        keys(Mode.READ, ALL, "exists", "mget", "sinter", "sunion", "sdiff", "touch");
        // PFCOUNT keeps the count it computed in the key (the server flags it RW)
        keys(Mode.WRITE, ALL, "pfcount");
        keys(Mode.READ, TWO, "lcs");
        keys(Mode.READ, numkeys(0), "zinter", "zunion", "zdiff", "sintercard", "zintercard");
        keys(Mode.WRITE, FIRST, "set", "setnx", "setex", "psetex", "getset", "getdel", "getex", "append", "setrange");
        keys(Mode.WRITE, FIRST, "incr", "decr", "incrby", "decrby", "incrbyfloat", "setbit", "bitfield", "hset");
        keys(Mode.WRITE, FIRST, "hsetnx", "hmset", "hdel", "hincrby", "hincrbyfloat", "sadd", "srem", "spop");
        keys(Mode.WRITE, FIRST, "lpush", "rpush", "lpushx", "rpushx", "lpop", "rpop", "lset", "linsert", "lrem");
        keys(Mode.WRITE, FIRST, "ltrim", "zadd", "zincrby", "zrem", "zremrangebyscore", "zremrangebyrank");
        keys(Mode.WRITE, FIRST, "zremrangebylex", "zpopmin", "zpopmax", "geoadd", "pfadd", "xadd", "xdel", "xtrim");
        keys(Mode.WRITE, FIRST, "xack", "xclaim", "xautoclaim", "xsetid", "expire", "pexpire", "expireat");
        keys(Mode.WRITE, FIRST, "pexpireat", "persist", "restore", "restore-asking");
        keys(Mode.WRITE, ALL, "del", "unlink", "msetnx");
        keys(Mode.WRITE, PAIRS, "mset");
        keys(Mode.WRITE, TWO, "rename", "renamenx", "smove", "lmove", "blmove", "rpoplpush", "brpoplpush");
        keys(Mode.WRITE, ALL_BUT_LAST, "blpop", "brpop", "bzpopmin", "bzpopmax");
        keys(Mode.WRITE, numkeys(0), "lmpop", "zmpop");
        keys(Mode.WRITE, numkeys(1), "blmpop", "bzmpop");
        keys(Mode.FIRST_WRITTEN, ALL, "sinterstore", "sunionstore", "sdiffstore", "pfmerge");
        keys(Mode.FIRST_WRITTEN, TWO, "geosearchstore", "zrangestore");
        keys(Mode.FIRST_WRITTEN, c -> concat(0, numkeys(1).of(c)), "zunionstore", "zinterstore", "zdiffstore");
        keys(Mode.FIRST_WRITTEN, c -> range(1, c.args().size()), "bitop");
        keys(Mode.WRITE, c -> c.args().size() > 1 ? List.of(1) : List.of(), "xgroup|create", "xgroup|setid");
        keys(Mode.WRITE, c -> c.args().size() > 1 ? List.of(1) : List.of(), "xgroup|destroy");
        keys(Mode.WRITE, c -> c.args().size() > 1 ? List.of(1) : List.of(), "xgroup|createconsumer");
        keys(Mode.WRITE, c -> c.args().size() > 1 ? List.of(1) : List.of(), "xgroup|delconsumer");
        keys(Mode.READ, c -> c.args().size() > 1 ? List.of(1) : List.of(), "xinfo|consumers", "xinfo|groups");
        keys(Mode.READ, c -> c.args().size() > 1 ? List.of(1) : List.of(), "xinfo|stream", "memory|usage");
        keys(Mode.READ, c -> c.args().size() > 1 ? List.of(1) : List.of(), "object|encoding", "object|freq");
        keys(Mode.READ, c -> c.args().size() > 1 ? List.of(1) : List.of(), "object|idletime", "object|refcount");
        keys(Mode.READ, SpecialCommands::streams, "xread");
        keys(Mode.WRITE, SpecialCommands::streams, "xreadgroup");
        RULES.put("sort", (db, c) -> SpecialCommands.sort(db, c, false));
        RULES.put("sort_ro", (db, c) -> SpecialCommands.sort(db, c, true));
        RULES.put("georadius", SpecialCommands::georadius);
        RULES.put("georadiusbymember", SpecialCommands::georadius);
        RULES.put("copy", SpecialCommands::copy);
        RULES.put("move", SpecialCommands::move);

        for (String name : List.of("keys", "scan", "dbsize", "randomkey", "cluster|countkeysinslot")) {
            RULES.put(name, (db, c) -> effect(List.of(), List.of(), Set.of(db), Set.of(), List.of(), List.of()));
        }
        RULES.put("cluster|getkeysinslot", RULES.get("keys"));
        RULES.put("flushdb", (db, c) -> effect(List.of(), List.of(), Set.of(), Set.of(db), List.of(), List.of()));
        Set<Integer> every = IntStream.range(0, DATABASES).boxed().collect(Collectors.toSet());
        for (String name : List.of("flushall", "swapdb")) {
            RULES.put(name, (db, c) -> effect(List.of(), List.of(), Set.of(), every, List.of(), List.of()));
        }

        RULES.put(
                "eval",
                (db, c) -> SpecialCommands.script(
                        db, c, SpecialCommands.scriptResource(SpecialCommands.sha1(c)), false, false));
        RULES.put(
                "eval_ro",
                (db, c) -> SpecialCommands.script(
                        db, c, SpecialCommands.scriptResource(SpecialCommands.sha1(c)), true, false));
        RULES.put(
                "evalsha",
                (db, c) -> SpecialCommands.script(
                        db, c, SpecialCommands.scriptResource(c.word(0).toLowerCase()), false, true));
        RULES.put(
                "evalsha_ro",
                (db, c) -> SpecialCommands.script(
                        db, c, SpecialCommands.scriptResource(c.word(0).toLowerCase()), true, true));
        RULES.put("fcall", (db, c) -> SpecialCommands.function(db, c, false));
        RULES.put("fcall_ro", (db, c) -> SpecialCommands.function(db, c, true));
        RULES.put(
                "script|load",
                (db, c) -> other(List.of(), List.of(SpecialCommands.scriptResource(SpecialCommands.sha1Of(c, 1)))));
        RULES.put("script|exists", (db, c) -> other(List.of(SpecialCommands.SCRIPTS), List.of()));
        RULES.put("script|flush", (db, c) -> other(List.of(), List.of(SpecialCommands.SCRIPTS)));
        for (String name : List.of("function|load", "function|delete", "function|flush", "function|restore")) {
            RULES.put(name, (db, c) -> other(List.of(), List.of(SpecialCommands.FUNCTIONS)));
        }
        for (String name : List.of("function|list", "function|dump")) {
            RULES.put(name, (db, c) -> other(List.of(SpecialCommands.FUNCTIONS), List.of()));
        }

        RULES.put("publish", (db, c) -> other(List.of(), List.of(SpecialCommands.channel(c, 0))));
        RULES.put("spublish", RULES.get("publish"));
        for (String name : List.of("subscribe", "ssubscribe", "unsubscribe", "sunsubscribe")) {
            RULES.put(name, (db, c) -> other(SpecialCommands.channels(c), List.of()));
        }
        for (String name : List.of("psubscribe", "punsubscribe", "pubsub|channels", "pubsub|numpat")) {
            RULES.put(name, (db, c) -> other(List.of(SpecialCommands.CHANNELS), List.of()));
        }
        for (String name : List.of("pubsub|numsub", "pubsub|shardchannels", "pubsub|shardnumsub")) {
            RULES.put(name, (db, c) -> other(List.of(SpecialCommands.CHANNELS), List.of()));
        }

        RULES.put("multi", control(Control.MULTI));
        RULES.put("exec", control(Control.EXEC));
        RULES.put("discard", control(Control.DISCARD));
        RULES.put("unwatch", control(Control.UNWATCH));
        RULES.put("select", control(Control.SELECT));
        RULES.put("reset", control(Control.RESET));
        RULES.put(
                "watch",
                (db, c) -> new Effect(
                        keysAt(db, ALL.of(c), c),
                        List.of(),
                        Set.of(),
                        Set.of(),
                        List.of(),
                        List.of(),
                        Control.WATCH,
                        false));

        for (String name : List.of(
                "ping",
                "echo",
                "auth",
                "hello",
                "info",
                "time",
                "lastsave",
                "role",
                "lolwut",
                "readonly",
                "readwrite",
                "asking",
                "quit",
                "wait",
                "monitor",
                "bgsave",
                "save",
                "bgrewriteaof",
                "pfselftest",
                "script|kill",
                "script|debug",
                "script|help",
                "function|kill",
                "function|stats",
                "function|help",
                "xgroup|help",
                "xinfo|help",
                "object|help",
                "pubsub|help",
                "memory|help",
                "memory|doctor",
                "memory|stats",
                "memory|malloc-stats",
                "memory|purge",
                "config|get",
                "config|help",
                "module|list",
                "module|help")) {
            RULES.put(name, control(Control.NONE));
        }
        for (String container : List.of("acl", "client", "command", "latency", "slowlog", "cluster")) {
            RULES.put(container + "|*", control(Control.NONE));
        }
    }

    private CommandTable() {}

    /** What {@code command} does when its connection has database {@code db} selected. */
    static Effect classify(int db, Command command) {
        String name = command.tableName();
        BiFunction<Integer, Command, Effect> rule = RULES.get(name);
        if (rule == null && !COARSE.contains(name)) {
            int bar = name.indexOf('|');
            rule = bar < 0 ? null : RULES.get(name.substring(0, bar) + "|*");
        }
        if (rule == null) {
            return new Effect(List.of(), List.of(), Set.of(), Set.of(db), List.of(), List.of(), Control.NONE, true);
        }
        return rule.apply(db, command);
    }

    /** Whether the table classifies the command named {@code tableName} ({@code incr}, {@code client|kill}). */
    static boolean classifies(String tableName) {
        int bar = tableName.indexOf('|');
        return RULES.containsKey(tableName)
                || (bar > 0 && !COARSE.contains(tableName) && RULES.containsKey(tableName.substring(0, bar) + "|*"));
    }

    /** Whether {@code command} changes the key it writes from the value it finds ({@link #CUMULATIVE}). */
    static boolean cumulative(Command command) {
        return CUMULATIVE.contains(command.tableName());
    }

    /** Whether the table takes the command for a write of the whole keyspace on purpose. */
    static boolean coarseByChoice(String tableName) {
        return COARSE.contains(tableName);
    }

    private static void keys(Mode mode, Positions positions, String... names) {
        for (String name : names) {
            RULES.put(name, (db, c) -> {
                List<KeyRef> keys = keysAt(db, positions.of(c), c);
                return switch (mode) {
                    case READ -> effect(keys, List.of(), Set.of(), Set.of(), List.of(), List.of());
                    case WRITE -> effect(List.of(), keys, Set.of(), Set.of(), List.of(), List.of());
                    case FIRST_WRITTEN -> effect(tail(keys), head(keys), Set.of(), Set.of(), List.of(), List.of());
                };
            });
        }
    }

    static Effect effect(
            List<KeyRef> reads,
            List<KeyRef> writes,
            Set<Integer> keyspaceReads,
            Set<Integer> keyspaceWrites,
            List<String> otherReads,
            List<String> otherWrites) {
        List<KeyRef> readOnly =
                reads.stream().filter(k -> !writes.contains(k)).distinct().toList();
        return new Effect(
                readOnly,
                writes.stream().distinct().toList(),
                keyspaceReads,
                keyspaceWrites,
                otherReads,
                otherWrites,
                Control.NONE,
                false);
    }

    static Effect other(List<String> reads, List<String> writes) {
        return effect(List.of(), List.of(), Set.of(), Set.of(), reads, writes);
    }

    private static BiFunction<Integer, Command, Effect> control(Control control) {
        return (db, c) -> new Effect(List.of(), List.of(), Set.of(), Set.of(), List.of(), List.of(), control, false);
    }

    static List<KeyRef> keysAt(int db, List<Integer> positions, Command c) {
        List<KeyRef> keys = new ArrayList<>();
        for (int i : positions) {
            if (i >= 0 && i < c.args().size()) {
                keys.add(new KeyRef(db, c.args().get(i)));
            }
        }
        return keys;
    }

    static Positions numkeys(int at) {
        return c -> {
            long n = c.number(at);
            return n <= 0
                    ? List.of()
                    : range(at + 1, (int) Math.min(at + 1 + n, c.args().size()));
        };
    }

    static List<Integer> range(int from, int to) {
        return from >= to ? List.of() : IntStream.range(from, to).boxed().toList();
    }

    private static List<Integer> concat(int first, List<Integer> rest) {
        List<Integer> all = new ArrayList<>(List.of(first));
        all.addAll(rest);
        return all;
    }

    private static List<KeyRef> head(List<KeyRef> keys) {
        return keys.isEmpty() ? List.of() : List.of(keys.get(0));
    }

    private static List<KeyRef> tail(List<KeyRef> keys) {
        return keys.isEmpty() ? List.of() : keys.subList(1, keys.size());
    }
}
