package dev.frontrun.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Frontrun;
import dev.frontrun.ResourceAccess;
import dev.frontrun.Result;
import dev.frontrun.Step;
import dev.frontrun.spi.SchedulingPoints;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Steps on a store beside the database (a key-value store here, as a Redis client announces its commands) are shown by
 * their facts in the summary, the explanation and the HTML report: the operation as sent and the resources it reads
 * and writes, never the label.
 */
class StoreStepsReportTest {

    /** The facts a store's step carries, as a Redis step's do. */
    record KvStep(List<List<String>> operations, List<String> reads, List<String> writes, List<String> cumulativeWrites)
            implements Step.StoreFacts {
        KvStep(List<List<String>> operations, List<String> reads, List<String> writes) {
            this(operations, reads, writes, List.of());
        }

        @Override
        public String store() {
            return "kv";
        }
    }

    /** A key-value store in memory whose every operation is a scheduling point over its key. */
    static final class Kv {
        final Map<String, Integer> values = new ConcurrentHashMap<>(Map.of("counter", 5));

        int get(String key) {
            String resource = "kv:" + key;
            SchedulingPoints.step(new Step(
                    List.of(ResourceAccess.read(resource)),
                    Set.of(),
                    Set.of(),
                    "label not shown",
                    new KvStep(List.of(List.of("GET", key)), List.of(resource), List.of())));
            return values.get(key);
        }

        void set(String key, int value) {
            String resource = "kv:" + key;
            SchedulingPoints.step(new Step(
                    List.of(ResourceAccess.write(resource)),
                    Set.of(),
                    Set.of(),
                    "label not shown",
                    new KvStep(List.of(List.of("SET", key, Integer.toString(value))), List.of(), List.of(resource))));
            values.put(key, value);
        }

        void bump() {
            set("counter", get("counter") + 1);
        }

        /** Adds one to the key's value, whatever it is then, in one operation (an {@code INCR}). */
        void incr(String key) {
            String resource = "kv:" + key;
            SchedulingPoints.step(new Step(
                    List.of(ResourceAccess.write(resource)),
                    Set.of(),
                    Set.of(),
                    "label not shown",
                    new KvStep(List.of(List.of("INCR", key)), List.of(), List.of(resource), List.of(resource))));
            values.merge(key, 1, Integer::sum);
        }

        /** Counts a hit unless the limit of 6 is reached, checked on a read before the increment. */
        void hit() {
            if (get("counter") < 6) {
                incr("counter");
            }
        }
    }

    @Test
    void aLostUpdateOnAStoreIsNamedWithEachCommandAndTheKeyItTouches(@TempDir Path reports) throws Exception {
        Result result = Frontrun.explore(Kv::new)
                .thread("a", Kv::bump)
                .thread("b", Kv::bump)
                .invariant(kv -> kv.values.get("counter") == 7, "both bumps count")
                .reportDirectory(reports)
                .run();

        assertThat(result.failed()).isTrue();
        assertThat(result.summary())
                .startsWith("Frontrun: property FAILS — LOST_UPDATE between requests (Adya P4)\n")
                .contains("  anomaly: a --rw kv:counter--> b --ww kv:counter--> a\n"
                        + "    * 0  a  kv GET counter → reads kv:counter\n"
                        + "    * 1  b  kv GET counter → reads kv:counter\n"
                        + "    * 2  b  kv SET counter 6 → writes kv:counter\n"
                        + "    * 3  a  kv SET counter 6 → writes kv:counter\n")
                .doesNotContain("label not shown");
        assertThat(result.anomaly().orElseThrow().description())
                .isEqualTo("Lost update (Adya P4) at request level, on kv:\n"
                        + "  both requests read kv:counter before either wrote it: a at step 0, b at step 1\n"
                        + "  step 2  b wrote kv:counter: kv SET counter 6\n"
                        + "  step 3  a wrote kv:counter with a value that may rest on its read at step 0, which did not"
                        + " see b's write: kv SET counter 6\n"
                        + "  → b's update of kv:counter is lost: a overwrote it.\n"
                        + "  cycle: a --rw kv:counter--> b --ww kv:counter--> a\n"
                        + "  The store runs each operation alone, but nothing ties a read to a later write: make them"
                        + " one operation of the store.");
        assertThat(result.explanation())
                .contains("  0  a            kv GET counter → reads kv:counter\n")
                .contains("  3  a            kv SET counter 6 → writes kv:counter\n")
                .doesNotContain("label not shown");
        String html = Files.readString(result.report().orElseThrow(), StandardCharsets.UTF_8);
        assertThat(html)
                .contains("class=\"step-detail read\" data-position=\"0\"")
                .contains("class=\"step-detail write\" data-position=\"3\"")
                .contains("kv SET counter 6 → writes kv:counter")
                .contains("step 3 · a\nkv SET counter 6\nwrites kv:counter")
                .contains("both requests read kv:counter before either wrote it")
                .doesNotContain("label not shown");
    }

    @Test
    void anIncrementAfterAStaleCheckIsACheckThenActWithNoWriteLost() {
        Result result = Frontrun.explore(Kv::new)
                .thread("a", Kv::hit)
                .thread("b", Kv::hit)
                .invariant(kv -> kv.values.get("counter") <= 6, "the limit holds")
                .run();

        assertThat(result.failed()).isTrue();
        assertThat(result.summary())
                .contains("  anomaly: a --rw kv:counter--> b --ww kv:counter--> a\n"
                        + "    * 0  a  kv GET counter → reads kv:counter\n"
                        + "    * 1  b  kv GET counter → reads kv:counter\n"
                        + "    * 2  b  kv INCR counter → writes kv:counter\n"
                        + "    * 3  a  kv INCR counter → writes kv:counter\n");
        assertThat(result.anomaly().orElseThrow().description())
                .isEqualTo("Check-then-act at request level, on kv (the shape of a lost update, Adya P4, but no write"
                        + " is lost):\n"
                        + "  both requests read kv:counter before either changed it: a at step 0, b at step 1\n"
                        + "  step 2  b changed kv:counter: kv INCR counter\n"
                        + "  step 3  a changed kv:counter on the strength of its read at step 0, which did not see b's"
                        + " change: kv INCR counter\n"
                        + "  → kv applied both changes, but each request acted on a value the other then changed: a"
                        + " check made on the read no longer holds.\n"
                        + "  cycle: a --rw kv:counter--> b --ww kv:counter--> a\n"
                        + "  The store runs each operation alone, but nothing ties the read to the change: change first"
                        + " and decide on the value the operation returns, or check and change in one operation of the"
                        + " store.");
    }

    @Test
    void writesWithoutAReadBetweenThemAreListedAsTheConflictingAccesses() {
        Result result = Frontrun.explore(Kv::new)
                .thread("a", kv -> kv.set("counter", 1))
                .thread("b", kv -> kv.set("counter", 2))
                .invariant(kv -> kv.values.get("counter") == 2, "b's write lands last")
                .run();

        assertThat(result.failed()).isTrue();
        assertThat(result.anomaly()).as("no read, so no lost update").isEmpty();
        assertThat(result.summary())
                .contains("  conflicting accesses:\n"
                        + "    * 0  b  kv SET counter 2 → writes kv:counter\n"
                        + "    * 1  a  kv SET counter 1 → writes kv:counter\n");
    }

    @Test
    void aTransactionOfManyOperationsIsOneLineAndLongListsOfResourcesAreCounted() {
        KvStep many = new KvStep(
                List.of(List.of("INCR", "a"), List.of("DEL", "b", "c", "d", "e", "f"), List.of("EXEC")),
                List.of(),
                List.of("kv:a", "kv:b", "kv:c", "kv:d", "kv:e", "kv:f"));

        assertThat(Wording.storeStep(many))
                .isEqualTo("kv INCR a; DEL b c d e f; EXEC → writes kv:a, kv:b, kv:c, kv:d … (2 more)");
        assertThat(Wording.storeAccesses(many, -1)).isEqualTo("writes kv:a, kv:b, kv:c, kv:d, kv:e, kv:f");
    }
}
