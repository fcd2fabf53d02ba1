package dev.frontrun.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The command table against the server's own account of its commands ({@code COMMAND}, with their key specs): every
 * command the server has is classified or taken on purpose for a whole-keyspace write, and for every command with key
 * specs, an invocation built from those specs has the keys the server names ({@code COMMAND GETKEYSANDFLAGS}) among
 * those the table reads or writes, written whenever the server says the command changes them (coarser, never finer).
 */
@ExtendWith(RedisServerExtension.class)
class CommandTableCoverageTest {

    /** Invocations for the commands whose keys are found by a keyword, which the key specs alone do not place. */
    private static final Map<String, List<String>> SAMPLES = Map.ofEntries(
            Map.entry("xread", List.of("XREAD", "COUNT", "1", "STREAMS", "key0", "key1", "0", "0")),
            Map.entry("xreadgroup", List.of("XREADGROUP", "GROUP", "g", "c", "STREAMS", "key0", "key1", "0", "0")),
            Map.entry("sort", List.of("SORT", "key0", "BY", "w_*", "GET", "o_*", "STORE", "key1")),
            Map.entry("sort_ro", List.of("SORT_RO", "key0", "BY", "w_*")),
            Map.entry("georadius", List.of("GEORADIUS", "key0", "1", "1", "1", "m", "STORE", "key1")),
            Map.entry("georadiusbymember", List.of("GEORADIUSBYMEMBER", "key0", "m", "1", "m", "STOREDIST", "key1")),
            Map.entry("migrate", List.of("MIGRATE", "h", "1", "", "0", "1", "KEYS", "key0", "key1")));

    private record Spec(String name, long arity, List<Object> keySpecs) {}

    @Test
    void everyCommandOfTheServerIsClassifiedOrCoarseOnPurpose(RedisServer server) throws IOException {
        Map<String, Spec> commands = commands(server);
        assertThat(commands).hasSizeGreaterThan(200).containsKeys("incr", "client|kill", "xgroup|create");
        List<String> unknown = commands.keySet().stream()
                .filter(name -> !CommandTable.classifies(name) && !CommandTable.coarseByChoice(name))
                .toList();
        assertThat(unknown)
                .as("commands neither classified nor coarse on purpose")
                .isEmpty();
    }

    @Test
    void theTableNamesEveryKeyTheServerNamesAndWritesWhatTheServerSaysIsWritten(RedisServer server) throws IOException {
        Map<String, Spec> commands = commands(server);
        Map<String, String> wrong = new TreeMap<>();
        Set<String> checked = new TreeSet<>();
        try (RespClient client = server.client()) {
            for (Spec spec : commands.values()) {
                if (spec.keySpecs().isEmpty() || CommandTable.coarseByChoice(spec.name()) || channelsOnly(spec)) {
                    continue;
                }
                List<String> words = SAMPLES.getOrDefault(spec.name(), invocation(spec));
                if (words == null) {
                    wrong.put(spec.name(), "no invocation: add one to SAMPLES");
                    continue;
                }
                Object reply;
                try {
                    List<Object> call = new ArrayList<>(List.of("COMMAND", "GETKEYSANDFLAGS"));
                    call.addAll(words);
                    reply = client.call(call.toArray());
                } catch (RespClient.ServerError e) {
                    wrong.put(spec.name(), "server refused " + words + ": " + e.getMessage());
                    continue;
                }
                Command command = new Command(
                        words.get(0),
                        words.subList(1, words.size()).stream()
                                .map(w -> w.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                                .toList());
                Effect effect = CommandTable.classify(0, command);
                checked.add(spec.name());
                for (Object entry : (List<?>) reply) {
                    List<?> keyAndFlags = (List<?>) entry;
                    KeyRef key = new KeyRef(0, (byte[]) keyAndFlags.get(0));
                    List<String> flags = ((List<?>) keyAndFlags.get(1))
                            .stream().map(RespClient::text).toList();
                    boolean writes = flags.stream()
                            .anyMatch(f -> Set.of("OW", "RW", "RM").contains(f));
                    boolean written = effect.writes().contains(key)
                            || effect.keyspaceWrites().contains(0);
                    boolean seen = written
                            || effect.reads().contains(key)
                            || effect.keyspaceReads().contains(0);
                    if (!seen) {
                        wrong.put(spec.name(), words + ": the table misses key " + key.name());
                    } else if (writes && !written) {
                        wrong.put(spec.name(), words + ": the server writes " + key.name() + " " + flags);
                    }
                }
            }
        }
        assertThat(wrong).as("commands the table reads finer than the server").isEmpty();
        assertThat(checked).hasSizeGreaterThan(150).contains("incr", "mset", "eval", "zunionstore", "xreadgroup");
    }

    /** Whether the command's key specs all name channels (sharded pub/sub), which are resources of their own. */
    private static boolean channelsOnly(Spec spec) {
        return spec.keySpecs().stream()
                .allMatch(o -> ((List<?>) map(o).get("flags"))
                        .stream().map(RespClient::text).anyMatch("not_key"::equals));
    }

    /** An invocation with keys where the command's key specs put them, {@code 1} everywhere else. */
    private static List<String> invocation(Spec spec) {
        String[] parts = spec.name().split("\\|");
        int length = (int) Math.abs(spec.arity());
        List<String> words = new ArrayList<>(Arrays.asList(new String[Math.max(length, parts.length)]));
        for (int i = 0; i < parts.length; i++) {
            words.set(i, parts[i].toUpperCase(Locale.ROOT));
        }
        int key = 0;
        for (Object o : spec.keySpecs()) {
            Map<String, Object> keySpec = map(o);
            Map<String, Object> begin = map(keySpec.get("begin_search"));
            if (!RespClient.text(begin.get("type")).equals("index")) {
                return null;
            }
            int at = (int) (long) (Long) map(begin.get("spec")).get("index");
            Map<String, Object> find = map(keySpec.get("find_keys"));
            Map<String, Object> params = map(find.get("spec"));
            if (RespClient.text(find.get("type")).equals("range")) {
                long last = (Long) params.get("lastkey");
                int count = last >= 0 ? (int) last + 1 : 2;
                long step = (Long) params.get("keystep");
                for (int i = 0; i < count; i++) {
                    set(words, at + i * (int) step, "key" + key++);
                }
                if (last < 0) {
                    trimAfter(words, at + (count - 1) * (int) step + (int) (-last - 1));
                }
            } else {
                long numkeysAt = (Long) params.get("keynumidx");
                long first = (Long) params.get("firstkey");
                set(words, at + (int) numkeysAt, "2");
                set(words, at + (int) first, "key" + key++);
                set(words, at + (int) first + 1, "key" + key++);
            }
        }
        for (int i = 0; i < words.size(); i++) {
            if (words.get(i) == null) {
                words.set(i, "1");
            }
        }
        return words;
    }

    private static void set(List<String> words, int i, String word) {
        while (words.size() <= i) {
            words.add(null);
        }
        words.set(i, word);
    }

    private static void trimAfter(List<String> words, int last) {
        while (words.size() <= last) {
            words.add(null);
        }
    }

    private static Map<String, Object> map(Object flat) {
        List<?> list = (List<?>) flat;
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i + 1 < list.size(); i += 2) {
            map.put(RespClient.text(list.get(i)), list.get(i + 1));
        }
        return map;
    }

    /** Every command and subcommand the server reports, by the table's name. */
    private static Map<String, Spec> commands(RedisServer server) throws IOException {
        Map<String, Spec> commands = new HashMap<>();
        try (RespClient client = server.client()) {
            for (Object entry : (List<?>) client.call("COMMAND")) {
                add(commands, (List<?>) entry);
            }
        }
        return commands;
    }

    private static void add(Map<String, Spec> commands, List<?> info) {
        String name = RespClient.text(info.get(0)).toLowerCase(Locale.ROOT);
        List<?> subcommands = info.size() > 9 ? (List<?>) info.get(9) : List.of();
        List<Object> keySpecs = info.size() > 8 ? new ArrayList<>((List<?>) info.get(8)) : List.of();
        if (subcommands.isEmpty()) {
            commands.put(name, new Spec(name, (Long) info.get(1), keySpecs));
        }
        for (Object sub : subcommands) {
            add(commands, (List<?>) sub);
        }
    }
}
