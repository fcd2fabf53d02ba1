package dev.frontrun.spring.bench;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.Outcomes;
import dev.frontrun.Result;
import dev.frontrun.ThrowingRunnable;
import dev.frontrun.spring.RaceExplorer;
import dev.frontrun.spring.Requests;
import dev.frontrun.spring.app.JdbcGiftCards;
import dev.frontrun.spring.app.RaceApp;
import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.io.UnsupportedEncodingException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

/**
 * The gift card as a measurement, not a test (its three-request exploration runs for minutes): requests spending
 * from and topping up one card at REPEATABLE READ, each through a facade that retries a lost update, or once with
 * the failure expected, or the same statements in plain JDBC; each three-request scenario also with the two spends
 * declared as one body ({@code threads(2, "spend", …)}, explored by symmetry), and the retrying one with the ledger's
 * keys declared drawn in any order ({@code generatedKeysInAnyOrder()}). Prints, per scenario, the verdict, the executions and
 * the time, and where the executions come from: how many distinct things the requests saw and left in the
 * database, with the ledger's ids and then also the roles of the identical spends set aside. BENCHMARKS.md has the
 * command and the figures.
 */
public final class GiftCardRace {

    private static final int START = 30;

    private final MockMvc mvc;
    private final RaceExplorer races;
    private final JdbcTemplate jdbc;
    private final JdbcGiftCards plain;

    private GiftCardRace(ConfigurableApplicationContext context) {
        this.mvc = MockMvcBuilders.webAppContextSetup((WebApplicationContext) context)
                .build();
        this.races = context.getBean(RaceExplorer.class);
        this.jdbc = context.getBean(JdbcTemplate.class);
        this.plain = context.getBean(JdbcGiftCards.class);
    }

    /** {@code args}: the budget of executions (default: the exploration's), then the scenarios to run (default: all). */
    public static void main(String[] args) {
        Integer budget = args.length > 0 && !args[0].equals("default") ? Integer.valueOf(args[0]) : null;
        Set<String> only = Set.of(args.length > 1 ? args[1].split(",") : new String[0]);
        TestDatabase db = TestPostgres.freshDatabase(GiftCardRace.class);
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(RaceApp.class)
                .properties(
                        "spring.datasource.url=" + db.jdbcUrl(),
                        "spring.datasource.username=" + db.user(),
                        "spring.datasource.password=" + db.password(),
                        "frontrun.enabled=true",
                        "spring.main.banner-mode=off",
                        "logging.level.root=WARN")
                .run()) {
            GiftCardRace race = new GiftCardRace(context);
            System.out.println("| scenario | verdict | executions | s | ms/run | seen | seen, ledger ids aside"
                    + " | seen, also up to symmetry | executions with a retry |");
            System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|");
            for (String scenario : List.of(
                    "two-retry",
                    "three-expect",
                    "three-expect-symmetric",
                    "three-jdbc",
                    "three-jdbc-symmetric",
                    "three-retry",
                    "three-retry-symmetric",
                    "three-retry-any-key-order",
                    "three-retry-symmetric-any-key-order")) {
                if (only.isEmpty() || only.contains(scenario)) {
                    race.run(scenario, budget);
                }
            }
        } finally {
            TestPostgres.drop(db);
        }
        System.exit(0);
    }

    private void run(String scenario, Integer budget) {
        Seen seen = new Seen();
        Exploration<Object> exploration = races.explore().executionTimeout(Duration.ofMinutes(1)); // a loaded machine
        if (budget != null) {
            exploration.maxExecutions(budget);
        }
        switch (scenario) {
            case "two-retry" ->
                exploration.thread("spend-1", request("spend", 10)).thread("top-up", request("top-up", 5));
            case "three-retry" ->
                exploration
                        .thread("spend-1", request("spend", 10))
                        .thread("spend-2", request("spend", 10))
                        .thread("top-up", request("top-up", 5));
            case "three-expect" ->
                exploration
                        .thread("spend-1", request("spend-once", 10))
                        .thread("spend-2", request("spend-once", 10))
                        .thread("top-up", request("top-up-once", 5))
                        .expect(ConcurrencyFailureException.class);
            case "three-jdbc" ->
                exploration
                        .thread("spend-1", () -> Frontrun.response(plain.apply(1, -10)))
                        .thread("spend-2", () -> Frontrun.response(plain.apply(1, -10)))
                        .thread("top-up", () -> Frontrun.response(plain.apply(1, 5)));
            case "three-retry-symmetric" ->
                exploration.threads(2, "spend", request("spend", 10)).thread("top-up", request("top-up", 5));
            case "three-expect-symmetric" ->
                exploration
                        .threads(2, "spend", request("spend-once", 10))
                        .thread("top-up", request("top-up-once", 5))
                        .expect(ConcurrencyFailureException.class);
            case "three-retry-any-key-order" ->
                exploration
                        .thread("spend-1", request("spend", 10))
                        .thread("spend-2", request("spend", 10))
                        .thread("top-up", request("top-up", 5))
                        .generatedKeysInAnyOrder();
            case "three-retry-symmetric-any-key-order" ->
                exploration
                        .threads(2, "spend", request("spend", 10))
                        .thread("top-up", request("top-up", 5))
                        .generatedKeysInAnyOrder();
            case "three-jdbc-symmetric" ->
                exploration
                        .threads(2, "spend", () -> Frontrun.response(plain.apply(1, -10)))
                        .thread("top-up", () -> Frontrun.response(plain.apply(1, 5)));
            default -> throw new IllegalArgumentException(scenario);
        }
        Result result = exploration
                .invariant(
                        (s, outcomes) -> seen.add(outcomes, ledger(), balance()), "the ledger adds up to the balance")
                .run();
        System.out.printf(
                Locale.ROOT,
                "| %s | %s | %d | %.1f | %.1f | %d | %d | %d | %d |%n",
                scenario,
                result.verdict(),
                result.executions(),
                result.elapsed().toMillis() / 1000.0,
                result.timings().msPerRun(),
                seen.exact.size(),
                seen.idsAside.size(),
                seen.symmetric.size(),
                seen.retried);
        result.inconclusiveBecause().ifPresent(why -> System.out.println("  inconclusive: " + why));
    }

    private ThrowingRunnable request(String action, int amount) {
        return Requests.perform(mvc, post("/gift-cards/1/" + action).param("amount", Integer.toString(amount)));
    }

    private List<long[]> ledger() {
        return jdbc.query("SELECT id, amount FROM ledger_entries ORDER BY id", (rs, i) ->
                new long[] {rs.getLong(1), rs.getLong(2)});
    }

    private int balance() {
        return jdbc.queryForObject("SELECT balance FROM gift_cards WHERE id = 1", Integer.class);
    }

    /** The distinct things the executions' requests saw and left, told apart three ways. */
    private static final class Seen {
        final Set<String> exact = new HashSet<>();
        final Set<String> idsAside = new HashSet<>();
        final Set<String> symmetric = new HashSet<>();
        int retried;

        boolean add(Outcomes outcomes, List<long[]> ledger, int balance) {
            List<String> answers = new ArrayList<>();
            for (Outcomes.ThreadOutcome outcome : outcomes.all()) {
                answers.add(answer(outcome));
            }
            if (answers.stream().anyMatch(a -> a.contains("retry"))) {
                retried++;
            }
            List<String> entries = new ArrayList<>();
            List<Long> amounts = new ArrayList<>();
            long sum = 0;
            for (long[] entry : ledger) {
                entries.add(entry[0] + ":" + entry[1]);
                amounts.add(entry[1]);
                sum += entry[1];
            }
            amounts.sort(null);
            exact.add(answers + " " + balance + " " + entries);
            idsAside.add(answers + " " + balance + " " + amounts);
            List<String> spends = new ArrayList<>(answers.subList(0, answers.size() - 1));
            spends.sort(null);
            symmetric.add(spends + answers.get(answers.size() - 1) + " " + balance + " " + amounts);
            return balance == START + sum;
        }

        private static String answer(Outcomes.ThreadOutcome outcome) {
            if (outcome.thrown() != null) {
                return "threw";
            }
            Object response = outcome.response();
            try {
                return response instanceof MvcResult mvc
                        ? mvc.getResponse().getContentAsString()
                        : String.valueOf(response);
            } catch (UnsupportedEncodingException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
