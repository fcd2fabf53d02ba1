package dev.frontrun.demo.petclinic;

import dev.frontrun.testing.TestDatabase;
import dev.frontrun.testing.TestPostgres;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * One database per application variant on the shared test server: every test class of a variant
 * shares its Spring context, and so its database (tests create their own owners to stay apart).
 */
final class TestDatabases {

    private static final Map<Class<?>, TestDatabase> DATABASES = new ConcurrentHashMap<>();

    private TestDatabases() {}

    /** Points {@code spring.datasource.*} at the database of {@code variant}, created on first use. */
    static void register(DynamicPropertyRegistry registry, Class<?> variant) {
        TestDatabase db = DATABASES.computeIfAbsent(variant, TestPostgres::freshDatabase);
        registry.add("spring.datasource.url", db::jdbcUrl);
        registry.add("spring.datasource.username", db::user);
        registry.add("spring.datasource.password", db::password);
    }
}
