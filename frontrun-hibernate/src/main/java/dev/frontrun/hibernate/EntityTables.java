package dev.frontrun.hibernate;

import dev.frontrun.jdbc.SchemaHints;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hibernate.SessionFactory;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.metamodel.MappingMetamodel;
import org.hibernate.persister.entity.AbstractEntityPersister;
import org.hibernate.persister.entity.EntityPersister;

/**
 * Table ↔ entity mapping read from Hibernate's metamodel: which entity a table holds and its id
 * columns. Filled once the session factory exists; registers what it learns into the
 * {@link SchemaHints} it was given (those of the application's wrapped data source, for the SQL
 * classifier and reports), so two applications in one JVM keep their own naming.
 */
public final class EntityTables {

    private static final Pattern TABLE_AFTER = Pattern.compile("(?i)\\b(?:from|join|into|update)\\s+([\\w.\"]+)");

    /** Beyond this many statements, the entities found in them are all forgotten. */
    private static final int MAX_STATEMENTS = 4096;

    private final Map<String, String> entityByTable = new LinkedHashMap<>();
    /** The entities found in each statement: Hibernate prepares the same texts again and again. */
    private final Map<String, String> entitiesBySql = new ConcurrentHashMap<>();

    private final SchemaHints hints;

    /** @param hints where what the metamodel says is registered, e.g. {@code FrontrunDataSource.schemaHints(dataSource)} */
    public EntityTables(SchemaHints hints) {
        this.hints = Objects.requireNonNull(hints, "hints");
    }

    /** Reads the mapping of every entity of {@code sessionFactory}. */
    public void learn(SessionFactory sessionFactory) {
        MappingMetamodel metamodel =
                sessionFactory.unwrap(SessionFactoryImplementor.class).getMappingMetamodel();
        metamodel.forEachEntityDescriptor(persister -> learn(persister));
        entitiesBySql.clear();
    }

    private void learn(EntityPersister persister) {
        if (!(persister instanceof AbstractEntityPersister entity)) {
            return;
        }
        String entityName = simpleName(persister.getEntityName());
        List<String> ids = List.of(entity.getIdentifierColumnNames());
        for (String table : entity.getTableNames()) {
            String normalized = normalize(table);
            entityByTable.putIfAbsent(normalized, entityName);
            hints.register(normalized, entityName, ids);
        }
    }

    /** The entity mapped to {@code table}, or null. */
    public String entityOf(String table) {
        return entityByTable.get(normalize(table));
    }

    /** Entities whose tables {@code sql} mentions, comma-separated, in order of appearance. */
    String entitiesIn(String sql) {
        String known = entitiesBySql.get(sql);
        if (known != null) {
            return known;
        }
        String found = find(sql);
        if (entitiesBySql.size() >= MAX_STATEMENTS) {
            entitiesBySql.clear();
        }
        entitiesBySql.put(sql, found);
        return found;
    }

    private String find(String sql) {
        List<String> found = new ArrayList<>();
        Matcher m = TABLE_AFTER.matcher(sql);
        while (m.find()) {
            String entity = entityOf(m.group(1));
            if (entity != null && !found.contains(entity)) {
                found.add(entity);
            }
        }
        return String.join(", ", found);
    }

    public Map<String, String> entityByTable() {
        return Map.copyOf(entityByTable);
    }

    private static String simpleName(String entityName) {
        return entityName.substring(Math.max(entityName.lastIndexOf('.'), entityName.lastIndexOf('$')) + 1);
    }

    private static String normalize(String table) {
        return table.replace("\"", "").toLowerCase(Locale.ROOT);
    }
}
