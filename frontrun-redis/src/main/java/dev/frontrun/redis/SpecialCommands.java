package dev.frontrun.redis;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The commands whose keys the table cannot place by position alone (a keyword names them: {@code STREAMS},
 * {@code STORE}, {@code DB}), and the resources beside keys: channels, and the script and function caches.
 */
final class SpecialCommands {

    static final String CHANNELS = "redis:channels";
    static final String SCRIPTS = "redis:scripts";
    static final String FUNCTIONS = "redis:functions";

    private SpecialCommands() {}

    static List<Integer> streams(Command c) {
        for (int i = 0; i < c.args().size(); i++) {
            if (c.word(i).equals("STREAMS")) {
                int rest = c.args().size() - i - 1;
                return CommandTable.range(i + 1, i + 1 + rest / 2);
            }
        }
        return List.of();
    }

    /** SORT's BY and GET patterns read other keys than its own: the keyspace then, unless they name none. */
    static Effect sort(int db, Command c, boolean readOnly) {
        List<KeyRef> reads = CommandTable.keysAt(db, CommandTable.FIRST.of(c), c);
        List<KeyRef> writes = new ArrayList<>();
        boolean patterns = false;
        for (int i = 1; i < c.args().size(); i++) {
            String word = c.word(i);
            if ((word.equals("BY") || word.equals("GET")) && i + 1 < c.args().size()) {
                String pattern = c.word(i + 1);
                patterns |= !(pattern.equals("#") || word.equals("BY") && !pattern.contains("*"));
                i++;
            } else if (word.equals("STORE") && !readOnly && i + 1 < c.args().size()) {
                writes.add(new KeyRef(db, c.args().get(i + 1)));
                i++;
            }
        }
        return CommandTable.effect(reads, writes, patterns ? Set.of(db) : Set.of(), Set.of(), List.of(), List.of());
    }

    static Effect georadius(int db, Command c) {
        List<KeyRef> writes = new ArrayList<>();
        for (int i = 1; i + 1 < c.args().size(); i++) {
            if (c.word(i).equals("STORE") || c.word(i).equals("STOREDIST")) {
                writes.add(new KeyRef(db, c.args().get(i + 1)));
            }
        }
        return CommandTable.effect(
                CommandTable.keysAt(db, CommandTable.FIRST.of(c), c), writes, Set.of(), Set.of(), List.of(), List.of());
    }

    static Effect copy(int db, Command c) {
        int target = db;
        for (int i = 2; i + 1 < c.args().size(); i++) {
            if (c.word(i).equals("DB")) {
                target = (int) c.number(i + 1);
            }
        }
        List<KeyRef> source = CommandTable.keysAt(db, List.of(0), c);
        List<KeyRef> destination = CommandTable.keysAt(target, List.of(1), c);
        return CommandTable.effect(source, destination, Set.of(), Set.of(), List.of(), List.of());
    }

    static Effect move(int db, Command c) {
        List<KeyRef> writes = new ArrayList<>(CommandTable.keysAt(db, List.of(0), c));
        writes.addAll(CommandTable.keysAt((int) c.number(1), List.of(0), c));
        return CommandTable.effect(List.of(), writes, Set.of(), Set.of(), List.of(), List.of());
    }

    /**
     * A script reads and writes the keys it declares (its body is opaque: every declared key is written) and is
     * looked up in, or added to, the script cache.
     */
    static Effect script(int db, Command c, String cached, boolean readOnly, boolean byDigest) {
        List<KeyRef> keys = CommandTable.keysAt(db, CommandTable.numkeys(1).of(c), c);
        List<String> reads = byDigest ? List.of(cached) : List.of();
        List<String> writes = byDigest ? List.of() : List.of(cached);
        return readOnly
                ? CommandTable.effect(keys, List.of(), Set.of(), Set.of(), reads, writes)
                : CommandTable.effect(List.of(), keys, Set.of(), Set.of(), reads, writes);
    }

    static Effect function(int db, Command c, boolean readOnly) {
        List<KeyRef> keys = CommandTable.keysAt(db, CommandTable.numkeys(1).of(c), c);
        List<String> reads = List.of(FUNCTIONS);
        return readOnly
                ? CommandTable.effect(keys, List.of(), Set.of(), Set.of(), reads, List.of())
                : CommandTable.effect(List.of(), keys, Set.of(), Set.of(), reads, List.of());
    }

    /** The script cache's entry of one script, by its SHA-1 digest, as {@code EVALSHA} names it. */
    static String scriptResource(String sha1) {
        return "redis:script:" + sha1;
    }

    /** Whether a resource is one of the script cache's entries, which are written weakly (loading twice commutes). */
    static boolean scriptEntry(String resource) {
        return resource.startsWith("redis:script:");
    }

    /** The container every cache entry belongs to, so that flushing the cache orders against every lookup. */
    static String scriptCache() {
        return SCRIPTS;
    }

    static String channelsContainer() {
        return CHANNELS;
    }

    static String channel(Command c, int i) {
        return i < c.args().size() ? "redis:channel:" + KeyNames.render(c.args().get(i)) : CHANNELS;
    }

    static List<String> channels(Command c) {
        return c.args().isEmpty()
                ? List.of(CHANNELS)
                : IntStream.range(0, c.args().size())
                        .mapToObj(i -> channel(c, i))
                        .toList();
    }

    static String sha1(Command c) {
        return sha1Of(c, 0);
    }

    static String sha1Of(Command c, int i) {
        try {
            byte[] body = i < c.args().size() ? c.args().get(i) : new byte[0];
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
