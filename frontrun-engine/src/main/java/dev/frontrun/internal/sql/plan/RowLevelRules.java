package dev.frontrun.internal.sql.plan;

import dev.frontrun.internal.sql.schema.Hazard;
import dev.frontrun.internal.sql.schema.KeyType;
import dev.frontrun.internal.sql.schema.RelationKind;
import dev.frontrun.internal.sql.schema.TableInfo;
import java.util.Collection;
import java.util.List;

/** Facts of a table's schema that decide whether its accesses can soundly be described row by row. */
final class RowLevelRules {

    private RowLevelRules() {}

    static boolean rowLevelPossible(TableInfo info) {
        return rowLevelObstacle(info) == null;
    }

    /** Why rows of the table cannot be told apart by key, or {@code null} if they can. */
    static String rowLevelObstacle(TableInfo info) {
        if (info.primaryKey().isEmpty()) {
            return "it has no primary key";
        }
        if (info.primaryKey().stream().anyMatch(c -> c.type() == KeyType.OTHER)) {
            return "its key type has no row-id normalisation";
        }
        if (info.kind() == RelationKind.SEQUENCE) {
            return "it is a sequence";
        }
        return null;
    }

    /** Whether a write of {@code columns} ({@code null}: a new row) can collide with another row's unique value. */
    static boolean uniqueConflict(TableInfo info, Collection<String> columns) {
        if (info.hazards().contains(Hazard.EXCLUSION_CONSTRAINT)
                || info.hazards().contains(Hazard.UNIQUE_EXPRESSION)) {
            return true;
        }
        for (List<String> unique : info.uniqueKeys()) {
            if (columns == null || intersects(columns, unique)) {
                return true;
            }
        }
        return false;
    }

    static boolean intersects(Collection<String> a, Collection<String> b) {
        for (String x : a) {
            if (b.contains(x)) {
                return true;
            }
        }
        return false;
    }
}
