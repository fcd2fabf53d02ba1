package dev.frontrun.jdbc;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What an ORM's metamodel knows about tables: the entity mapped to a table and its id columns.
 * Registered by the Hibernate integration; used to name rows in reports ({@code Owner#1}) and as
 * primary-key metadata that needs no catalog query.
 */
public final class SchemaHints {

    /** An entity mapped to a table. */
    public record Entity(String name, List<String> idColumns) {
        public Entity {
            idColumns = List.copyOf(idColumns);
        }
    }

    private static final Map<String, Entity> BY_TABLE = new ConcurrentHashMap<>();

    private SchemaHints() {
    }

    /** Registers the entity of {@code table} (bare or schema-qualified, case-insensitive). */
    public static void register(String table, String entity, List<String> idColumns) {
        BY_TABLE.put(normalize(table), new Entity(entity, idColumns));
    }

    public static Optional<Entity> entityOf(String table) {
        Entity e = BY_TABLE.get(normalize(table));
        if (e == null && table.startsWith("public.")) {
            e = BY_TABLE.get(normalize(table.substring("public.".length())));
        }
        return Optional.ofNullable(e);
    }

    private static String normalize(String table) {
        return table.replace("\"", "").toLowerCase(java.util.Locale.ROOT);
    }
}
