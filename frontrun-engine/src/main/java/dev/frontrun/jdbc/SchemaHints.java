package dev.frontrun.jdbc;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What an ORM's metamodel knows about tables: the entity mapped to a table and its id columns.
 * Registered by the Hibernate integration; used to name rows in reports ({@code Owner#1}) and as
 * primary-key metadata that needs no catalog query.
 *
 * <p>An instance per application (per Spring context), not one per JVM: two applications in one
 * JVM may map the same table name to different entities. The hints a wrapped data source carries
 * are given to {@link FrontrunDataSource#wrap(javax.sql.DataSource, SchemaHints)}. Thread-safe.
 */
public final class SchemaHints {

    /** An entity mapped to a table. */
    public record Entity(String name, List<String> idColumns) {
        public Entity {
            idColumns = List.copyOf(idColumns);
        }
    }

    private final Map<String, Entity> byTable = new ConcurrentHashMap<>();

    /** Registers the entity of {@code table} (bare or schema-qualified, case-insensitive). */
    public void register(String table, String entity, List<String> idColumns) {
        byTable.put(normalize(table), new Entity(entity, idColumns));
    }

    public Optional<Entity> entityOf(String table) {
        Entity e = byTable.get(normalize(table));
        if (e == null && table.startsWith("public.")) {
            e = byTable.get(normalize(table.substring("public.".length())));
        }
        return Optional.ofNullable(e);
    }

    private static String normalize(String table) {
        return table.replace("\"", "").toLowerCase(Locale.ROOT);
    }
}
