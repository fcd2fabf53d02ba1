package dev.frontrun.demo.petclinic.races;

import dev.frontrun.Exploration;
import dev.frontrun.Result;
import dev.frontrun.Schedule;
import dev.frontrun.demo.petclinic.PetClinicClient;
import dev.frontrun.demo.petclinic.races.RaceScenario.Fixture;
import dev.frontrun.spring.RaceExplorer;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

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

    public Result replay(RaceScenario scenario, Fixture fixture, Schedule schedule, int times) {
        return exploration(scenario, fixture).reproduceOnFailure(times).replay(schedule);
    }

    /**
     * The HTTP status the request got; an exception that escaped the application (e.g. PostgreSQL's
     * serialization failure under SERIALIZABLE, which the sample does not handle) answers 500, as
     * the servlet container would: the user is told, nothing is lost silently.
     */
    private int status(RaceScenario.NamedRequest request, Fixture fixture) {
        try {
            return request.request().perform(clinic, fixture).andReturn().getResponse().getStatus();
        } catch (Exception escaped) {
            return 500;
        }
    }

    private Exploration<Object> exploration(RaceScenario scenario, Fixture fixture) {
        List<RaceScenario.NamedRequest> requests = scenario.requests();
        int[] statuses = new int[requests.size()];
        Exploration<Object> exploration = races.explore();
        for (int i = 0; i < requests.size(); i++) {
            int index = i;
            RaceScenario.NamedRequest request = requests.get(i);
            exploration.thread(request.thread(), () -> statuses[index] = status(request, fixture));
        }
        return exploration.invariant(() -> scenario.invariant().holds(db, fixture, statuses), scenario.promise());
    }
}
