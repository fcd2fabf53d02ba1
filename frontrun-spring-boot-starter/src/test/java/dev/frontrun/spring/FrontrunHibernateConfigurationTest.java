package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hibernate.resource.jdbc.spi.StatementInspector;
import org.junit.jupiter.api.Test;

/** Frontrun's statement inspector joins one the application configured instead of replacing it. */
class FrontrunHibernateConfigurationTest {

    private static final String KEY = FrontrunHibernateConfiguration.STATEMENT_INSPECTOR;

    private final List<String> seenByFrontrun = new ArrayList<>();
    private final StatementInspector frontrun = sql -> {
        seenByFrontrun.add(sql);
        return sql;
    };

    /** An application's inspector that Hibernate would create from its class name. */
    public static final class CommentingInspector implements StatementInspector {
        @Override
        public String inspect(String sql) {
            return "/* app */ " + sql;
        }
    }

    private StatementInspector registered(Object configured) {
        Map<String, Object> properties = new HashMap<>();
        if (configured != null) {
            properties.put(KEY, configured);
        }
        FrontrunHibernateConfiguration.registerInspector(properties, frontrun);
        return (StatementInspector) properties.get(KEY);
    }

    @Test
    void withoutAnApplicationInspectorFrontrunsIsSetAsIs() {
        assertThat(registered(null)).isSameAs(frontrun);
        assertThat(registered("  ")).isSameAs(frontrun);
    }

    @Test
    void anApplicationInspectorRunsFirstAndFrontrunSeesItsResult() {
        for (Object configured :
                List.of(new CommentingInspector(), CommentingInspector.class, CommentingInspector.class.getName())) {
            seenByFrontrun.clear();

            String sql = registered(configured).inspect("select 1");

            assertThat(sql).as("configured as %s", configured).isEqualTo("/* app */ select 1");
            assertThat(seenByFrontrun).containsExactly("/* app */ select 1");
        }
    }

    @Test
    void anApplicationInspectorReturningNullKeepsTheOriginalSql() {
        StatementInspector returnsNull = sql -> null;

        assertThat(registered(returnsNull).inspect("select 1")).isEqualTo("select 1");
    }

    @Test
    void aConfiguredInspectorThatCannotBeLoadedIsAnError() {
        assertThatThrownBy(() -> registered("com.example.Missing"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("com.example.Missing");
        assertThatThrownBy(() -> registered(String.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is not a");
    }
}
