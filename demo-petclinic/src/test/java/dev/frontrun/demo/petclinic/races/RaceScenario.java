package dev.frontrun.demo.petclinic.races;

import dev.frontrun.AnomalyKind;
import dev.frontrun.demo.petclinic.PetClinicClient;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.ResultActions;

/**
 * Two PetClinic request flows raced against each other, and what must hold once both are done.
 * The same scenarios drive the race tests and the README's race demo.
 *
 * @param name      short name, e.g. "duplicate pets"
 * @param story     one sentence on what the user does
 * @param requests  the racing requests, one per thread
 * @param invariant what must be true afterwards, given the database and the requests' statuses
 * @param promise   the invariant in words
 * @param classic   the anomaly the classic (sample-structured) app's SQL shows, or null for a control
 *                  (and for a race outside the SQL, which no SQL shows)
 * @param outsideSql whether the scenario's race is outside the SQL: through a socket to another service,
 *                  which only Frontrun's native layer sees, or on a Redis key (then it is no control even
 *                  without an anomaly)
 * @param reset     puts state outside the database back before each execution (the database is restored by Frontrun)
 */
public record RaceScenario(
        String name,
        String story,
        List<NamedRequest> requests,
        Invariant invariant,
        String promise,
        AnomalyKind classic,
        boolean outsideSql,
        Reset reset) {

    /** A scenario whose state is all in the database. */
    public RaceScenario(
            String name,
            String story,
            List<NamedRequest> requests,
            Invariant invariant,
            String promise,
            AnomalyKind classic) {
        this(name, story, requests, invariant, promise, classic, false, fixture -> {});
    }

    /** Puts a fixture's state outside the database back (a service's). */
    @FunctionalInterface
    public interface Reset {
        void reset(Fixture fixture);
    }

    /** A request of one racing thread, against the scenario's fixture. */
    public record NamedRequest(String thread, Request request) {}

    /** Performs one request. */
    @FunctionalInterface
    public interface Request {
        ResultActions perform(PetClinicClient clinic, Fixture fixture) throws Exception;
    }

    /** The scenario's invariant over the database as it is and the HTTP statuses the requests got. */
    @FunctionalInterface
    public interface Invariant {
        boolean holds(JdbcTemplate db, Fixture fixture, int[] statuses);
    }

    /** The owner and pet a scenario races on, created before exploring. */
    public record Fixture(int owner, int pet) {}

    public boolean isControl() {
        return classic == null && !outsideSql;
    }

    @Override
    public String toString() {
        return name;
    }
}
