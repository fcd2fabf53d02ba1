package dev.frontrun.demo.petclinic.races;

import dev.frontrun.AnomalyKind;
import dev.frontrun.demo.petclinic.TestRedis;
import dev.frontrun.demo.petclinic.races.RaceScenario.Fixture;
import dev.frontrun.demo.petclinic.races.RaceScenario.NamedRequest;
import dev.frontrun.demo.reservations.ReservationService;
import dev.frontrun.demo.reservations.TestReservations;
import java.time.LocalDate;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/** The PetClinic's races and controls, as pairs of real HTTP request flows. */
public final class PetClinicRaces {

    private PetClinicRaces() {}

    /** The user was told the request did not go through: a conflict (409) or a server error (5xx). */
    private static boolean told(int status) {
        return status == 409 || status >= 500;
    }

    public static List<RaceScenario> all() {
        return List.of(
                duplicatePets(),
                partialEdits(),
                ownerEditRevertsPetRename(),
                visitRevertsPetRename(),
                twoVisits(),
                ownerEditWhileAddingAnotherPet());
    }

    /** Race 1: the "no two pets of one name" rule lives only in Java; both checks pass, both insert. */
    static RaceScenario duplicatePets() {
        return new RaceScenario(
                "duplicate pets",
                "two 'add pet' requests for the same owner, named Max and max",
                List.of(
                        new NamedRequest("add-Max", (c, f) -> c.addPet(f.owner(), "Max")),
                        new NamedRequest("add-max", (c, f) -> c.addPet(f.owner(), "max"))),
                (db, f, statuses) -> petsNamed(db, f, "max") <= 1,
                "at most one pet named max (case-insensitive) per owner",
                AnomalyKind.WRITE_SKEW);
    }

    /** Race 2: each edit writes back the whole owner it loaded; one field change is lost. */
    static RaceScenario partialEdits() {
        return new RaceScenario(
                "lost owner edit",
                "one request changes the owner's city, the other its telephone",
                List.of(
                        new NamedRequest("edit-city", (c, f) -> c.editOwner(f.owner(), "city", "Verona")),
                        new NamedRequest("edit-phone", (c, f) -> c.editOwner(f.owner(), "telephone", "1112223333"))),
                (db, f, statuses) -> (owner(db, f, "city").equals("Verona") || told(statuses[0]))
                        && (owner(db, f, "telephone").equals("1112223333") || told(statuses[1])),
                "both changes are stored, or the loser is told (409 or 5xx)",
                AnomalyKind.LOST_UPDATE);
    }

    /** Race 3: an owner edit saves the whole stale aggregate and reverts a pet rename that committed meanwhile. */
    static RaceScenario ownerEditRevertsPetRename() {
        return new RaceScenario(
                "owner edit reverts pet rename",
                "one request edits the owner's city, the other renames the owner's pet",
                List.of(
                        new NamedRequest("edit-city", (c, f) -> c.editOwner(f.owner(), "city", "Verona")),
                        new NamedRequest("rename-pet", (c, f) -> c.editPet(f.owner(), f.pet(), "name", "Leonardo"))),
                (db, f, statuses) -> (owner(db, f, "city").equals("Verona") || told(statuses[0]))
                        && (petName(db, f).equals("Leonardo") || told(statuses[1])),
                "the city and the pet's new name are both stored, or the loser is told (409 or 5xx)",
                AnomalyKind.LOST_UPDATE);
    }

    /** Race 3, other flow: adding a visit saves the stale pet back over a rename. */
    static RaceScenario visitRevertsPetRename() {
        return new RaceScenario(
                "visit reverts pet rename",
                "one request adds a visit to the pet, the other renames it",
                List.of(
                        new NamedRequest("add-visit", (c, f) -> c.addVisit(f.owner(), f.pet(), "checkup")),
                        new NamedRequest("rename-pet", (c, f) -> c.editPet(f.owner(), f.pet(), "name", "Leonardo"))),
                (db, f, statuses) -> visits(db, f) == (told(statuses[0]) ? 0 : 1)
                        && (petName(db, f).equals("Leonardo") || told(statuses[1])),
                "the visit is stored and the pet keeps its new name, or the loser is told (409 or 5xx)",
                AnomalyKind.LOST_UPDATE);
    }

    /** Control: two visits to one pet are both stored. */
    static RaceScenario twoVisits() {
        return new RaceScenario(
                "two visits (control)",
                "two 'add visit' requests for the same pet",
                List.of(
                        new NamedRequest("visit-a", (c, f) -> c.addVisit(f.owner(), f.pet(), "a")),
                        new NamedRequest("visit-b", (c, f) -> c.addVisit(f.owner(), f.pet(), "b"))),
                (db, f, statuses) -> visits(db, f) == 2,
                "both visits are stored",
                null);
    }

    /**
     * Owner edit while another request adds a differently named pet. The issue that asked for
     * this demo listed it as a control; in the sample's structure it is not one: the add-pet flow
     * saves the whole owner it loaded, so it can revert the city edit. The classic app races here.
     */
    static RaceScenario ownerEditWhileAddingAnotherPet() {
        return new RaceScenario(
                "owner edit while adding a pet",
                "one request edits the owner's city, the other adds a pet named Rex",
                List.of(
                        new NamedRequest("edit-city", (c, f) -> c.editOwner(f.owner(), "city", "Verona")),
                        new NamedRequest("add-Rex", (c, f) -> c.addPet(f.owner(), "Rex"))),
                (db, f, statuses) -> (petsNamed(db, f, "rex") == 1 && petCount(db, f) == 2 || told(statuses[1]))
                        && (owner(db, f, "city").equals("Verona") || told(statuses[0])),
                "Rex is added and the city change is kept, or the loser is told (409 or 5xx)",
                AnomalyKind.LOST_UPDATE);
    }

    /**
     * Race beneath JDBC: booking a visit takes the day's last slot at the reservation service with two
     * HTTP calls (read the count, write it back). Both bookings see the slot free; both visits are
     * stored, the service counts one. The JDBC proxy sees nothing of it: only the native layer's
     * requests to {@code socket:127.0.0.1:<port>} order the two bookings' calls.
     */
    public static RaceScenario slotBooking() {
        ReservationService service = TestReservations.service();
        return new RaceScenario(
                "booking the last slot",
                "two 'book visit' requests for the same day, which has one slot left at the reservation service",
                List.of(
                        new NamedRequest("book-a", (c, f) -> c.bookVisit(f.owner(), f.pet(), day(f), "a")),
                        new NamedRequest("book-b", (c, f) -> c.bookVisit(f.owner(), f.pet(), day(f), "b"))),
                (db, f, statuses) ->
                        visits(db, f) <= ReservationService.CAPACITY && service.booked(day(f)) == visits(db, f),
                "no more visits than the day has slots, and the service counts every visit booked",
                null,
                true,
                f -> service.free(day(f)));
    }

    /**
     * Race in Redis: an owner may book {@link TestRedis#DAILY_LIMIT} visit a day online, counted by a key in Redis.
     * The classic app reads the counter ({@code GET}), books, then increments it ({@code INCR}): two bookings both
     * read the last place free and both are stored. No SQL shows it; the two threads' commands on
     * {@code redis:<db>:visits:online:owner:<id>:<day>} do. The invariant reads the counters through the
     * application's own {@code redis}.
     */
    public static RaceScenario onlineDailyLimit(StringRedisTemplate redis) {
        return new RaceScenario(
                "online daily limit",
                "two online bookings by one owner, who may book one more visit today",
                List.of(
                        new NamedRequest("online-a", (c, f) -> c.bookVisitOnline(f.owner(), f.pet(), "a")),
                        new NamedRequest("online-b", (c, f) -> c.bookVisitOnline(f.owner(), f.pet(), "b"))),
                (db, f, statuses) -> visits(db, f) <= TestRedis.DAILY_LIMIT && counted(redis, f) == visits(db, f),
                "no more visits booked online a day than the limit, and the counter counts every one",
                null,
                true,
                f -> {});
    }

    /** The owner's online bookings as the counters in Redis say (those of every day, should one have ended). */
    static int counted(StringRedisTemplate redis, Fixture f) {
        int counted = 0;
        for (String key : redis.keys("visits:online:owner:" + f.owner() + ":*")) {
            String count = redis.opsForValue().get(key);
            counted += count == null ? 0 : Integer.parseInt(count);
        }
        return counted;
    }

    /** A day of the fixture's own at the reservation service. */
    static LocalDate day(Fixture f) {
        return LocalDate.of(2031, 1, 1).plusDays(f.pet());
    }

    private static int petsNamed(JdbcTemplate db, Fixture f, String name) {
        return db.queryForObject(
                "SELECT count(*) FROM pets WHERE owner_id = ? AND lower(name) = lower(?)",
                Integer.class,
                f.owner(),
                name);
    }

    private static int petCount(JdbcTemplate db, Fixture f) {
        return db.queryForObject("SELECT count(*) FROM pets WHERE owner_id = ?", Integer.class, f.owner());
    }

    private static String owner(JdbcTemplate db, Fixture f, String column) {
        return db.queryForObject("SELECT " + column + " FROM owners WHERE id = ?", String.class, f.owner());
    }

    private static String petName(JdbcTemplate db, Fixture f) {
        return db.queryForObject("SELECT name FROM pets WHERE id = ?", String.class, f.pet());
    }

    private static int visits(JdbcTemplate db, Fixture f) {
        return db.queryForObject("SELECT count(*) FROM visits WHERE pet_id = ?", Integer.class, f.pet());
    }
}
