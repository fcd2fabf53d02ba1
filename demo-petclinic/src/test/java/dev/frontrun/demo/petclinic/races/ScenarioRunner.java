package dev.frontrun.demo.petclinic.races;

import dev.frontrun.Exploration;
import dev.frontrun.Outcomes;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.Strategy;
import dev.frontrun.demo.petclinic.PetClinicClient;
import dev.frontrun.demo.petclinic.races.RaceScenario.Fixture;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import dev.frontrun.spring.RaceExplorer;
import dev.frontrun.spring.Requests;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.ResultActions;

/** Runs a {@link RaceScenario} with Frontrun: one thread per request, the scenario's invariant at the end. */
public final class ScenarioRunner {

    private final RaceExplorer races;
    private final PetClinicClient clinic;
    private final JdbcTemplate db;

    public ScenarioRunner(RaceExplorer races, PetClinicClient clinic, JdbcTemplate db) {
        this.races = races;
        this.clinic = clinic;
        this.db = db;
    }

    /** A fresh owner with one pet, Leo, for the scenario to race on. */
    public Fixture fixture() {
        int owner = clinic.newOwner();
        return new Fixture(owner, clinic.newPet(owner, "Leo"));
    }

    public Result explore(RaceScenario scenario, Fixture fixture) {
        return exploration(scenario, fixture).run();
    }

    /** The scenario's requests run once each, one after the other, without Frontrun: what they cost plain. */
    public Exploration.Baseline baseline(RaceScenario scenario, Fixture fixture, int rounds) {
        return exploration(scenario, fixture).baseline(rounds);
    }

    /** Two baselines' rounds together: one measured before an exploration, one after, so neither pays all the warm-up. */
    public static Exploration.Baseline both(Exploration.Baseline before, Exploration.Baseline after) {
        return new Exploration.Baseline(
                before.rounds() + after.rounds(),
                before.total().plus(after.total()),
                before.restore().plus(after.restore()));
    }

    /**
     * The scenario's requests one after the other on one explored thread, {@code runs} times: every statement goes
     * through Frontrun (proxy, analysis, steps, write tracking, restore) but nothing interleaves, which tells
     * Frontrun's own cost per run apart from what interleaving the requests costs.
     */
    public Result serially(RaceScenario scenario, Fixture fixture, int runs) {
        Exploration<Object> exploration = restoringFixture(scenario, fixture);
        exploration.thread("requests", Requests.answered(() -> {
            ResultActions answer = null;
            for (RaceScenario.NamedRequest request : scenario.requests()) {
                answer = request.request().perform(clinic, fixture);
            }
            return answer;
        }));
        // one thread: every run takes the same schedule, as many runs as asked
        return exploration
                .strategy(Strategy.random(1, runs))
                .invariant((state, outcomes) -> true, "nothing")
                .run();
    }

    /**
     * The scenario with no invariant: the starter then checks that every outcome is one a serial order of the
     * requests gives (the rows they wrote, and each request's status). A request answered 409 (a stale record, a
     * slot taken) is sent again, as the user who reloads the form and submits it again would, at most three times.
     */
    public Result exploreAgainstSerialOrders(RaceScenario scenario, Fixture fixture) {
        return againstSerialOrders(scenario, fixture, Requests.retryingOn(409)).run();
    }

    /** Like {@link #exploreAgainstSerialOrders}, with each request sent once: a 409 is an answer as any other. */
    public Result exploreAgainstSerialOrdersOnce(RaceScenario scenario, Fixture fixture) {
        return againstSerialOrders(scenario, fixture, Requests.retryingOn()).run();
    }

    private Exploration<Object> againstSerialOrders(RaceScenario scenario, Fixture fixture, Requests.Retrying sent) {
        Exploration<Object> exploration = restoringFixture(scenario, fixture);
        for (RaceScenario.NamedRequest request : scenario.requests()) {
            exploration.thread(
                    request.thread(), sent.answered(() -> request.request().perform(clinic, fixture)));
        }
        return exploration;
    }

    public Result replay(RaceScenario scenario, Fixture fixture, Schedule schedule, int times) {
        return exploration(scenario, fixture).reproduceOnFailure(times).replay(schedule);
    }

    /**
     * One thread per request, each answered with the HTTP status it got (an exception that escaped the
     * application, e.g. PostgreSQL's serialization failure under SERIALIZABLE, which the sample does
     * not handle, answers 500 as the servlet container would): a conflict (409) or a server error is
     * the user being told, not a failure; the scenario's invariant reads the statuses from the outcomes.
     */
    private Exploration<Object> exploration(RaceScenario scenario, Fixture fixture) {
        Exploration<Object> exploration = restoringFixture(scenario, fixture);
        for (RaceScenario.NamedRequest request : scenario.requests()) {
            exploration.thread(
                    request.thread(), Requests.answered(() -> request.request().perform(clinic, fixture)));
        }
        return exploration.invariant(
                (state, outcomes) -> scenario.invariant().holds(db, fixture, statuses(outcomes)), scenario.promise());
    }

    /** An exploration whose executions each start with the scenario's fixture reset; 409 and 500 are answers. */
    private Exploration<Object> restoringFixture(RaceScenario scenario, Fixture fixture) {
        return races.explore().expectStatus(409, 500).hook(new ExplorationHook() {
            @Override
            public void beforeExecution(ExecutionContext execution) {
                scenario.reset().reset(fixture);
            }
        });
    }

    private static int[] statuses(Outcomes outcomes) {
        return outcomes.all().stream()
                .mapToInt(o -> o.status() == null ? 200 : o.status())
                .toArray();
    }
}
