package dev.frontrun.spring.it;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Exploration;
import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import dev.frontrun.spring.app.BookingDesk;
import dev.frontrun.spring.app.BookingService;
import dev.frontrun.spring.app.PriceService;
import dev.frontrun.spring.app.ProductCatalog;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.cache.CacheManager;

/**
 * Races that live in Java as much as in the database, explored with the application's classes
 * instrumented (the starter's default: the package of the {@code @SpringBootApplication} class):
 * a {@code synchronized} "fix" explored both ways, a hand-made cache, Spring's {@code @Cacheable}.
 */
class JavaLevelRacesTest extends RaceAppTestSupport {

    @Autowired
    BookingService bookings;

    @Autowired
    BookingDesk desk;

    @Autowired
    PriceService prices;

    @Autowired
    ProductCatalog catalog;

    @Autowired
    CacheManager caches;

    private static ExplorationHook beforeEachExecution(Runnable reset) {
        return new ExplorationHook() {
            @Override
            public void beforeExecution(ExecutionContext execution) {
                reset.run();
            }
        };
    }

    private int bookingsOf(long show) {
        return jdbc.queryForObject("SELECT count(*) FROM bookings WHERE show_id = ?", Integer.class, show);
    }

    private int priceInDatabase(long product) {
        return jdbc.queryForObject("SELECT price FROM products WHERE id = ?", Integer.class, product);
    }

    private String nameInDatabase(long product) {
        return jdbc.queryForObject("SELECT name FROM products WHERE id = ?", String.class, product);
    }

    /** A synchronized @Transactional method: the next caller counts before the first one commits. */
    @Test
    void aSynchronizedTransactionalMethodStillOverbooksInBothDeclarationOrders() {
        for (List<String> declared : List.of(List.of("alice", "bob"), List.of("bob", "alice"))) {
            Exploration<Object> exploration = races.explore();
            for (String who : declared) {
                exploration.thread(who, () -> bookings.bookSynchronized(7, who));
            }
            Result result = exploration
                    .invariant(() -> bookingsOf(7) <= 1, "at most one booking of the one seat")
                    .run();

            assertThat(result).as("declared %s", declared).foundRace();
            assertThat(bookingsOf(7)).as("restored").isZero();
        }
    }

    /**
     * The monitor held around the whole transaction: every order of the two callers is explored (who books
     * first is varied, so an invariant that depended on it would fail) and none overbooks.
     */
    @Test
    void aSynchronizedMethodAroundTheTransactionHoldsInEveryOrder() {
        for (List<String> declared : List.of(List.of("alice", "bob"), List.of("bob", "alice"))) {
            Exploration<Object> exploration = races.explore();
            for (String who : declared) {
                exploration.thread(who, () -> desk.book(8, who));
            }
            Result result = exploration
                    .invariant(() -> bookingsOf(8) == 1, "exactly one booking of the one seat")
                    .run();

            assertThat(result).as("declared %s", declared).hasNoRace().isExhausted();
            assertThat(result.executions())
                    .as("declared %s: who takes the desk first", declared)
                    .isEqualTo(2);
        }
    }

    /** Who books first is explored: an invariant that assumes the first-declared caller wins fails. */
    @Test
    void whoTakesTheMonitorFirstIsVaried() {
        Result result = races.explore()
                .thread("alice", () -> desk.book(9, "alice"))
                .thread("bob", () -> desk.book(9, "bob"))
                .invariant(
                        () -> "alice"
                                .equals(jdbc.queryForObject(
                                        "SELECT who FROM bookings WHERE show_id = 9", String.class)),
                        "alice, declared first, wins")
                .run();

        assertThat(result.verdict()).isEqualTo(Verdict.FAILS);
    }

    /** A read-through cache in front of the database and a write: the reader caches the old price. */
    @Test
    void aHandMadeCacheLeftStaleByAConcurrentWrite() {
        Result result = races.explore()
                .hook(beforeEachExecution(prices::forgetAll)) // the cache is state too: every execution starts empty
                .thread("reader", () -> prices.price(1))
                .thread("writer", () -> prices.setPrice(1, 200))
                .invariant(
                        () -> {
                            Integer cached = prices.cached(1);
                            return cached == null || cached == priceInDatabase(1);
                        },
                        "the cached price is the database's")
                .run();

        assertThat(result).foundRace();
        assertThat(result.trace())
                .anyMatch(step -> step.step().label().startsWith("put map:ConcurrentHashMap[Long 1]"));
    }

    /**
     * Spring's {@code @Cacheable}: its store is Spring's {@code ConcurrentMapCache}, a framework class,
     * so the test names that package too (and application.properties, so that it is instrumented before
     * the context loads it). The reader caches the old name after the rename evicted it.
     */
    @Test
    void aCacheableMethodWhoseCacheAndDatabaseDisagreeAfterTwoRequests() {
        Result result = races.explore()
                .instrument("org.springframework.cache.concurrent")
                .hook(beforeEachExecution(() -> caches.getCache("product-names").clear()))
                .thread("reader", () -> catalog.name(1))
                .thread("renamer", () -> catalog.rename(1, "teapot"))
                .invariant(
                        () -> {
                            var cached = caches.getCache("product-names").get(1L);
                            return cached == null || nameInDatabase(1).equals(cached.get());
                        },
                        "the cached name is the database's")
                .run();

        assertThat(result).foundRace();
        assertThat(result.trace())
                .as("the cache's store is explored per key")
                .anyMatch(step -> step.step().label().startsWith("put map:ConcurrentHashMap[Long 1]"));
        assertThat(nameInDatabase(1)).as("restored").isEqualTo("kettle");
    }
}
