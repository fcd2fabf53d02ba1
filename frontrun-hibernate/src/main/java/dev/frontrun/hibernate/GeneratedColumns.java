package dev.frontrun.hibernate;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.hibernate.SessionFactory;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.generator.Generator;
import org.hibernate.generator.internal.CurrentTimestampGeneration;
import org.hibernate.persister.entity.AbstractEntityPersister;
import org.hibernate.persister.entity.EntityPersister;

/**
 * The columns whose values Hibernate makes and no serial order of the same requests reproduces, read from the
 * metamodel, so that a check against the serial orders compares them as they deserve: the {@code @Version} column of
 * each versioned entity, and the columns Hibernate sets to the time ({@code @CreationTimestamp},
 * {@code @UpdateTimestamp}, {@code @CurrentTimestamp}). Tables and columns are lower case, without quotes.
 */
public final class GeneratedColumns {

    /**
     * A versioned table's {@code @Version} column.
     *
     * @param column  its name
     * @param counter whether it counts (an integer type), rather than holding a time
     */
    public record Version(String column, boolean counter) {}

    private final Map<String, Version> versions = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> clocks = new ConcurrentHashMap<>();

    /** Reads the columns of every entity of {@code sessionFactory}. */
    public synchronized void learn(SessionFactory sessionFactory) {
        sessionFactory
                .unwrap(SessionFactoryImplementor.class)
                .getMappingMetamodel()
                .forEachEntityDescriptor(this::learn);
    }

    private void learn(EntityPersister persister) {
        if (!(persister instanceof AbstractEntityPersister entity)) {
            return;
        }
        if (entity.isVersioned() && entity.getVersionColumnName() != null) {
            Class<?> type = entity.getVersionType().getReturnedClass();
            boolean counter = type == Integer.class || type == Long.class || type == Short.class;
            versions.put(
                    normalize(entity.getVersionedTableName()),
                    new Version(normalize(entity.getVersionColumnName()), counter));
        }
        Generator[] generators = entity.getGenerators();
        for (int i = 0; i < generators.length; i++) {
            if (generators[i] instanceof CurrentTimestampGeneration) {
                for (String column : entity.getPropertyColumnNames(i)) {
                    clocks.computeIfAbsent(normalize(entity.getTableNameForColumn(column)), t -> new LinkedHashSet<>())
                            .add(normalize(column));
                }
            }
        }
    }

    /** Each versioned table's {@code @Version} column. */
    public Map<String, Version> versions() {
        return Map.copyOf(versions);
    }

    /** Each table's columns Hibernate sets to the time. */
    public synchronized Map<String, Set<String>> clocks() {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        clocks.forEach((table, columns) -> out.put(table, Set.copyOf(columns)));
        return Map.copyOf(out);
    }

    private static String normalize(String name) {
        return name == null ? null : name.replace("\"", "").toLowerCase(Locale.ROOT);
    }
}
