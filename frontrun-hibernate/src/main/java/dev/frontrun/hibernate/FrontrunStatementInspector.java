package dev.frontrun.hibernate;

import dev.frontrun.jdbc.TraceLabels;
import dev.frontrun.spi.SchedulingPoints;
import org.hibernate.resource.jdbc.spi.StatementInspector;

/**
 * Tags each SQL statement Hibernate is about to prepare with the entities it concerns, so that
 * Frontrun's traces read {@code update owners set ... [Owner]}. Returns the SQL unchanged, and
 * outside an exploration does nothing at all.
 */
public final class FrontrunStatementInspector implements StatementInspector {

    private final EntityTables tables;

    public FrontrunStatementInspector(EntityTables tables) {
        this.tables = tables;
    }

    @Override
    public String inspect(String sql) {
        if (SchedulingPoints.active()) {
            String entities = tables.entitiesIn(sql);
            if (!entities.isEmpty()) {
                TraceLabels.tagStatement(sql, "[" + entities + "]");
            }
        }
        return sql;
    }
}
