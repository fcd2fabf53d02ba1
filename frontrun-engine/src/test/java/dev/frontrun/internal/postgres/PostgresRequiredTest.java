package dev.frontrun.internal.postgres;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.frontrun.Frontrun;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** Another database than PostgreSQL is refused with a message that says what was found and what to do. */
class PostgresRequiredTest {

    @Test
    void anH2DataSourceIsRefusedBeforeAnythingRuns() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:refused;DB_CLOSE_DELAY=-1");
        boolean[] ran = new boolean[1];

        assertThatThrownBy(() -> Frontrun.explore(Object::new)
                        .database(h2)
                        .thread("a", s -> ran[0] = true)
                        .reportDirectory(null)
                        .run())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Frontrun needs PostgreSQL")
                .hasMessageContaining("H2")
                .hasMessageContaining("@ServiceConnection")
                .hasMessageNotContaining("REGCLASS");
        org.assertj.core.api.Assertions.assertThat(ran[0]).as("no thread ran").isFalse();
    }
}
