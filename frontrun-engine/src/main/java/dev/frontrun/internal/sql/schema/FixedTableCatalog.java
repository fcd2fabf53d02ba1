package dev.frontrun.internal.sql.schema;

import dev.frontrun.internal.sql.syntax.TableName;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A catalog of tables known in advance, resolving unqualified names along a search path (by default
 * just {@code public}). Names not listed are {@link TableLookup.Missing}, which the planner treats as
 * "could be anything" (endpoint level).
 */
public final class FixedTableCatalog implements TableCatalog {

    private final List<String> searchPath;
    private final Map<TableName, TableInfo> tables = new HashMap<>();

    /**
     * Foreign keys need only be declared on the referencing table: they are added to the referenced
     * table's {@link TableInfo#referencedBy()} here.
     */
    public FixedTableCatalog(List<String> searchPath, Collection<TableInfo> tables) {
        this.searchPath = List.copyOf(searchPath);
        Map<TableName, List<ForeignKey>> incoming = new HashMap<>();
        for (TableInfo info : tables) {
            for (ForeignKey fk : info.foreignKeys()) {
                incoming.computeIfAbsent(fk.parent(), k -> new ArrayList<>()).add(fk);
            }
        }
        for (TableInfo info : tables) {
            List<ForeignKey> referencedBy = new ArrayList<>(info.referencedBy());
            for (ForeignKey fk : incoming.getOrDefault(info.name(), List.of())) {
                if (!referencedBy.contains(fk)) {
                    referencedBy.add(fk);
                }
            }
            TableInfo.Keys keys = new TableInfo.Keys(
                    info.primaryKey(), info.primaryKeyName(), info.foreignKeys(), referencedBy, info.uniqueKeys());
            this.tables.put(
                    info.name(), new TableInfo(info.name(), info.kind(), keys, info.hazards(), info.sequences()));
        }
    }

    public static FixedTableCatalog of(TableInfo... tables) {
        return new FixedTableCatalog(List.of(TableName.DEFAULT_SCHEMA), List.of(tables));
    }

    @Override
    public TableLookup lookup(TableName asWritten) {
        if (asWritten.qualified()) {
            return found(tables.get(asWritten), asWritten);
        }
        for (String schema : searchPath) {
            TableInfo info = tables.get(new TableName(schema, asWritten.name()));
            if (info != null) {
                return new TableLookup.Found(info);
            }
        }
        return found(null, asWritten);
    }

    private static TableLookup found(TableInfo info, TableName name) {
        return info != null ? new TableLookup.Found(info) : new TableLookup.Missing("no relation " + name);
    }
}
