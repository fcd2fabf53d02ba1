package dev.frontrun.demo.petclinic.races;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.frontrun.Result;
import dev.frontrun.Verdict;
import dev.frontrun.demo.petclinic.ClassicVariant;
import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.nativeio.proxycheck.NativeMode;
import dev.frontrun.spring.RaceExplorer;
import dev.frontrun.spring.Requests;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

/**
 * A request flow that also talks to the database over a connection of its own (a {@code DriverManager}
 * connection, as legacy reporting code does) goes around Frontrun's JDBC proxy: its SQL is never
 * explored. With the native layer preloaded ({@code frontrun.native=required} in this module's
 * Linux build) the exploration ends with an error naming the thread and the SQL instead of a verdict.
 */
class BypassedConnectionTest extends ClassicVariant {

    private static final String BYPASS_SQL = "SELECT count(*) FROM visits WHERE pet_id = ?";

    @Autowired
    RaceExplorer races;

    @Value("${spring.datasource.url}")
    String url;

    @Value("${spring.datasource.username}")
    String user;

    @Value("${spring.datasource.password}")
    String password;

    @BeforeAll
    static void nativeLayer() {
        if (NativeMode.fromSystemProperty() == NativeMode.REQUIRED) {
            NativeIo.requireActive(); // the build said it is preloaded: anything else is a broken build
        }
        assumeTrue(
                NativeIo.interceptionActive(),
                () -> "needs the native layer: " + NativeIo.inactiveReason().orElse(""));
    }

    @Test
    void aRequestFlowThatReadsThroughADriverManagerConnectionIsCaught() {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Leo");
        assertThatThrownBy(() -> races.explore()
                        .thread("visit", Requests.answered(() -> clinic().addVisit(owner, pet, "checkup")))
                        .thread("visit-and-count", () -> {
                            Requests.answered(() -> clinic().addVisit(owner, pet, "vaccination"))
                                    .run();
                            visitsCountedAroundTheProxy(pet);
                        })
                        .run())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("database traffic outside Frontrun's proxy from thread 'visit-and-count': "
                        + "SELECT count(*) FROM visits WHERE pet_id = $1\n");
    }

    @Test
    void theSameFlowsThroughTheProxyOnlyPassTheCheck() {
        int owner = clinic().newOwner();
        int pet = clinic().newPet(owner, "Leo");
        Result result = races.explore()
                .thread("visit", Requests.answered(() -> clinic().addVisit(owner, pet, "checkup")))
                .thread("visit-2", Requests.answered(() -> clinic().addVisit(owner, pet, "vaccination")))
                .invariant(() ->
                        jdbc.queryForObject("SELECT count(*) FROM visits WHERE pet_id = ?", Integer.class, pet) == 2)
                .run();
        assertThat(result.verdict()).as(result.explanation()).isEqualTo(Verdict.HOLDS);
    }

    private void visitsCountedAroundTheProxy(int pet) throws Exception {
        try (Connection c = DriverManager.getConnection(url, user, password);
                PreparedStatement count = c.prepareStatement(BYPASS_SQL)) {
            count.setInt(1, pet);
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
            }
        }
    }
}
