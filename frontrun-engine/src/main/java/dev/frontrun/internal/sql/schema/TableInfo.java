package dev.frontrun.internal.sql.schema;

import dev.frontrun.internal.sql.syntax.TableName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the planner needs to know about one relation. Its canonical (schema-qualified) name, its kind,
 * its primary key with column types, the foreign keys in and out, other unique keys, the
 * {@link Hazard}s that make row-level claims unsafe, and the sequences its columns' defaults draw from.
 *
 * @param sequences by column, the sequences (canonical names) that a row taking the column's default draws from:
 *                  an identity or serial column's, or those a {@code DEFAULT nextval('…')} names. A column whose
 *                  default draws from none is absent.
 */
public record TableInfo(
        TableName name, RelationKind kind, Keys keys, Set<Hazard> hazards, Map<String, Set<TableName>> sequences) {

    public TableInfo {
        Objects.requireNonNull(name, "name");
        if (!name.qualified()) {
            throw new IllegalArgumentException("catalog names are schema-qualified: " + name);
        }
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(keys, "keys");
        hazards = hazards.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(hazards));
        Map<String, Set<TableName>> copy = new TreeMap<>();
        sequences.forEach((column, drawn) -> {
            if (!drawn.isEmpty()) {
                copy.put(column, Collections.unmodifiableSet(new LinkedHashSet<>(drawn)));
            }
        });
        sequences = Collections.unmodifiableMap(copy);
    }

    /** A relation whose columns' defaults draw from no sequence (or where that is not known). */
    public TableInfo(TableName name, RelationKind kind, Keys keys, Set<Hazard> hazards) {
        this(name, kind, keys, hazards, Map.of());
    }

    /** Every sequence some column's default draws from. */
    public Set<TableName> allSequences() {
        Set<TableName> out = new LinkedHashSet<>();
        sequences.values().forEach(out::addAll);
        return out;
    }

    /**
     * The keys of a relation, which decide which rows a statement can name.
     *
     * @param primaryKey     its columns with their types, in key order (empty: none)
     * @param primaryKeyName the primary key's constraint name, or null without one
     * @param foreignKeys    the foreign keys it declares
     * @param referencedBy   the foreign keys of other tables that reference it
     * @param uniqueKeys     the columns of its other unique keys
     */
    public record Keys(
            List<KeyColumn> primaryKey,
            String primaryKeyName,
            List<ForeignKey> foreignKeys,
            List<ForeignKey> referencedBy,
            List<List<String>> uniqueKeys) {

        public Keys {
            primaryKey = List.copyOf(primaryKey);
            foreignKeys = List.copyOf(foreignKeys);
            referencedBy = List.copyOf(referencedBy);
            uniqueKeys = uniqueKeys.stream().map(List::copyOf).toList();
        }
    }

    public List<KeyColumn> primaryKey() {
        return keys.primaryKey();
    }

    public String primaryKeyName() {
        return keys.primaryKeyName();
    }

    public List<ForeignKey> foreignKeys() {
        return keys.foreignKeys();
    }

    public List<ForeignKey> referencedBy() {
        return keys.referencedBy();
    }

    public List<List<String>> uniqueKeys() {
        return keys.uniqueKeys();
    }

    public List<String> primaryKeyColumns() {
        return primaryKey().stream().map(KeyColumn::name).toList();
    }

    /** Starts a description of an ordinary table; unqualified names land in {@code public}. */
    public static Builder table(String name) {
        return table(TableName.DEFAULT_SCHEMA, name);
    }

    public static Builder table(String schema, String name) {
        return new Builder(new TableName(schema, name));
    }

    /** Fluent construction, mainly for fixed catalogs in tests and for embedders without JDBC metadata. */
    public static final class Builder {
        private final TableName name;
        private RelationKind kind = RelationKind.TABLE;
        private final List<KeyColumn> primaryKey = new ArrayList<>();
        private String primaryKeyName;
        private final List<ForeignKey> foreignKeys = new ArrayList<>();
        private final List<ForeignKey> referencedBy = new ArrayList<>();
        private final List<List<String>> uniqueKeys = new ArrayList<>();
        private final Set<Hazard> hazards = EnumSet.noneOf(Hazard.class);
        private final Map<String, Set<TableName>> sequences = new LinkedHashMap<>();

        private Builder(TableName name) {
            this.name = name;
            this.primaryKeyName = name.name() + "_pkey";
        }

        public Builder kind(RelationKind kind) {
            this.kind = kind;
            return this;
        }

        /** Adds a primary-key column whose omitted value the database generates (call once per column, in key order). */
        public Builder key(String column, KeyType type) {
            primaryKey.add(new KeyColumn(column, type));
            return this;
        }

        /** Adds a primary-key column with a constant default (or none): omitting it does not give a fresh key. */
        public Builder keyWithoutGenerator(String column, KeyType type) {
            primaryKey.add(new KeyColumn(column, type, false));
            return this;
        }

        public Builder primaryKeyName(String constraintName) {
            this.primaryKeyName = constraintName;
            return this;
        }

        public Builder foreignKey(ForeignKey fk) {
            foreignKeys.add(fk);
            return this;
        }

        public Builder referencedBy(ForeignKey fk) {
            referencedBy.add(fk);
            return this;
        }

        public Builder unique(String... columns) {
            uniqueKeys.add(List.of(columns));
            return this;
        }

        /** Declares that a row taking {@code column}'s default draws from {@code sequence}. */
        public Builder drawsFrom(String column, TableName sequence) {
            sequences.computeIfAbsent(column, c -> new LinkedHashSet<>()).add(sequence);
            return this;
        }

        public Builder hazard(Hazard hazard) {
            hazards.add(hazard);
            return this;
        }

        public TableInfo build() {
            return new TableInfo(
                    name,
                    kind,
                    new Keys(
                            primaryKey,
                            primaryKey.isEmpty() ? null : primaryKeyName,
                            foreignKeys,
                            referencedBy,
                            uniqueKeys),
                    hazards,
                    sequences);
        }
    }
}
