package dev.frontrun.nativeio.proxycheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Platform;
import dev.frontrun.Exploration;
import dev.frontrun.Frontrun;
import dev.frontrun.nativeio.NativeIo;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * With the library preloaded, the native layer's hooks ask the database for its port before the first execution; on
 * another database than PostgreSQL the user must read Frontrun's refusal, not that database's error about the query.
 */
@Tag("preloaded")
class OtherDatabasePreloadedTest {

    @BeforeAll
    static void preloaded() {
        assumeTrue(Platform.isLinux(), "LD_PRELOAD interception is Linux-only");
        NativeIo.requireActive();
    }

    @Test
    void anH2DataSourceIsRefusedBeforeTheNativeLayerQueriesIt() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:native-refused;DB_CLOSE_DELAY=-1");
        boolean[] ran = new boolean[1];
        Exploration<Object> exploration = Frontrun.explore(Object::new);
        // the order the Spring starter adds them in: the native layer's hooks before the database's
        NativeMode.AUTO.hooksFor(h2).forEach(exploration::hook);

        assertThatThrownBy(() -> exploration
                        .database(h2)
                        .thread("a", s -> ran[0] = true)
                        .reportDirectory(null)
                        .run())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Frontrun needs PostgreSQL, but this DataSource connects to H2")
                .hasMessageNotContaining("INET_SERVER_PORT");
        assertThat(ran[0]).as("no thread ran").isFalse();
    }
}
