package dev.frontrun.spring.recipes;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.frontrun.AnomalyKind;
import dev.frontrun.Result;
import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.spring.FrontrunTest;
import dev.frontrun.spring.RaceExplorer;
import dev.frontrun.spring.app.RaceApp;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.MockMvc;

/**
 * What each recipe of the starter's README for giving the tests a PostgreSQL must deliver: the
 * context's {@code DataSource} is Frontrun's proxy over the database the recipe brought (no other
 * database started beside it), and a race of two requests is explored, found and undone there.
 * Each subclass brings the database one way and opens a connection to it that bypasses Spring.
 */
@SpringBootTest(classes = RaceApp.class)
@AutoConfigureMockMvc
@FrontrunTest
abstract class DatabaseRecipeContract {

    /** Identifies a database: its name and the port of its server (all servers here are on this machine). */
    private static final String WHERE = "SELECT current_database() || '@' || current_setting('port')";

    @Autowired
    private ApplicationContext context;

    @Autowired
    private DataSource dataSource;

    @Autowired
    private MockMvc mvc;

    @Autowired
    private RaceExplorer races;

    @Autowired
    private JdbcTemplate jdbc;

    /** A connection to the database the recipe brought, opened without Spring. */
    abstract Connection connectToTheBroughtDatabase() throws SQLException;

    @Test
    void theContextsDataSourceIsFrontrunsProxyOverTheBroughtDatabase() throws Exception {
        assertThat(FrontrunDataSource.isWrapped(dataSource))
                .as("the DataSource bean is Frontrun's proxy")
                .isTrue();
        String brought;
        try (Connection direct = connectToTheBroughtDatabase()) {
            brought = single(direct, WHERE);
        }
        assertThat(jdbc.queryForObject(WHERE, String.class))
                .as("the context's database")
                .isEqualTo(brought);
        assertThat(context.getBeanNamesForType(EmbeddedPostgres.class))
                .as("no database started beside it")
                .isEmpty();
        assertThat(context.getBeanNamesForType(DataSource.class)).hasSize(1);
    }

    @Test
    void aRaceOfTwoRequestsIsFoundOnTheBroughtDatabaseAndUndoneThere() throws Exception {
        Result result = races.explore()
                .thread("request-1", () -> mvc.perform(post("/counters/1/increment")))
                .thread("request-2", () -> mvc.perform(post("/counters/1/increment")))
                .invariant(
                        () -> jdbc.queryForObject("SELECT n FROM counters WHERE id = 1", Integer.class) == 2,
                        "both increments counted")
                .run();

        assertThat(result).foundRace().hasAnomaly(AnomalyKind.LOST_UPDATE);
        assertThat(result.explanation()).contains("update counters set n=1", "[Counter]");
        try (Connection direct = connectToTheBroughtDatabase()) {
            assertThat(single(direct, "SELECT n FROM counters WHERE id = 1"))
                    .as("restored after exploring")
                    .isEqualTo("0");
        }
    }

    private static String single(Connection connection, String sql) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
