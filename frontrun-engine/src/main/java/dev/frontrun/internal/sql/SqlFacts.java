package dev.frontrun.internal.sql;

import dev.frontrun.internal.sql.resource.Footprint;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.internal.sql.resource.RowRef;
import dev.frontrun.internal.sql.shape.StatementShape;
import dev.frontrun.internal.sql.syntax.StatementKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What one execution of a statement is, as values. Its text and bound parameters, its kind and
 * shape, the resources it reads and writes at their finest level, the tables it reads through a
 * predicate, and the rows it touches. Known before the statement runs; computed once per
 * execution by the SQL pipeline and never parsed back from a rendering.
 *
 * @param sql            the SQL text, or null for a boundary made through JDBC ({@code commit()})
 * @param parameters     bound parameters in index order
 * @param kind           what sort of statement it is
 * @param shape          snapshot, locking read, write basis, isolation setting
 * @param footprint      the resources read and written, the predicate reads and the rows touched
 * @param written        the columns a write sets and their values, in the order of the text (empty: not a write, or
 *                       one whose columns the text does not pair with values)
 */
public record SqlFacts(
        String sql,
        List<Object> parameters,
        StatementKind kind,
        StatementShape shape,
        Footprint footprint,
        List<ColumnValue> written) {

    /** The facts of a transaction boundary made through JDBC, without SQL text. */
    public static final SqlFacts JDBC_BOUNDARY =
            new SqlFacts(null, List.of(), StatementKind.TRANSACTION, StatementShape.UNKNOWN, Footprint.NONE, List.of());

    public SqlFacts {
        parameters = parameters == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(parameters));
        Objects.requireNonNull(footprint, "footprint");
        written = List.copyOf(written);
    }

    /** Resources read. */
    public Set<ResourceId> reads() {
        return footprint.reads();
    }

    /** Resources written. */
    public Set<ResourceId> writes() {
        return footprint.writes();
    }

    /** Tables read by a predicate that is not a primary-key lookup. */
    public Set<ResourceId> predicateReads() {
        return footprint.predicateReads();
    }

    /** The rows, tables and sequences touched. */
    public List<RowRef> rows() {
        return footprint.rows();
    }

    /** The tables (and sequences) it reads or writes, by canonical display name. */
    public Set<String> tables() {
        Set<String> tables = new LinkedHashSet<>();
        for (ResourceId id : reads()) {
            if (id.table() != null) {
                tables.add(id.table());
            }
        }
        for (ResourceId id : writes()) {
            if (id.table() != null) {
                tables.add(id.table());
            }
        }
        return tables;
    }

    /** The statement for people: whitespace collapsed, bound values inlined, length capped; null without SQL. */
    public String display() {
        return sql == null ? null : StatementText.withValues(sql, parameters);
    }
}
