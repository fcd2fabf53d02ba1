package dev.frontrun.demo.petclinic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.frontrun.demo.petclinic.owner.OwnerRepository;
import dev.frontrun.demo.petclinic.pet.Pet;
import dev.frontrun.demo.petclinic.pet.PetTypeRepository;
import dev.frontrun.spring.FrontrunTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.LocalDate;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Base of the MockMvc tests on a real PostgreSQL. The variant (and so the Spring context and the
 * database) comes from the subclass: {@link ClassicVariant} or {@link FixedVariant}. Extend one of
 * those, not this, so that all test classes of a variant share one cached context.
 */
@SpringBootTest(properties = {"spring.main.banner-mode=off", "logging.level.root=WARN"})
@AutoConfigureMockMvc
@FrontrunTest
public abstract class PetClinicTestSupport {

    /** A bound for anything a test waits for; nothing here should come near it. */
    protected static final Duration PATIENCE = Duration.ofSeconds(20);

    @Autowired
    protected MockMvc mvc;

    @Autowired
    protected OwnerRepository owners;

    @Autowired
    protected PetTypeRepository types;

    @Autowired
    protected JdbcTemplate jdbc;

    @Autowired
    protected DataSource dataSource;

    @Autowired
    protected PlatformTransactionManager transactionManager;

    public PetClinicClient clinic() {
        return new PetClinicClient(mvc);
    }

    /** A new, unsaved pet of type cat, as the add-pet form would bind it. */
    protected Pet newPet(String name) {
        Pet pet = new Pet();
        pet.setName(name);
        pet.setBirthDate(LocalDate.of(2020, 1, 1));
        pet.setType(types.findById(1).orElseThrow());
        return pet;
    }

    /** Runs {@code work} in one read-write transaction, as a fixed-variant flow does. */
    protected <T> T inOneTransaction(Supplier<T> work) {
        return new TransactionTemplate(transactionManager).execute(status -> work.get());
    }

    /**
     * Performs a whole request on another thread and waits for it: the way to let a request run
     * to completion inside a transaction the test thread holds open (the request must not join it).
     * Returns the response status.
     */
    protected int meanwhile(PetClinicClient.Request request) {
        return CompletableFuture.supplyAsync(request::perform)
                .orTimeout(PATIENCE.toSeconds(), TimeUnit.SECONDS)
                .join()
                .andReturn()
                .getResponse()
                .getStatus();
    }

    /**
     * Runs the add-pet request while another transaction has inserted a pet of that name for that
     * owner and not committed it yet — so the request's Java check cannot see it, as when two
     * requests race. Commits the other transaction once the request has either finished (classic)
     * or is blocked on it (fixed: on the unique index), and returns the request's answer.
     */
    protected ResultActions addPetRacingAnUncommittedTwin(int ownerId, String name) throws Exception {
        try (Connection other = dataSource.getConnection()) {
            other.setAutoCommit(false);
            try (PreparedStatement insert = other.prepareStatement(
                    "INSERT INTO pets (name, birth_date, type_id, owner_id) VALUES (?, DATE '2020-01-01', 1, ?)")) {
                insert.setString(1, name);
                insert.setInt(2, ownerId);
                insert.executeUpdate();
            }
            CompletableFuture<ResultActions> request =
                    CompletableFuture.supplyAsync(() -> clinic().addPet(ownerId, name));
            await().atMost(PATIENCE).until(() -> request.isDone() || backendsWaitingForALock() > 0);
            other.commit();
            return request.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        }
    }

    private int backendsWaitingForALock() {
        return jdbc.queryForObject(
                "SELECT count(*) FROM pg_stat_activity"
                        + " WHERE datname = current_database() AND wait_event_type = 'Lock'",
                Integer.class);
    }

    // ---- the database as it really is, read with plain SQL

    protected int petsNamed(int ownerId, String name) {
        return jdbc.queryForObject(
                "SELECT count(*) FROM pets WHERE owner_id = ? AND lower(name) = lower(?)",
                Integer.class,
                ownerId,
                name);
    }

    protected int petCount(int ownerId) {
        return jdbc.queryForObject("SELECT count(*) FROM pets WHERE owner_id = ?", Integer.class, ownerId);
    }

    protected int visitCount(int petId) {
        return jdbc.queryForObject("SELECT count(*) FROM visits WHERE pet_id = ?", Integer.class, petId);
    }

    protected String petName(int petId) {
        return jdbc.queryForObject("SELECT name FROM pets WHERE id = ?", String.class, petId);
    }

    protected String ownerColumn(int ownerId, String column) {
        assertThat(column).matches("[a-z_]+");
        return jdbc.queryForObject("SELECT " + column + " FROM owners WHERE id = ?", String.class, ownerId);
    }
}
